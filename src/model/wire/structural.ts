/**
 * What the Kubernetes API server does to a value under a structural CRD schema (apiextensions v1):
 * unknown fields are pruned silently, `null` in a non-nullable field is pruned, and a wrong type
 * is rejected. Used to warn before a CR loses data on its way into the cluster.
 */

/** The subset of an OpenAPI v3 structural schema that pruning and type checks depend on. */
export interface StructuralSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly additionalProperties?: StructuralSchema | boolean;
  readonly items?: StructuralSchema;
  readonly nullable?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
}

/** One finding: where (inside the value) and what the API server would do. */
export interface StructuralFinding {
  readonly path: readonly (string | number)[];
  readonly kind: 'pruned' | 'rejected';
  readonly message: string;
}

/** Walks `value` under `schema` and reports every pruned field and every rejected value. */
export function checkStructural(schema: StructuralSchema, value: unknown): StructuralFinding[] {
  const out: StructuralFinding[] = [];
  walk(schema, value, [], out);
  return out;
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function walk(schema: StructuralSchema, value: unknown, path: (string | number)[], out: StructuralFinding[]): void {
  if (value === null) {
    if (!schema.nullable) out.push({ path, kind: 'pruned', message: 'null is dropped by the API server (the field is not nullable), so Helm never sees it' });
    return;
  }
  const actual = typeOf(value);
  if (schema['x-kubernetes-int-or-string']) {
    if (actual !== 'integer' && actual !== 'string') out.push({ path, kind: 'rejected', message: `received ${actual}; the CRD requires an integer or a string` });
    return;
  }
  if (schema.type !== undefined) {
    const ok = schema.type === actual || (schema.type === 'number' && actual === 'integer');
    if (!ok) {
      out.push({ path, kind: 'rejected', message: `received ${actual}; the CRD requires ${schema.type}` });
      return;
    }
  }
  if (actual === 'array' && schema.items) {
    (value as unknown[]).forEach((v, i) => walk(schema.items!, v, [...path, i], out));
    return;
  }
  if (actual !== 'object') return;
  const obj = value as Record<string, unknown>;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  for (const key of Object.keys(obj)) {
    // Own properties only: a value key `constructor` is not a property of every schema.
    const prop = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
    if (prop) {
      walk(prop, obj[key], [...path, key], out);
    } else if (typeof schema.additionalProperties === 'object') {
      walk(schema.additionalProperties, obj[key], [...path, key], out);
    } else if (schema.additionalProperties === true || preserve) {
      continue;
    } else {
      out.push({ path: [...path, key], kind: 'pruned', message: 'unknown to the CRD schema, so the API server drops it silently and Helm never sees it' });
    }
  }
}
