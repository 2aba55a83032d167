/**
 * Validation of synthesized output against the real schemas: Armada's Draft-4 JSON schemas, and
 * operator CRDs the way the API server applies them (types and required fields through ajv, and
 * pruning of unknown fields, which would drop data silently).
 */
import Ajv from 'ajv';
import AjvDraft04 from 'ajv-draft-04';
import * as yaml from 'js-yaml';
import { checkStructural } from '../../src/model/wire/structural';
import { readShared } from './shared';

const draft4 = new AjvDraft04({ allErrors: true, strict: false });
const armadaValidators = new Map<string, ReturnType<typeof draft4.compile>>();

function armadaValidator(schema: string) {
  let v = armadaValidators.get(schema);
  if (!v) {
    const [, kind, version] = schema.split('/');
    const file = `armada-${kind.toLowerCase()}-schema-${version}.yaml`;
    const docs = yaml.loadAll(readShared('schemas', 'armada', file)) as { metadata: { name: string }; data: Record<string, unknown> }[];
    const data = { ...docs.find((d) => d && d.metadata?.name === schema)!.data };
    delete data.$schema;
    v = draft4.compile(data);
    armadaValidators.set(schema, v);
  }
  return v;
}

/** Errors of one Armada document against Armada's own schema (empty when valid). */
export function armadaSchemaErrors(doc: { schema: string; data: unknown }): string[] {
  const v = armadaValidator(doc.schema);
  return v(doc.data) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}

const openapi = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const crdValidators = new Map<string, { validate: ReturnType<typeof openapi.compile>; schema: Record<string, unknown> }>();

/** Loads `schemas/operator/<dir>/<file>` and compiles the served version's schema. */
function crd(dir: string, kind: string) {
  const key = `${dir}/${kind}`;
  let c = crdValidators.get(key);
  if (!c) {
    const file = `armada.airshipit.org_${kind.toLowerCase()}s.yaml`;
    const doc = yaml.load(readShared('schemas', 'operator', dir, file)) as { spec: { versions: { schema: { openAPIV3Schema: Record<string, unknown> } }[] } };
    const schema = doc.spec.versions[0].schema.openAPIV3Schema;
    c = { validate: openapi.compile(schema), schema };
    crdValidators.set(key, c);
  }
  return c;
}

/** Problems of one object against an operator CRD: rejected values and pruned fields. */
export function crdErrors(dir: 'airship-v1' | 'keleustes-v1alpha1', obj: { kind: string; [k: string]: unknown }): string[] {
  const c = crd(dir, obj.kind);
  const errors = c.validate(obj) ? [] : (c.validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  const body = { ...obj };
  delete body.metadata; // metadata is validated by the API server itself, not by the CRD schema
  for (const f of checkStructural({ ...(c.schema as object), properties: { ...(c.schema.properties as object), metadata: {} } } as never, body)) {
    errors.push(`${f.path.join('.')} ${f.kind}: ${f.message}`);
  }
  return errors;
}
