/** Checking chart values against the chart's values schema, as Helm does before rendering. */
import { compileValuesSchema } from './compile';
import { JsonSchema } from './json-schema';
import { ValuesSchemaViolation, violationsFromErrors } from './messages';

/**
 * Checks values against a chart's values schema and reports every violation at once.
 *
 * The draft is chosen from `$schema`: draft-04, draft-06, draft-07, 2019-09 and 2020-12 are
 * told apart; a schema without `$schema`, or with one that names no known draft, is read as
 * draft-07. Compiled schemas are cached by content. `format` is not checked (Ajv knows no
 * formats without ajv-formats).
 *
 * Helm checks the values it renders with, the chart's `values.yaml` merged with the overrides:
 * to catch a missing required key the same way, pass the merged values.
 *
 * @param schema - the chart's values schema; `undefined` (a chart without one) allows anything.
 * @param values - the values to check.
 * @returns one violation per problem, in schema order; empty when the values are valid.
 * @throws ValuesSchemaError when the schema itself is not a valid JSON Schema (an unknown
 *   `type`, a `$ref` that leads nowhere, a bad `pattern`).
 */
export function validateValues(schema: JsonSchema | undefined, values: unknown): ValuesSchemaViolation[] {
  if (schema === undefined) return [];
  const compiled = compileValuesSchema(schema);
  if (compiled.validate(values)) return [];
  return violationsFromErrors(compiled.validate.errors ?? [], values, schema, (branches, index) => compiled.branch(branches, index));
}
