/**
 * What the Kubernetes API server does to a value under a structural CRD schema (apiextensions v1):
 * unknown fields are pruned silently, `null` in a non-nullable field is pruned, and a wrong type
 * is rejected. Used to warn before a CR loses data on its way into the cluster.
 */

/** The subset of an OpenAPI v3 structural schema that pruning and type checks depend on. */
export interface StructuralSchema {
  readonly type?: string | undefined;
  readonly properties?: Readonly<Record<string, StructuralSchema>> | undefined;
  readonly additionalProperties?: StructuralSchema | boolean | undefined;
  readonly items?: StructuralSchema | undefined;
  readonly nullable?: boolean | undefined;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean | undefined;
  readonly 'x-kubernetes-int-or-string'?: boolean | undefined;
}

/** One finding: where (inside the value) and what the API server would do. */
export interface StructuralFinding {
  /** `[...parent, key]`, or `parent` when the finding has no key. */
  readonly path: readonly (string | number)[];
  /** The object the finding is in (one array shared by every finding of that object). */
  readonly parent: readonly (string | number)[];
  /** The key of the finding in `parent`, for a pruned field. */
  readonly key?: string | undefined;
  readonly kind: 'pruned' | 'rejected';
  readonly message: string;
}

class Finding implements StructuralFinding {
  constructor(
    public readonly parent: readonly (string | number)[],
    public readonly key: string | undefined,
    public readonly kind: 'pruned' | 'rejected',
    public readonly message: string,
  ) {}
  public get path(): readonly (string | number)[] {
    return this.key === undefined ? this.parent : [...this.parent, this.key];
  }
}

/** The findings of {@link checkStructuralBounded}: the first ones, and how many there are of each kind. */
export interface BoundedFindings {
  /** The first `limit` findings, in the order of the walk. */
  readonly listed: StructuralFinding[];
  /** How many findings of each kind the walk made beyond those listed. */
  readonly unlisted: { readonly pruned: number; readonly rejected: number };
}

/**
 * Walks `value` under `schema` and reports every pruned field and every rejected value.
 * @param at - where `value` is, the start of every finding's path
 */
export function checkStructural(schema: StructuralSchema, value: unknown, at: readonly (string | number)[] = []): StructuralFinding[] {
  return checkStructuralBounded(schema, value, at, Infinity).listed;
}

/**
 * {@link checkStructural}, keeping the first `limit` findings and only counting the rest: a value
 * of a million keys that a closed schema prunes would otherwise be a million findings.
 */
export function checkStructuralBounded(schema: StructuralSchema, value: unknown, at: readonly (string | number)[], limit: number): BoundedFindings {
  const out: StructuralFinding[] = [];
  const unlisted = { pruned: 0, rejected: 0 };
  // One path, extended and shortened as the walk goes; copied only into a finding.
  const path: (string | number)[] = [...at];
  // A closed schema can prune thousands of values: the findings of one object share one copy of
  // its path.
  let shared: (string | number)[] | undefined;
  const here = () => (shared ??= path.slice());
  const found = (kind: StructuralFinding['kind'], message: string, key?: string) => {
    if (out.length < limit) out.push(new Finding(here(), key, kind, message));
    else unlisted[kind]++;
  };
  const enter = (k: string | number) => {
    path.push(k);
    shared = undefined;
  };
  const leave = () => {
    path.pop();
    shared = undefined;
  };
  const walk = (schema: StructuralSchema, value: unknown): void => {
    if (value === null) {
      if (!schema.nullable) found('pruned', 'null is dropped by the API server (the field is not nullable), so Helm never sees it');
      return;
    }
    const actual = typeOf(value);
    if (schema['x-kubernetes-int-or-string']) {
      if (actual !== 'integer' && actual !== 'string') found('rejected', `received ${actual}; the CRD requires an integer or a string`);
      return;
    }
    if (schema.type !== undefined) {
      const ok = schema.type === actual || (schema.type === 'number' && actual === 'integer');
      if (!ok) {
        found('rejected', `received ${actual}; the CRD requires ${schema.type}`);
        return;
      }
    }
    if (actual === 'array' && schema.items) {
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) {
        enter(i);
        walk(schema.items, items[i]);
        leave();
      }
      return;
    }
    if (actual !== 'object') return;
    const obj = value as Record<string, unknown>;
    const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
    for (const key of Object.keys(obj)) {
      // Own properties only: a value key `constructor` is not a property of every schema.
      const prop = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      const next = prop ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (next !== undefined) {
        enter(key);
        walk(next, obj[key]);
        leave();
      } else if (schema.additionalProperties !== true && !preserve) {
        found('pruned', 'unknown to the CRD schema, so the API server drops it silently and Helm never sees it', key);
      }
    }
  };
  walk(schema, value);
  return { listed: out, unlisted };
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}
