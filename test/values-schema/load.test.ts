/** Reading `values.schema.json`: from a chart directory or a file, with clear errors. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadValuesSchema, parseValuesSchema, schemaSource, ValuesSchemaError } from '../../src/values-schema';
import { MAX_SCHEMA_DEPTH } from '../../src/values-schema/load';
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

describe('loadValuesSchema: what cannot be read is refused, bounded', () => {
  test('a device, and a values.schema.json linked to one', () => {
    expect(thrown(() => loadValuesSchema('/dev/zero')).message).toBe('cannot read the values schema: /dev/zero is a character device, not a regular file');
    fs.symlinkSync('/dev/zero', path.join(tmp, 'values.schema.json'));
    expect(thrown(() => loadValuesSchema(tmp)).message).toBe(`cannot read the values schema: ${tmp}/values.schema.json is a character device, not a regular file`);
  });

  test('bytes that are not UTF-8 are an error with line and column, not U+FFFD', () => {
    const file = path.join(tmp, 'values.schema.json');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('{"title": "ok",\n "description": "\u00e9t\u00e9 '), Buffer.from([0xff]), Buffer.from('"}')]));
    const e = thrown(() => loadValuesSchema(file));
    expect(e.message).toBe(`${file} is not a UTF-8 text file (invalid byte 0xff at line 2, column 22)`);
    expect(e).toMatchObject({ file, line: 2, column: 22 });
  });
});

describe('parseValuesSchema: nesting', () => {
  const nested = (levels: number) => '{"properties":{"a":'.repeat(levels) + '{}' + '}}'.repeat(levels);

  test('up to MAX_SCHEMA_DEPTH levels of objects and arrays are read', () => {
    expect(MAX_SCHEMA_DEPTH).toBe(256);
    expect(() => parseValuesSchema(nested(127))).not.toThrow();
    expect(() => parseValuesSchema(`[${'['.repeat(254)}${']'.repeat(254)}]`)).toThrow(/a values schema must be a JSON object/);
  });

  test('one level more is an error with the position of the bracket and the path to it', () => {
    const e = thrown(() => parseValuesSchema(nested(128), 'deep.json'));
    expect(e.message).toBe('deep.json:1:2433: the schema nests JSON objects and arrays more than 256 levels deep, here at properties.a.properties.a.properties.a … (244 more) … properties.a.properties.a.properties.a; at most 256 levels are read');
    expect(e).toMatchObject({ line: 1, column: 2433 });
  });

  test('keys with brackets, escapes and arrays are followed to give the path', () => {
    const text = `{"x": "[{", "a\\"b": [1, {"k": ${'['.repeat(300)}${']'.repeat(300)}}]}`;
    expect(thrown(() => parseValuesSchema(text, 's.json')).message).toMatch(/^s\.json:1:\d+: the schema nests .* here at \["a\\"b"\]\[1\]\.k\[0\]\[0\]\[0\] … \(244 more\) … \[0\]\[0\]\[0\]\[0\]\[0\]\[0\]; /);
  });
});
