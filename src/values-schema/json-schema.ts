/**
 * The JSON Schema shapes read here. Schemas come from chart authors and are often loose, so every
 * keyword is typed as `unknown` underneath and checked where it is read.
 */

/** A JSON Schema: an object, or `true` (anything) / `false` (nothing) since draft-06. */
export type JsonSchema = boolean | JsonSchemaObject;

/** A JSON Schema object, with the keywords this module reads named for documentation. */
export interface JsonSchemaObject {
  $schema?: string;
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  default?: unknown;
  examples?: unknown[];
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: { [name: string]: JsonSchema };
  required?: string[];
  additionalProperties?: JsonSchema;
  patternProperties?: { [pattern: string]: JsonSchema };
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  additionalItems?: JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  definitions?: { [name: string]: JsonSchema };
  $defs?: { [name: string]: JsonSchema };
  readOnly?: boolean;
  deprecated?: boolean;
  [keyword: string]: unknown;
}

/** The JSON Schema drafts that `validateValues` tells apart. */
export type SchemaDraft = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12';

/** True for a schema object (not a boolean schema, not an array, not null). */
export function isSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for something usable as a schema: an object or a boolean. */
export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'boolean' || isSchemaObject(value);
}

/**
 * The draft that `$schema` names, or `undefined` when it names none that is known (or is absent),
 * in which case callers use draft-07, the draft Helm documents for `values.schema.json`.
 */
export function draftOf(schema: JsonSchema): SchemaDraft | undefined {
  if (!isSchemaObject(schema) || typeof schema.$schema !== 'string') return undefined;
  const uri = schema.$schema;
  if (/draft-04\b/.test(uri)) return 'draft-04';
  if (/draft-06\b/.test(uri)) return 'draft-06';
  if (/draft-07\b/.test(uri)) return 'draft-07';
  if (/\b2019-09\b/.test(uri)) return '2019-09';
  if (/\b2020-12\b/.test(uri)) return '2020-12';
  return undefined;
}

/** The schema's own properties, in schema order, skipping entries that are not schemas. */
export function schemaEntries(value: unknown): [string, JsonSchema][] {
  if (!isSchemaObject(value)) return [];
  return Object.entries(value).filter((entry): entry is [string, JsonSchema] => isSchema(entry[1]));
}

/** The strings of an array keyword (`required`), ignoring anything else in it. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The schemas of an array keyword (`allOf`, `prefixItems`), ignoring entries that are not schemas. */
export function schemaList(value: unknown): JsonSchema[] | undefined {
  return Array.isArray(value) ? value.filter(isSchema) : undefined;
}
