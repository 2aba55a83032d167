/** Compiling values schemas with the Ajv class for their draft, once per distinct schema. */
import Ajv, { ValidateFunction } from 'ajv';
import type AjvCore from 'ajv/dist/core';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft04 from 'ajv-draft-04';
import draft06MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json';
import { ValuesSchemaError } from './errors';
import { draftOf, isSchemaObject, JsonSchema, SchemaDraft } from './json-schema';
import { schemaSource } from './load';

// `verbose` puts the schema and data on each error, which the messages need ("allowed: ...",
// "received ..."). `logger: false` because charts use formats that Ajv does not know without
// ajv-formats, and a warning per compile would be noise: such formats are not checked.
const AJV_OPTIONS = { allErrors: true, strict: false, verbose: true, logger: false } as const;

const instances = new Map<SchemaDraft, AjvCore>();

function newInstance(draft: SchemaDraft): AjvCore {
  switch (draft) {
    case 'draft-04':
      return new AjvDraft04(AJV_OPTIONS);
    case 'draft-06': {
      const ajv = new Ajv(AJV_OPTIONS);
      ajv.addMetaSchema(draft06MetaSchema);
      return ajv;
    }
    case 'draft-07':
      return new Ajv(AJV_OPTIONS);
    case '2019-09':
      return new Ajv2019(AJV_OPTIONS);
    case '2020-12':
      return new Ajv2020(AJV_OPTIONS);
  }
}

function sharedInstance(draft: SchemaDraft): AjvCore {
  let ajv = instances.get(draft);
  if (!ajv) instances.set(draft, (ajv = newInstance(draft)));
  return ajv;
}

interface Compiled {
  readonly validate: ValidateFunction;
  readonly ajv: AjvCore;
  readonly schema: JsonSchema;
}

// Keyed by content rather than identity, so that a schema object changed after a first use is
// compiled again, and equal schemas loaded twice (one per chart version) are compiled once.
// Bounded, as a long-running process may see many schemas.
const MAX_CACHED = 64;
const cache = new Map<string, Compiled>();

/**
 * The validator for a schema. Ajv is given a private copy (Ajv caches by object identity, and
 * the caller's object may change); a schema whose `$id` is already taken in the shared Ajv
 * instance by a different schema gets an instance of its own.
 */
export function compileValuesSchema(schema: JsonSchema): ValidateFunction {
  const draft = draftOf(schema) ?? 'draft-07';
  const text = JSON.stringify(schema);
  const key = `${draft}\n${text}`;
  const hit = cache.get(key);
  if (hit) {
    // Refresh its place so that the least recently used entry is the one evicted.
    cache.delete(key);
    cache.set(key, hit);
    return hit.validate;
  }
  const copy = JSON.parse(text) as JsonSchema;
  if (isSchemaObject(copy) && typeof copy.$schema === 'string' && draftOf(copy) === undefined) {
    // An unknown `$schema` (draft-03, a custom meta-schema) would make Ajv look for a
    // meta-schema it does not have; such schemas are read as draft-07, which Helm documents.
    delete copy.$schema;
  }
  let compiled: Compiled;
  try {
    compiled = compileWith(sharedInstance(draft), copy);
  } catch (e) {
    if (!/already exists/.test((e as Error).message)) throw invalidSchema(schema, e);
    try {
      compiled = compileWith(newInstance(draft), copy);
    } catch (e2) {
      throw invalidSchema(schema, e2);
    }
  }
  cache.set(key, compiled);
  if (cache.size > MAX_CACHED) {
    const [oldestKey, oldest] = cache.entries().next().value as [string, Compiled];
    cache.delete(oldestKey);
    // Frees the `$id` it registered, too.
    if (typeof oldest.schema === 'object') oldest.ajv.removeSchema(oldest.schema);
  }
  return compiled.validate;
}

function compileWith(ajv: AjvCore, schema: JsonSchema): Compiled {
  return { validate: ajv.compile(schema), ajv, schema };
}

function invalidSchema(schema: JsonSchema, e: unknown): ValuesSchemaError {
  const file = schemaSource(schema);
  return new ValuesSchemaError(`${file ?? 'values schema'}: not a valid JSON Schema: ${(e as Error).message}`, { file });
}
