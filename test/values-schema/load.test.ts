/** Reading `values.schema.json`: from a chart directory or a file, with clear errors. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadValuesSchema, parseValuesSchema, schemaSource, ValuesSchemaError } from '../../src/values-schema';
import { chartDir } from './helpers';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'values-schema-load-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The error `fn` throws, asserting that it is a ValuesSchemaError. */
function thrown(fn: () => unknown): ValuesSchemaError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValuesSchemaError);
    return e as ValuesSchemaError;
  }
  throw new Error('expected an error');
}

describe('loadValuesSchema', () => {
  test('reads values.schema.json from a chart directory', () => {
    const schema = loadValuesSchema(chartDir('mariadb'));
    expect(schema).toMatchObject({ title: 'MariaDB chart values', type: 'object' });
    expect(schemaSource(schema)).toBe(path.join(chartDir('mariadb'), 'values.schema.json'));
  });

  test('reads a schema file given by path, whatever its name', () => {
    const file = path.join(tmp, 'keystone-values.json');
    fs.copyFileSync(path.join(chartDir('keystone'), 'values.schema.json'), file);
    expect(loadValuesSchema(file)).toMatchObject({ title: 'Keystone chart values' });
  });

  test('a chart directory without a schema gives undefined, not an error', () => {
    expect(loadValuesSchema(chartDir('ingress'))).toBeUndefined();
  });

  test('a path that does not exist is an error', () => {
    const missing = path.join(tmp, 'no-such-chart');
    const e = thrown(() => loadValuesSchema(missing));
    expect(e.message).toBe(`${missing}: no such chart directory or schema file (ENOENT)`);
  });

  test('invalid JSON names the file, line and column', () => {
    const file = path.join(tmp, 'values.schema.json');
    fs.writeFileSync(file, '{\n  "type": "object",\n  "properties": {\n    "a": { "type": "string" },\n  }\n}\n');
    const e = thrown(() => loadValuesSchema(tmp));
    expect(e.message).toBe(`${file}:5:3: invalid JSON: unexpected "}" after ","; JSON does not allow trailing commas`);
    expect(e).toMatchObject({ file, line: 5, column: 3 });
  });

  test('JSON that is not a schema is an error', () => {
    const file = path.join(tmp, 'values.schema.json');
    fs.writeFileSync(file, '[{"type": "object"}]');
    expect(thrown(() => loadValuesSchema(file)).message).toBe(`${file}: a values schema must be a JSON object (or true/false); received an array`);
  });
});

describe('parseValuesSchema: syntax errors', () => {
  test.each([
    ['{"a": 1 "b": 2}', '1:9: invalid JSON: unexpected "\\""; expected "," or "}"'],
    ['{\n  // comment\n  "a": 1\n}', '2:3: invalid JSON: unexpected comment (JSON has no comments); expected a key in double quotes'],
    ["{'a': 1}", '1:2: invalid JSON: unexpected "\'" (JSON strings use double quotes); expected a key in double quotes'],
    ['{"a": tru}', '1:7: invalid JSON: unexpected "tru"; expected a value'],
    ['{"a": "b', '1:7: invalid JSON: unterminated string'],
    ['{"a": "b\\x"}', '1:9: invalid JSON: invalid escape "\\x" in a string'],
    ['{"a": 01}', '1:8: invalid JSON: unexpected "1"; expected "," or "}"'],
    ['{"a": [1, 2,]}', '1:13: invalid JSON: unexpected "]" after ","; JSON does not allow trailing commas'],
    ['{"a": 1', '1:8: invalid JSON: unexpected end of file; expected "," or "}"'],
    ['{"a": 1}}', '1:9: invalid JSON: unexpected "}" after the end of the JSON value'],
    ['', '1:1: invalid JSON: unexpected end of file; expected a value'],
    ['{"a": "\t"}', '1:8: invalid JSON: unescaped control character in a string (use \\n, \\t, ...)'],
  ])('%j', (text, message) => {
    expect(thrown(() => parseValuesSchema(text, 'values.schema.json')).message).toBe(`values.schema.json:${message}`);
  });

  test('a byte order mark is ignored, and columns do not count it', () => {
    expect(parseValuesSchema('\ufeff{"type": "object"}')).toEqual({ type: 'object' });
    expect(thrown(() => parseValuesSchema('\ufeff{"type" "object"}')).message).toBe('values.schema.json:1:9: invalid JSON: unexpected "\\""; expected ":" after the key');
  });

  test('boolean schemas are schemas', () => {
    expect(parseValuesSchema('true')).toBe(true);
    expect(thrown(() => parseValuesSchema('"x"')).message).toBe('values.schema.json: a values schema must be a JSON object (or true/false); received a string');
  });
});
