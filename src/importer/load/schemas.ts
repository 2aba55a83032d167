/**
 * Armada's own JSON schemas (the six files Armada ships in `armada/schemas/`), bundled in
 * `<package root>/schemas/armada`. Validation uses validators that ajv generated from them ahead
 * of time (`schemas/armada/validators/*.js`, written by `scripts/generate-armada-validators.ts`;
 * a test fails when one is stale), each loaded the first time a document of its schema is
 * validated: a run neither loads ajv nor compiles a schema.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ValidateFunction } from 'ajv-draft-04';
import type Ajv from 'ajv-draft-04';
import { jsyaml } from './js-yaml';
import { armadaSchemaDir } from './package-root';
import { PYYAML_SAFE_SCHEMA } from './pyyaml-schema';
import { detached } from '../../model/detached';

/** The six schema strings Armada recognises; any other document is ignored by Armada. */
export const ARMADA_SCHEMAS = [
  'armada/Chart/v1',
  'armada/Chart/v2',
  'armada/ChartGroup/v1',
  'armada/ChartGroup/v2',
  'armada/Manifest/v1',
  'armada/Manifest/v2',
] as const;

/** One of {@link ARMADA_SCHEMAS}. */
export type ArmadaSchema = (typeof ARMADA_SCHEMAS)[number];

const ARMADA_SET: ReadonlySet<string> = new Set(ARMADA_SCHEMAS);

/** Armada looks schemas up by exact string (`get_schema_info(name)`): no trimming, no case folding. */
export function isArmadaSchema(schema: unknown): schema is ArmadaSchema {
  return typeof schema === 'string' && ARMADA_SET.has(schema);
}

/** A compiled schema, with its JSON Schema (references inlined) for messages that name known keys. */
export interface CompiledSchema {
  readonly validate: ValidateFunction;
  /** The `data` JSON Schema, `$ref`s replaced by their definitions so error paths are lexical. */
  readonly schema: Record<string, unknown>;
}

let sources: Map<string, Record<string, unknown>> | undefined;
const compiled = new Map<string, CompiledSchema>();

/**
 * ajv's options for Armada's schemas. Armada always validates with Draft4Validator, whatever
 * `$schema` says (it is removed: ajv would try to fetch the meta-schema named there).
 */
export const ARMADA_AJV_OPTIONS = { allErrors: true, strict: false, validateSchema: false } as const;

/** The generated validator module of `name`, in `schemas/armada/validators/`: `armada-chart-v1.js`. */
export function validatorFile(name: ArmadaSchema): string {
  return `${name.replace(/\//g, '-').toLowerCase()}.js`;
}

/** What a generated validator module exports: the validator, and the schema it was made from. */
type GeneratedValidator = ValidateFunction & { readonly schema: Record<string, unknown> };

/**
 * The raw `data` of each schema document in `dir`, by `metadata.name`; the bundled ones are read
 * once and kept.
 * @default dir - the bundled schemas ({@link armadaSchemaDir})
 */
export function armadaSchemaSources(dir: string = armadaSchemaDir()): Map<string, Record<string, unknown>> {
  if (sources && dir === armadaSchemaDir()) return sources;
  const out = new Map<string, Record<string, unknown>>();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()) {
    for (const doc of jsyaml.loadAll(fs.readFileSync(path.join(dir, file), 'utf8'), null, { schema: PYYAML_SAFE_SCHEMA })) {
      const d = doc as { metadata?: { name?: unknown }; data?: unknown };
      const name = d?.metadata?.name;
      if (typeof name !== 'string' || !d.data || typeof d.data !== 'object') continue;
      if (out.has(name)) throw new Error(`armada-cdk: duplicate bundled schema for ${name} (${file})`);
      out.set(name, d.data as Record<string, unknown>);
    }
  }
  for (const name of ARMADA_SCHEMAS) {
    if (!out.has(name)) throw new Error(`armada-cdk: bundled schema ${name} is missing from ${dir}`);
  }
  if (dir === armadaSchemaDir()) sources = out;
  return out;
}

/** The validator of one Armada schema (generated ahead of time), loaded on first use and kept. */
export function compiledSchema(name: ArmadaSchema): CompiledSchema {
  let c = compiled.get(name);
  if (!c) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const generated = require(path.join(armadaSchemaDir(), 'validators', validatorFile(name))) as GeneratedValidator;
    c = { validate: generated, schema: generated.schema };
    compiled.set(detached(name), c);
  }
  return c;
}

/** The `data` schema as validators are built from it: `$ref`s inlined, no `$schema`. */
export function validationSchema(name: ArmadaSchema, dir?: string): Record<string, unknown> {
  const schema = inlineRefs(armadaSchemaSources(dir).get(name)!);
  delete schema.$schema;
  return schema;
}

/** A validator compiled now, by ajv, from the schema files: what the generated ones are made from. */
export function compileArmadaSchema(name: ArmadaSchema, ajv?: Ajv): CompiledSchema {
  const schema = validationSchema(name);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Draft04 = (require('ajv-draft-04') as typeof import('ajv-draft-04')).default;
  return { validate: (ajv ?? new Draft04(ARMADA_AJV_OPTIONS)).compile(schema), schema };
}

/**
 * A copy of `root` with every local `$ref` replaced by (a copy of) its target. Draft 4 ignores
 * the siblings of `$ref`, and so does this. Armada's definitions are not recursive; a cycle would
 * be left as a `$ref`.
 */
function inlineRefs(root: Record<string, unknown>): Record<string, unknown> {
  const resolving = new Set<string>();
  const target = (ref: string): unknown => {
    let node: unknown = root;
    for (const part of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
      node = (node as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return node;
  };
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (node === null || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    if (typeof obj.$ref === 'string' && obj.$ref.startsWith('#')) {
      const ref = obj.$ref;
      if (resolving.has(ref)) return { $ref: ref };
      resolving.add(ref);
      const out = copy(target(ref));
      resolving.delete(ref);
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = copy(v);
    return out;
  };
  return copy(root) as Record<string, unknown>;
}
