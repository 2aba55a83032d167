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

/** A compiled values schema. */
export interface CompiledValuesSchema {
  readonly validate: ValidateFunction;
  /**
   * The validator of one branch of an `anyOf`/`oneOf`, given the branch array as an error's
   * `schema` holds it, so that a failing alternative can be checked on its own.
   */
  branch(branches: unknown, index: number): ValidateFunction | undefined;
}

// Keyed by content rather than identity, so that a schema object changed after a first use is
// compiled again, and equal schemas loaded twice (one per chart version) are compiled once.
// Bounded, as a long-running process may see many schemas.
const MAX_CACHED = 64;
const cache = new Map<string, Entry>();
let keys = 0;

interface Entry {
  readonly compiled: CompiledValuesSchema;
  readonly ajv: AjvCore;
  readonly key: string;
  readonly copy: JsonSchema;
}

/**
 * The validator for a schema. Ajv is given a private copy (Ajv caches by object identity, and
 * the caller's object may change), registered under a key of its own so that its branches can
 * be reached by JSON pointer; a schema whose `$id` is already taken in the shared Ajv instance by
 * a different schema gets an instance of its own.
 *
 * @throws ValuesSchemaError when the schema is not a valid JSON Schema.
 */
export function compileValuesSchema(schema: JsonSchema): CompiledValuesSchema {
  const draft = draftOf(schema) ?? 'draft-07';
  const text = JSON.stringify(schema);
  const cacheKey = `${draft}\n${text}`;
  const hit = cache.get(cacheKey);
  if (hit) {
    // Refresh its place so that the least recently used entry is the one evicted.
    cache.delete(cacheKey);
    cache.set(cacheKey, hit);
    return hit.compiled;
  }
  const copy = JSON.parse(text) as JsonSchema;
  if (isSchemaObject(copy) && typeof copy.$schema === 'string' && draftOf(copy) === undefined) {
    // An unknown `$schema` (draft-03, a custom meta-schema) would make Ajv look for a
    // meta-schema it does not have; such schemas are read as draft-07, which Helm documents.
    delete copy.$schema;
  }
  let entry: Entry;
  try {
    entry = register(sharedInstance(draft), copy);
  } catch (e) {
    if (!/already exists/.test((e as Error).message)) throw invalidSchema(schema, e);
    try {
      entry = register(newInstance(draft), copy);
    } catch (e2) {
      throw invalidSchema(schema, e2);
    }
  }
  cache.set(cacheKey, entry);
  if (cache.size > MAX_CACHED) {
    const [oldestKey, oldest] = cache.entries().next().value as [string, Entry];
    cache.delete(oldestKey);
    forget(oldest.ajv, oldest.key, oldest.copy);
  }
  return entry.compiled;
}

function register(ajv: AjvCore, copy: JsonSchema): Entry {
  const key = `values-schema-${++keys}`;
  // Not inside the try: when adding fails, the `$id` it clashed with belongs to another schema.
  ajv.addSchema(copy, key);
  let validate: ValidateFunction | undefined;
  try {
    validate = ajv.getSchema(key);
  } catch (e) {
    forget(ajv, key, copy);
    throw e;
  }
  if (!validate) throw new Error('the schema was not registered');
  const compiled = validate;
  let pointers: Map<object, string> | undefined;
  return {
    ajv,
    key,
    copy,
    compiled: {
      validate: compiled,
      branch(branches, index) {
        if (typeof branches !== 'object' || branches === null) return undefined;
        pointers ??= pointerIndex(copy);
        const pointer = pointers.get(branches);
        if (pointer === undefined) return undefined;
        try {
          return ajv.getSchema(`${key}#${pointer}/${index}`);
        } catch {
          return undefined;
        }
      },
    },
  };
}

/** Frees what a registration took, the `$id` included. */
function forget(ajv: AjvCore, key: string, copy: JsonSchema): void {
  ajv.removeSchema(key);
  if (typeof copy === 'object') ajv.removeSchema(copy);
}

/** The JSON pointer (URI-fragment encoded) of every object and array inside a schema. */
function pointerIndex(root: unknown): Map<object, string> {
  const index = new Map<object, string>();
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== 'object' || node === null || index.has(node)) return;
    index.set(node, pointer);
    for (const [k, child] of Object.entries(node)) {
      walk(child, `${pointer}/${encodeURIComponent(k.replace(/~/g, '~0').replace(/\//g, '~1'))}`);
    }
  };
  walk(root, '');
  return index;
}

function invalidSchema(schema: JsonSchema, e: unknown): ValuesSchemaError {
  const file = schemaSource(schema);
  // Ajv compiles a chain of `$ref`s (each definition naming the next) by recursion: a few
  // hundred links exhaust the stack, though the schema is valid.
  if (e instanceof RangeError) {
    return new ValuesSchemaError(`${file ?? 'values schema'}: too deeply chained for the validator to compile (a chain of $ref, each definition naming the next, a few hundred long?): ${e.message}`, { file, beyondValidator: true });
  }
  return new ValuesSchemaError(`${file ?? 'values schema'}: not a valid JSON Schema: ${(e as Error).message}`, { file });
}
