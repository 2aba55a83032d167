import * as fs from 'fs';
import * as path from 'path';
import { ValuesSchemaError } from './errors';
import { isSchema, JsonSchema } from './json-schema';
import { findJsonSyntaxError } from './json-syntax';

/** The file name Helm looks for in a chart directory. */
export const VALUES_SCHEMA_FILE = 'values.schema.json';

// Schemas are plain data handed around freely; remembering their file on the side keeps them
// plain while letting later errors (an invalid schema at validation time) name the file.
const sources = new WeakMap<object, string>();

/** The file a schema was loaded from by `loadValuesSchema`, if it was. */
export function schemaSource(schema: JsonSchema | undefined): string | undefined {
  return typeof schema === 'object' && schema !== null ? sources.get(schema) : undefined;
}

/**
 * Reads a chart's values schema.
 *
 * @param pathOrDir - a chart directory (its `values.schema.json` is read) or the path of a schema
 *   file.
 * @returns the parsed schema, or `undefined` when `pathOrDir` is a chart directory without a
 *   `values.schema.json` (a chart need not have one).
 * @throws ValuesSchemaError when the path does not exist, when the file is not valid JSON (the
 *   message names the file and the line:column of the error), or when it holds no schema (an
 *   array, a string, ...).
 */
export function loadValuesSchema(pathOrDir: string): JsonSchema | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(pathOrDir);
  } catch (e) {
    throw new ValuesSchemaError(`${pathOrDir}: no such chart directory or schema file (${errorCode(e)})`, {
      file: pathOrDir,
    });
  }
  let file = pathOrDir;
  if (stat.isDirectory()) {
    file = path.join(pathOrDir, VALUES_SCHEMA_FILE);
    if (!fs.existsSync(file)) return undefined;
  }
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ValuesSchemaError(`${file}: cannot read the values schema (${errorCode(e)})`, { file });
  }
  const schema = parseValuesSchema(text, file);
  if (typeof schema === 'object') sources.set(schema, file);
  return schema;
}

/**
 * Parses the text of a values schema.
 *
 * @param text - the JSON text.
 * @param file - the name used in error messages; `values.schema.json` when not given.
 * @throws ValuesSchemaError on invalid JSON (with line:column) or when the JSON is not a schema.
 */
export function parseValuesSchema(text: string, file: string = VALUES_SCHEMA_FILE): JsonSchema {
  // Editors on Windows save a byte order mark that JSON.parse rejects and that nobody can see.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    const found = findJsonSyntaxError(body);
    if (found) {
      throw new ValuesSchemaError(`${file}:${found.line}:${found.column}: invalid JSON: ${found.message}`, {
        file,
        line: found.line,
        column: found.column,
      });
    }
    throw new ValuesSchemaError(`${file}: invalid JSON: ${(e as Error).message}`, { file });
  }
  if (!isSchema(parsed)) {
    const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`;
    throw new ValuesSchemaError(`${file}: a values schema must be a JSON object (or true/false); received ${kind}`, {
      file,
    });
  }
  return parsed;
}

function errorCode(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : String((e as Error).message ?? e);
}
