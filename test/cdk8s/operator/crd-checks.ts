/**
 * Checks of CustomResourceDefinitions the way the Kubernetes API server makes them, without a
 * cluster: the apiextensions.k8s.io/v1 rules for the CRD object, the structural schema rules for
 * its `openAPIV3Schema`, and the validation plus pruning a custom resource goes through. Also a
 * schema diff, to list exactly where one CRD accepts more or less than another.
 *
 * The rules follow the apiextensions v1 documentation ("Specifying a structural schema",
 * validation of CRD versions and printer columns); they are written out here so that a test can
 * show each rule both passing and failing.
 */
import Ajv from 'ajv';
import { checkStructural } from '../../../src/model/wire/structural';

type Schema = Record<string, any>;

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
/** Keywords apiextensions v1 accepts in a schema node. */
const ALLOWED_KEYWORDS = new Set([
  'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum', 'maxProperties',
  'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'additionalProperties',
  'nullable', 'externalDocs', 'example',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
]);
/** Formats the API server validates (others are ignored with a warning: treated as errors here). */
const FORMATS = new Set([
  'bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5',
  'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date', 'duration',
  'datetime', 'date-time', 'int32', 'int64', 'float', 'double',
]);
const JUNCTORS = ['allOf', 'anyOf', 'oneOf', 'not'] as const;
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Structural schema violations of one schema tree (empty when structural). */
export function structuralSchemaErrors(schema: Schema, path = 'openAPIV3Schema'): string[] {
  const errors: string[] = [];
  if (schema.type !== 'object') errors.push(`${path}: the root must have type object`);
  node(schema, path, errors, { root: true, inJunctor: false });
  return errors;
}

function node(s: Schema, path: string, errors: string[], ctx: { root: boolean; inJunctor: boolean }): void {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) {
    errors.push(`${path}: a schema must be an object`);
    return;
  }
  for (const k of Object.keys(s)) if (!ALLOWED_KEYWORDS.has(k)) errors.push(`${path}: ${k} is not allowed in a structural schema`);
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (s['x-kubernetes-preserve-unknown-fields'] === false) errors.push(`${path}: x-kubernetes-preserve-unknown-fields must be true or absent`);
  if (ctx.inJunctor) {
    for (const k of ['description', 'type', 'default', 'additionalProperties', 'nullable']) {
      if (k in s) errors.push(`${path}: ${k} is not allowed inside allOf/anyOf/oneOf/not`);
    }
  } else if (intOrString) {
    if ('type' in s) errors.push(`${path}: x-kubernetes-int-or-string must not have a type`);
    const ok = (alts: unknown) => JSON.stringify(alts) === JSON.stringify([{ type: 'integer' }, { type: 'string' }]);
    if ('anyOf' in s && !ok(s.anyOf)) errors.push(`${path}: x-kubernetes-int-or-string allows anyOf [integer, string] only`);
    if ('allOf' in s && !(Array.isArray(s.allOf) && s.allOf.length === 1 && ok(s.allOf[0].anyOf))) errors.push(`${path}: x-kubernetes-int-or-string allows allOf [{anyOf [integer, string]}] only`);
  } else if (!('type' in s)) {
    if (!preserve) errors.push(`${path}: every node needs a type (unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields)`);
  } else if (!TYPES.includes(s.type)) {
    errors.push(`${path}: type ${JSON.stringify(s.type)} is not one of ${TYPES.join(', ')}`);
  }
  if ('format' in s && !FORMATS.has(s.format)) errors.push(`${path}: format ${JSON.stringify(s.format)} is not a format the API server knows`);
  if (s.uniqueItems === true) errors.push(`${path}: uniqueItems true is not allowed`);
  if ('properties' in s && 'additionalProperties' in s) errors.push(`${path}: properties and additionalProperties are mutually exclusive`);
  if ('additionalProperties' in s && typeof s.additionalProperties === 'boolean') {
    errors.push(`${path}: additionalProperties must be a schema (a boolean is not allowed)`);
  }
  if ('items' in s && Array.isArray(s.items)) errors.push(`${path}: items must be a single schema, not a list`);
  if (s.type === 'array' && !('items' in s) && !ctx.inJunctor) errors.push(`${path}: an array needs items`);
  if (s.type !== undefined && s.type !== 'object' && ('properties' in s || 'additionalProperties' in s)) {
    errors.push(`${path}: properties on a non-object type ${s.type}`);
  }
  if ('required' in s) {
    if (!Array.isArray(s.required) || s.required.some((r: unknown) => typeof r !== 'string')) errors.push(`${path}: required must be a list of names`);
    else for (const r of s.required) if (s.properties && !(r in s.properties)) errors.push(`${path}: required ${r} is not a property`);
  }
  if (Array.isArray(s.enum) && typeof s.type === 'string') {
    for (const v of s.enum) if (!matchesType(v, s.type)) errors.push(`${path}: enum value ${JSON.stringify(v)} is not of type ${s.type}`);
  }
  if (typeof s.pattern === 'string') {
    try {
      new RegExp(s.pattern);
    } catch {
      errors.push(`${path}: pattern ${JSON.stringify(s.pattern)} is not a regular expression`);
    }
  }
  if (ctx.root && s.properties?.metadata) {
    const m = s.properties.metadata;
    const extra = Object.keys(m.properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
    if (m.type !== 'object' || extra.length > 0 || 'additionalProperties' in m || 'required' in m) {
      errors.push(`${path}.properties.metadata: only type object and restrictions of name and generateName are allowed`);
    }
  }
  for (const [k, v] of Object.entries(s.properties ?? {})) node(v as Schema, `${path}.properties.${k}`, errors, { root: false, inJunctor: ctx.inJunctor });
  if (s.additionalProperties && typeof s.additionalProperties === 'object') node(s.additionalProperties, `${path}.additionalProperties`, errors, { root: false, inJunctor: ctx.inJunctor });
  if (s.items && !Array.isArray(s.items)) node(s.items, `${path}.items`, errors, { root: false, inJunctor: ctx.inJunctor });
  for (const j of JUNCTORS) {
    if (!(j in s)) continue;
    const alts: Schema[] = j === 'not' ? [s.not] : s[j];
    alts.forEach((a, i) => {
      node(a, `${path}.${j}[${i}]`, errors, { root: false, inJunctor: true });
      // A field constrained inside a junctor must also be specified outside it.
      for (const p of Object.keys(a.properties ?? {})) if (!s.properties?.[p]) errors.push(`${path}.${j}[${i}]: property ${p} is not specified outside the junctor`);
      if (a.items && !s.items) errors.push(`${path}.${j}[${i}]: items are not specified outside the junctor`);
    });
  }
}

function matchesType(v: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(v);
  if (type === 'number') return typeof v === 'number';
  if (type === 'array') return Array.isArray(v);
  if (type === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
  return typeof v === type;
}

/** apiextensions.k8s.io/v1 CustomResourceDefinition errors: the object, its versions, and each schema. */
export function crdDefinitionErrors(crd: Schema): string[] {
  const errors: string[] = [];
  if (crd.apiVersion !== 'apiextensions.k8s.io/v1') errors.push(`apiVersion ${JSON.stringify(crd.apiVersion)}: only apiextensions.k8s.io/v1 is served since Kubernetes 1.22`);
  if (crd.kind !== 'CustomResourceDefinition') errors.push(`kind ${JSON.stringify(crd.kind)}`);
  const spec = crd.spec ?? {};
  const names = spec.names ?? {};
  if (!DNS1123_SUBDOMAIN.test(spec.group ?? '') || !String(spec.group).includes('.')) errors.push(`spec.group ${JSON.stringify(spec.group)} must be a DNS subdomain with a dot`);
  if (crd.metadata?.name !== `${names.plural}.${spec.group}`) errors.push(`metadata.name ${JSON.stringify(crd.metadata?.name)} must be <plural>.<group>`);
  for (const k of ['plural', 'singular']) if (!DNS1035.test(names[k] ?? '')) errors.push(`spec.names.${k} ${JSON.stringify(names[k])} must be a lowercase DNS-1035 label`);
  for (const k of ['kind', 'listKind']) if (!/^[A-Z][A-Za-z0-9]*$/.test(names[k] ?? '')) errors.push(`spec.names.${k} ${JSON.stringify(names[k])} must be CamelCase`);
  if (names.kind === names.listKind) errors.push('spec.names.listKind must differ from kind');
  for (const s of names.shortNames ?? []) if (!DNS1035.test(s)) errors.push(`spec.names.shortNames ${JSON.stringify(s)} must be lowercase DNS-1035 labels`);
  if (!['Namespaced', 'Cluster'].includes(spec.scope)) errors.push(`spec.scope ${JSON.stringify(spec.scope)} must be Namespaced or Cluster`);
  const versions: Schema[] = spec.versions ?? [];
  if (versions.length === 0) errors.push('spec.versions must not be empty');
  if (versions.filter((v) => v.storage === true).length !== 1) errors.push('exactly one version must have storage: true');
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    const p = `spec.versions[${i}]`;
    if (!DNS1035.test(v.name ?? '') || seen.has(v.name)) errors.push(`${p}.name ${JSON.stringify(v.name)} must be a unique DNS-1035 label`);
    seen.add(v.name);
    if (typeof v.served !== 'boolean' || typeof v.storage !== 'boolean') errors.push(`${p}: served and storage must be booleans`);
    const schema = v.schema?.openAPIV3Schema;
    if (!schema) errors.push(`${p}.schema.openAPIV3Schema is required in apiextensions v1`);
    else errors.push(...structuralSchemaErrors(schema, `${p}.schema.openAPIV3Schema`));
    if (v.subresources !== undefined) {
      for (const k of Object.keys(v.subresources)) if (k !== 'status' && k !== 'scale') errors.push(`${p}.subresources.${k} is not a subresource`);
      if (v.subresources.status !== undefined && JSON.stringify(v.subresources.status) !== '{}') errors.push(`${p}.subresources.status must be {}`);
    }
    const columns: Schema[] = v.additionalPrinterColumns ?? [];
    const columnNames = new Set<string>();
    columns.forEach((c, j) => {
      const cp = `${p}.additionalPrinterColumns[${j}]`;
      if (!c.name || columnNames.has(c.name)) errors.push(`${cp}.name must be unique and not empty`);
      columnNames.add(c.name);
      if (!['integer', 'number', 'string', 'boolean', 'date'].includes(c.type)) errors.push(`${cp}.type ${JSON.stringify(c.type)}`);
      if (c.format !== undefined && !['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password'].includes(c.format)) errors.push(`${cp}.format ${JSON.stringify(c.format)}`);
      if (typeof c.jsonPath !== 'string' || !c.jsonPath.startsWith('.')) errors.push(`${cp}.jsonPath must start with "."`);
      if (c.priority !== undefined && !(Number.isInteger(c.priority) && c.priority >= 0)) errors.push(`${cp}.priority must be a non-negative integer`);
      for (const k of Object.keys(c)) if (!['name', 'type', 'format', 'description', 'priority', 'jsonPath'].includes(k)) errors.push(`${cp}.${k} is not a printer column field`);
    });
  });
  return errors;
}

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

/** The schema as ajv needs it: int-or-string spelled as anyOf (ajv does not know the extension). */
function forAjv(s: Schema): Schema {
  if (Array.isArray(s)) return s.map(forAjv);
  if (s === null || typeof s !== 'object') return s;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) out[k] = k === 'enum' || k === 'default' || k === 'example' ? v : forAjv(v as Schema);
  if (s['x-kubernetes-int-or-string'] === true && out.anyOf === undefined) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  return out;
}

/**
 * What the API server says of one custom resource under `crd`: rejected values (types, required,
 * enums, patterns) and silently pruned fields. Empty when the object is stored as written.
 */
export function customResourceErrors(crd: Schema, obj: Record<string, unknown>): string[] {
  const [group, version] = String(obj.apiVersion).split('/');
  const v = (crd.spec.versions as Schema[]).find((x) => x.name === version);
  if (group !== crd.spec.group || !v) return [`apiVersion ${String(obj.apiVersion)} is not served by ${crd.metadata.name}`];
  if (obj.kind !== crd.spec.names.kind) return [`kind ${String(obj.kind)} is not ${crd.spec.names.kind}`];
  const schema = v.schema.openAPIV3Schema;
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(forAjv(schema));
    compiled.set(schema, validate);
  }
  const errors = validate(obj) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  const body = { ...obj };
  delete body.metadata; // validated by the API server itself, not by the CRD schema
  for (const f of checkStructural({ ...schema, properties: { ...schema.properties, metadata: {} } }, body)) {
    errors.push(`${f.path.join('.')} ${f.kind}: ${f.message}`);
  }
  return errors;
}

/** One place where two schemas accept different things. */
export interface SchemaDifference {
  /** Dotted path from the root schema (`[]` for array items). */
  readonly path: string;
  readonly what: string;
}

const COMPARED = ['type', 'format', 'pattern', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'nullable', 'x-kubernetes-int-or-string'] as const;

/** Every difference in what `ours` and `theirs` accept (descriptions are ignored). */
export function schemaDifferences(ours: Schema, theirs: Schema, path = ''): SchemaDifference[] {
  const out: SchemaDifference[] = [];
  const at = path === '' ? '(root)' : path;
  const po = ours['x-kubernetes-preserve-unknown-fields'] === true;
  const pt = theirs['x-kubernetes-preserve-unknown-fields'] === true;
  const closed = (s: Schema) => Object.keys(s.properties ?? {}).length;
  if (po !== pt) {
    out.push({ path: at, what: po ? `ours free-form; theirs closed (${closed(theirs)} known properties, unknown keys pruned)` : `ours closed (${closed(ours)} properties); theirs free-form` });
    return out;
  }
  for (const k of COMPARED) {
    const a = JSON.stringify(ours[k]);
    const b = JSON.stringify(theirs[k]);
    if (a !== b) out.push({ path: at, what: `${k}: ours ${a ?? 'unset'}, theirs ${b ?? 'unset'}` });
  }
  const ro: string[] = ours.required ?? [];
  const rt: string[] = theirs.required ?? [];
  for (const r of ro) if (!rt.includes(r)) out.push({ path: at, what: `required ${r}: ours only` });
  for (const r of rt) if (!ro.includes(r)) out.push({ path: at, what: `required ${r}: theirs only` });
  const po2 = ours.properties ?? {};
  const pt2 = theirs.properties ?? {};
  const join = (k: string) => (path === '' ? k : `${path}.${k}`);
  for (const k of Object.keys(po2)) if (!(k in pt2)) out.push({ path: join(k), what: 'ours only (theirs prunes it)' });
  for (const k of Object.keys(pt2)) if (!(k in po2)) out.push({ path: join(k), what: 'theirs only (ours prunes it)' });
  for (const k of Object.keys(po2)) if (k in pt2) out.push(...schemaDifferences(po2[k], pt2[k], join(k)));
  if (ours.items && theirs.items) out.push(...schemaDifferences(ours.items, theirs.items, `${path}[]`));
  const ao = ours.additionalProperties;
  const at2 = theirs.additionalProperties;
  if (typeof ao === 'object' && typeof at2 === 'object') out.push(...schemaDifferences(ao, at2, `${path}.*`));
  else if (JSON.stringify(ao) !== JSON.stringify(at2)) out.push({ path: at, what: `additionalProperties: ours ${JSON.stringify(ao) ?? 'unset'}, theirs ${JSON.stringify(at2) ?? 'unset'}` });
  return out;
}
