import * as fs from 'fs';
import * as path from 'path';
import { readRegularFile, textProblem } from './read-file';
import { ValuesSchemaError } from './errors';
import { formatValuePath } from './json-path';
import { isSchema, JsonSchema } from './json-schema';
import { findJsonSyntaxError, findJsonTooDeep } from './json-syntax';

/** The file name Helm looks for in a chart directory. */
export const VALUES_SCHEMA_FILE = 'values.schema.json';

/**
 * The deepest a values schema may nest, in JSON objects and arrays (the top-level object is level
 * 1; each level of `properties` takes two, `{"properties": {"a": {...}}}`). Real charts' schemas
 * nest a few dozen levels at most; generating types for, and validating against, a schema
 * recurses once per level, and past about 500 levels that exhausts the stack.
 */
export const MAX_SCHEMA_DEPTH = 256;

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
 * @throws ValuesSchemaError when the path does not exist, when the file cannot be read (a FIFO, a
 *   device, larger than 64 MiB, no permission), is not UTF-8 text or not valid JSON (the message
 *   names the file and the line:column of the error), nests deeper than
 *   {@link MAX_SCHEMA_DEPTH}, or holds no schema (an array, a string, ...).
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
  // Bounded, as every input: a device, a FIFO or a huge file is refused, not read forever.
  const read = readRegularFile(file);
  if ('problem' in read) throw new ValuesSchemaError(`cannot read the values schema: ${read.problem}`, { file });
  // JSON is UTF-8 (Helm reads it so); bytes that are not would become U+FFFD unseen.
  const problem = textProblem(read.bytes, file, 'Helm');
  if (problem) throw new ValuesSchemaError(problem.message, { file, line: problem.line, column: problem.column });
  const text = read.bytes.toString('utf8');
  const schema = parseValuesSchema(text, file);
  if (typeof schema === 'object') sources.set(schema, file);
  return schema;
}

/**
 * Parses the text of a values schema.
 *
 * @param text - the JSON text.
 * @param fileName - the name used in error messages (and by later errors, see {@link schemaSource});
 *   `values.schema.json` when not given.
 * @throws ValuesSchemaError on invalid JSON (with line:column), nesting deeper than
 *   {@link MAX_SCHEMA_DEPTH} (with line:column and the path) or when the JSON is not a schema.
 */
export function parseValuesSchema(text: string, fileName?: string): JsonSchema {
  const file = fileName ?? VALUES_SCHEMA_FILE;
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
  const deep = findJsonTooDeep(body, MAX_SCHEMA_DEPTH);
  if (deep) {
    throw new ValuesSchemaError(
      `${file}:${deep.line}:${deep.column}: the schema nests JSON objects and arrays more than ${MAX_SCHEMA_DEPTH} levels deep, here at ${shortPath(deep.path)}; at most ${MAX_SCHEMA_DEPTH} levels are read`,
      { file, line: deep.line, column: deep.column },
    );
  }
  if (!isSchema(parsed)) {
    const kind = Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : `a ${typeof parsed}`;
    throw new ValuesSchemaError(`${file}: a values schema must be a JSON object (or true/false); received ${kind}`, {
      file,
    });
  }
  if (fileName !== undefined && typeof parsed === 'object') sources.set(parsed, fileName);
  return parsed;
}

/** A long path with its middle left out: `properties.a.properties.a … (240 more) … properties.a`. */
function shortPath(segments: readonly (string | number)[]): string {
  if (segments.length <= 12) return formatValuePath(segments);
  const tail = formatValuePath(segments.slice(-6));
  return `${formatValuePath(segments.slice(0, 6))} … (${segments.length - 12} more) … ${tail}`;
}

function errorCode(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : String((e as Error).message ?? e);
}
