/**
 * Strict validation of Flux objects against the published Flux CRDs: the served version's
 * openAPIV3Schema through ajv, with every object schema closed (`additionalProperties: false`)
 * unless the CRD keeps unknown fields (`x-kubernetes-preserve-unknown-fields`) or types a map
 * (`additionalProperties`), since the API server would prune a field it does not know and so drop
 * it silently; and the CRDs' CEL rules (`x-kubernetes-validations`), evaluated by a small
 * interpreter of the CEL subset these CRDs use (has(), ==, !=, !, &&, ||, parentheses, strings),
 * which throws on anything else so that no rule goes unchecked. The `v1` Namespaces of the output
 * are checked against the Kubernetes API's own types (kube-namespace.ts).
 */
import Ajv from 'ajv';
import * as yaml from 'js-yaml';
import { namespaceErrors } from './kube-namespace';
import { readShared } from './shared';

type Schema = Record<string, any>;

const FILES: Record<string, { file: string; version: string }> = {
  HelmRelease: { file: 'helm.toolkit.fluxcd.io_helmreleases.yaml', version: 'v2' },
  Kustomization: { file: 'kustomize.toolkit.fluxcd.io_kustomizations.yaml', version: 'v1' },
  GitRepository: { file: 'source.toolkit.fluxcd.io_gitrepositories.yaml', version: 'v1' },
  HelmRepository: { file: 'source.toolkit.fluxcd.io_helmrepositories.yaml', version: 'v1' },
  OCIRepository: { file: 'source.toolkit.fluxcd.io_ocirepositories.yaml', version: 'v1' },
  HelmChart: { file: 'source.toolkit.fluxcd.io_helmcharts.yaml', version: 'v1' },
  Bucket: { file: 'source.toolkit.fluxcd.io_buckets.yaml', version: 'v1' },
};

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const compiled = new Map<string, { schema: Schema; validate: ReturnType<typeof ajv.compile>; apiVersion: string }>();

/** A copy of the schema with every object closed where the API server would prune. */
export function closeSchema(s: Schema): Schema {
  if (Array.isArray(s)) return s.map(closeSchema) as unknown as Schema;
  if (s === null || typeof s !== 'object') return s;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Schema).map(([p, x]) => [p, closeSchema(x as Schema)]));
    else if (k === 'items' || k === 'additionalProperties' || k === 'allOf' || k === 'anyOf' || k === 'oneOf' || k === 'not') out[k] = closeSchema(v as Schema);
    else out[k] = v;
  }
  if (out.type === 'object' && out.additionalProperties === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) out.additionalProperties = false;
  return out;
}

function crd(kind: string) {
  let c = compiled.get(kind);
  if (!c) {
    const f = FILES[kind];
    if (!f) throw new Error(`no Flux CRD for kind ${kind}`);
    const doc = yaml.load(readShared('schemas', 'flux', f.file)) as Schema;
    const v = (doc.spec.versions as Schema[]).find((x) => x.name === f.version)!;
    if (!v.served) throw new Error(`${kind} ${f.version} is not served`);
    const raw = v.schema.openAPIV3Schema as Schema;
    // The API server validates metadata itself; the CRD only says `type: object`.
    const schema = closeSchema({ ...raw, properties: { ...raw.properties, metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } });
    c = { schema, validate: ajv.compile(schema), apiVersion: `${doc.spec.group}/${f.version}` };
    compiled.set(kind, c);
  }
  return c;
}

/** Every problem of one object against its Flux CRD (empty when the API server would accept it as is). */
export function fluxCrdErrors(obj: { apiVersion?: string | undefined; kind: string; [k: string]: unknown }): string[] {
  if (obj.kind === 'Namespace') return namespaceErrors(obj);
  const c = crd(obj.kind);
  const errors: string[] = [];
  if (obj.apiVersion !== c.apiVersion) errors.push(`/apiVersion is ${JSON.stringify(obj.apiVersion)}, the served version is ${c.apiVersion}`);
  if (!c.validate(obj)) for (const e of c.validate.errors ?? []) errors.push(`${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
  celErrors(c.schema, obj, '', errors);
  return errors;
}

function celErrors(schema: Schema, value: unknown, path: string, errors: string[]): void {
  if (value === undefined || schema === undefined) return;
  for (const rule of (schema['x-kubernetes-validations'] ?? []) as { rule: string; message: string }[]) {
    if (!evalCel(rule.rule, value)) errors.push(`${path || '/'} ${rule.message} (CEL: ${rule.rule})`);
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => celErrors(schema.items, v, `${path}/${i}`, errors));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const sub = schema.properties?.[k] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (sub) celErrors(sub, v, `${path}/${k}`, errors);
    }
  }
}

/** Evaluates a rule of the CEL subset the Flux CRDs use, with `self` bound to `self`. */
export function evalCel(rule: string, self: unknown): boolean {
  const tokens = rule.match(/\s*(has|self(?:\.[A-Za-z_][A-Za-z0-9_]*)+|self|'(?:[^'\\]|\\.)*'|&&|\|\||==|!=|!|\(|\))/g)?.map((t) => t.trim()) ?? [];
  if (tokens.join('') !== rule.replace(/\s+/g, '')) throw new Error(`CEL rule outside the supported subset: ${rule}`);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const field = (ref: string): unknown => ref.split('.').slice(1).reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), self);
  const primary = (): unknown => {
    const t = next();
    if (t === '!') return !primary();
    if (t === '(') {
      const v = or();
      if (next() !== ')') throw new Error(`unbalanced CEL rule: ${rule}`);
      return v;
    }
    if (t === 'has') {
      if (next() !== '(') throw new Error(`bad has() in ${rule}`);
      const ref = next();
      if (next() !== ')') throw new Error(`bad has() in ${rule}`);
      return field(ref) !== undefined;
    }
    if (t?.startsWith("'")) return t.slice(1, -1).replace(/\\(.)/g, '$1');
    if (t?.startsWith('self')) return field(t);
    throw new Error(`unexpected ${t} in CEL rule ${rule}`);
  };
  const compare = (): unknown => {
    const a = primary();
    if (peek() === '==' || peek() === '!=') {
      const op = next();
      const b = primary();
      return op === '==' ? a === b : a !== b;
    }
    return a;
  };
  const and = (): unknown => {
    let v = compare();
    while (peek() === '&&') {
      next();
      const w = compare();
      v = Boolean(v) && Boolean(w);
    }
    return v;
  };
  const or = (): unknown => {
    let v = and();
    while (peek() === '||') {
      next();
      const w = and();
      v = Boolean(v) || Boolean(w);
    }
    return v;
  };
  const result = or();
  if (i !== tokens.length) throw new Error(`trailing tokens in CEL rule ${rule}`);
  return Boolean(result);
}
