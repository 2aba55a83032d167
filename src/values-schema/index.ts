/**
 * Chart values schemas (`values.schema.json`): loading them, generating TypeScript types for a
 * chart's values from them, and validating values against them.
 */
export { loadValuesSchema, parseValuesSchema, schemaSource, VALUES_SCHEMA_FILE } from './load';
export { generateValuesTypes } from './generate';
export type { GenerateValuesTypesOptions } from './generate';
export { validateValues } from './validate';
export type { ValuesSchemaViolation } from './messages';
export { ValuesSchemaError } from './errors';
export { draftOf } from './json-schema';
export type { JsonSchema, JsonSchemaObject, SchemaDraft } from './json-schema';
export { formatValuePath } from './json-path';
export type { ValuePath } from './json-path';
