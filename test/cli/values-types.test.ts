/** `values-types` and `import`: hostile inputs, bad names and outputs that are inputs. */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared } from '../helpers/shared';

const SCHEMA = JSON.stringify({ type: 'object', properties: { replicas: { type: 'integer' } } });

/** A chart directory with a Chart.yaml (when `chartYaml` is given) and a values.schema.json. */
function chart(chartYaml: string | undefined, schema = SCHEMA): string {
  const dir = tmpdir('values-types-');
  if (chartYaml !== undefined) write(dir, 'Chart.yaml', chartYaml);
  write(dir, 'values.schema.json', schema);
  return dir;
}

/** Every file under `dir` with its content, to show that a refused run wrote nothing. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

function noStack(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at |internal error/);
}

describe('values-types reads its inputs as every command does: bounded, regular files only', () => {
  test.each([
    ['/dev/zero', 'cannot read the values schema: /dev/zero is a character device, not a regular file'],
    ['/dev/null', 'cannot read the values schema: /dev/null is a character device, not a regular file'],
  ])('%s is refused at once', async (device, message) => {
    const r = await cli(['values-types', device]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`${message}\n`);
  });

  test('a values.schema.json linked to /dev/zero, a FIFO, a file over 64 MiB', async () => {
    const dir = chart('name: zero\n');
    fs.rmSync(path.join(dir, 'values.schema.json'));
    fs.symlinkSync('/dev/zero', path.join(dir, 'values.schema.json'));
    const linked = await cli(['values-types', dir]);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toBe(`cannot read the values schema: ${dir}/values.schema.json is a character device, not a regular file\n`);

    const fifo = path.join(tmpdir(), 'schema.json');
    execFileSync('mkfifo', [fifo]);
    const piped = await cli(['values-types', fifo]);
    expect(piped.code).toBe(1);
    expect(piped.stderr).toBe(`cannot read the values schema: ${fifo} is a named pipe (FIFO), not a regular file\n`);

    const big = path.join(tmpdir(), 'big.json');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, 3 * 1024 ** 3); // sparse: no disk used
    const t = Date.now();
    const huge = await cli(['values-types', big]);
    expect(huge.code).toBe(1);
    expect(huge.stderr).toBe(`cannot read the values schema: ${big} is larger than 64 MiB (3072 MiB)\n`);
    expect(Date.now() - t).toBeLessThan(2000);
  });

  test('a Chart.yaml linked to /dev/zero is a warning, and the type gets the fallback name', async () => {
    const dir = chart(undefined);
    fs.symlinkSync('/dev/zero', path.join(dir, 'Chart.yaml'));
    const r = await cli(['values-types', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('export interface ChartValues {');
    expect(r.stderr).toBe(`warning: cannot read the chart's name: ${dir}/Chart.yaml is a character device, not a regular file; the type is named ChartValues (choose another with --type-name)\n`);
  });

  test('invalid UTF-8 in the schema is an error with its line and column, not U+FFFD', async () => {
    const dir = chart('name: x\n', '{\n  "type": "object",\n  "description": "caf\xe9"\n}\n');
    fs.writeFileSync(path.join(dir, 'values.schema.json'), Buffer.concat([Buffer.from('{\n  "type": "object",\n  "description": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}\n')]));
    const r = await cli(['values-types', dir]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`${dir}/values.schema.json is not a UTF-8 text file (invalid byte 0xe9 at line 3, column 22)\n`);
  });

  test('- reads the schema from stdin (ChartValues unless --type-name); an empty stdin is an error', async () => {
    const r = await cli(['values-types', '-'], { stdin: SCHEMA });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('export interface ChartValues {\n  replicas?: number;\n}');
    expect((await cli(['values-types', '-', '--type-name', 'MyValues'], { stdin: SCHEMA })).stdout).toContain('export interface MyValues {');
    const empty = await cli(['values-types', '-'], { stdin: '' });
    expect(empty).toMatchObject({ code: 1, stdout: '', stderr: '<stdin> is empty; expected a values schema (JSON)\n' });
    const bad = await cli(['values-types', '-'], { stdin: '{"type": "object",}' });
    expect(bad).toMatchObject({ code: 1, stderr: '<stdin>:1:19: invalid JSON: unexpected "}" after ","; JSON does not allow trailing commas\n' });
  });
});

describe('values-types: schemas nested past the bound', () => {
  test('3,000 levels of properties: an error with the position and the path, exit 1', async () => {
    const dir = tmpdir();
    const file = path.join(dir, 'deep.json');
    fs.writeFileSync(file, '{"type":"object","properties":{"a":'.repeat(3000) + '{"type":"string"}' + '}}'.repeat(3000));
    const r = await cli(['values-types', file, '--type-name', 'V']);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    noStack(r.stderr);
    expect(r.stderr).toBe(
      `${file}:1:4481: the schema nests JSON objects and arrays more than 256 levels deep, here at properties.a.properties.a.properties.a … (244 more) … properties.a.properties.a.properties.a; at most 256 levels are read\n`,
    );
  });

  test('128 levels of properties (256 JSON levels) still generate', async () => {
    const dir = tmpdir();
    const file = path.join(dir, 'deep.json');
    fs.writeFileSync(file, '{"type":"object","properties":{"a":'.repeat(127) + '{"type":"string"}' + '}}'.repeat(127));
    const r = await cli(['values-types', file, '--type-name', 'V']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  test('a chain of $refs deeper than the generator follows: an error naming the last $ref', async () => {
    const definitions: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) definitions[`d${i}`] = { anyOf: [{ $ref: `#/definitions/d${i + 1}` }, { type: 'null' }] };
    definitions.d3000 = { type: 'string' };
    const dir = chart('name: chain\n', JSON.stringify({ type: 'object', properties: { a: { $ref: '#/definitions/d0' } }, definitions }));
    const r = await cli(['values-types', dir]);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    noStack(r.stderr);
    expect(r.stderr).toBe(`${dir}/values.schema.json: types nest deeper than 512 levels, through 256 nested $refs (the last "#/definitions/d255"); armada-cdk generates types up to 512 levels deep\n`);
  });
});

describe('values-types: the type name', () => {
  test.each([
    ['class', '--type-name "class" cannot name a type: it is a reserved word in TypeScript; use another name, such as ClassValues'],
    ['string', '--type-name "string" cannot name a type: it is a reserved word in TypeScript; use another name, such as StringValues'],
    ['1x', '--type-name must be a TypeScript identifier (ASCII letters, digits, _ and $, not starting with a digit); received "1x"'],
    ['my-values', '--type-name must be a TypeScript identifier (ASCII letters, digits, _ and $, not starting with a digit); received "my-values"'],
  ])('--type-name %s is a usage error, before anything is read or written', async (name, message) => {
    const dir = chart('name: mariadb\n');
    const before = snapshot(dir);
    const r = await cli(['values-types', dir, '--type-name', name, '-o', path.join(dir, 'out.ts')]);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`armada-cdk values-types: ${message}\nRun armada-cdk values-types --help for usage.\n`);
    expect(snapshot(dir)).toEqual(before);
  });

  test('a chart name that does not start with a letter: the type name is prefixed, with a note', async () => {
    const dir = chart('name: 123-my.chart_v2\n');
    const r = await cli(['values-types', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('export interface Chart123MyChartV2Values {');
    expect(r.stderr).toBe(
      `note: the chart name "123-my.chart_v2" (from ${dir}/Chart.yaml) does not make a TypeScript identifier; the type is named Chart123MyChartV2Values (choose another with --type-name)\n`,
    );
  });

  test.each([
    ['name: [\n', ':2:1: warning: cannot read the chart\'s name: invalid YAML: unexpected end of the stream within a flow collection'],
    ['version: 1.0.0\n', ': warning: cannot read the chart\'s name: "name" must be a non-empty string; it has none'],
    ['name: 12\n', ': warning: cannot read the chart\'s name: "name" must be a non-empty string; received 12'],
  ])('a Chart.yaml %j is a warning naming the file and why; the type is ChartValues', async (text, warning) => {
    const dir = chart(text);
    const r = await cli(['values-types', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('export interface ChartValues {');
    expect(r.stderr).toBe(`${dir}/Chart.yaml${warning}; the type is named ChartValues (choose another with --type-name)\n`);
  });

  test('the name comes from Chart.yaml as YAML: quoted, after other keys', async () => {
    const r = await cli(['values-types', chart('apiVersion: v2\n"name": "mari-adb" # comment\n')]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('export interface MariAdbValues {');
  });
});

describe('an output that is one of the inputs is refused, and nothing is written', () => {
  test('values-types -o DIR/values.schema.json, -o DIR/Chart.yaml, and through a link', async () => {
    const dir = chart('name: mariadb\n');
    const before = snapshot(dir);
    for (const [args, message] of [
      [[dir, '-o', `${dir}/values.schema.json`], `-o ${dir}/values.schema.json is the input ${dir}/values.schema.json`],
      [['values.schema.json', '-o', 'Chart.yaml'], '-o Chart.yaml is the input Chart.yaml'],
      [[dir, '-o', `${dir}/./values.schema.json`], `-o ${dir}/./values.schema.json is the input ${dir}/values.schema.json`],
    ] as const) {
      const r = await cli(['values-types', ...args], { cwd: dir });
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toBe(`armada-cdk values-types: ${message}; writing the output there would replace it: choose another output file\nRun armada-cdk values-types --help for usage.\n`);
      expect(snapshot(dir)).toEqual(before);
    }
    const other = tmpdir();
    fs.symlinkSync(path.join(dir, 'values.schema.json'), path.join(other, 'schema.json'));
    const linked = await cli(['values-types', path.join(other, 'schema.json'), '--type-name', 'V', '-o', path.join(dir, 'values.schema.json')]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(`is the same file as the input ${other}/schema.json (through a link)`);
    expect(snapshot(dir)).toEqual(before);
  });

  test('import x.yaml -o x.yaml, import -f over.yaml -o over.yaml, a hard link', async () => {
    const dir = tmpdir();
    const site = readShared('corpus', 'armada__examples__simple.yaml');
    write(dir, 'x.yaml', site);
    write(dir, 'over.yaml', '---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: blog-1}\ndata: {release: blog-1b}\n');
    fs.linkSync(path.join(dir, 'x.yaml'), path.join(dir, 'hard.yaml'));
    const before = snapshot(dir);
    const x = path.join(dir, 'x.yaml');
    const over = path.join(dir, 'over.yaml');
    // The loader reads paths from the process's directory: inputs are given whole.
    for (const [args, message] of [
      [[x, '-o', 'x.yaml'], `-o x.yaml is the input ${x}`],
      [[x, '-f', over, '-o', over], `-o ${over} is the input ${over}`],
      [[x, '-o', 'hard.yaml'], `-o hard.yaml is the same file as the input ${x} (through a link)`],
    ] as const) {
      const r = await cli(['import', ...args], { cwd: dir });
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toBe(`armada-cdk import: ${message}; writing the output there would replace it: choose another output file\nRun armada-cdk import --help for usage.\n`);
      expect(snapshot(dir)).toEqual(before);
    }
    // A new file beside the input is fine.
    expect((await cli(['import', x, '-o', 'site.ts'], { cwd: dir })).code).toBe(0);
  });

  test('convert --force over one of its inputs', async () => {
    const dir = tmpdir();
    write(dir, 'simple-armada.documents-v1.yaml', readShared('corpus', 'armada__examples__simple.yaml'));
    const before = snapshot(dir);
    const input = path.join(dir, 'simple-armada.documents-v1.yaml');
    const r = await cli(['convert', input, '--to', 'documents-v1', '-o', '.', '--force'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`armada-cdk convert: the output simple-armada.documents-v1.yaml is the input ${input}; writing the output there would replace it`);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('an empty option value is a usage error', () => {
  test.each([
    [['import', 'x.yaml', '-o', ''], 'import', 'option -o/--output needs a value; received an empty string'],
    [['convert', 'x.yaml', '--to', 'documents-v1', '-o', ''], 'convert', 'option -o/--output needs a value; received an empty string'],
    [['values-types', 'x', '--output='], 'values-types', 'option -o/--output needs a value; received an empty string'],
    [['values-types', 'x', '--type-name', ''], 'values-types', 'option --type-name needs a value; received an empty string'],
    [['validate', 'x.yaml', '-f', 'a.yaml', '-f', ''], 'validate', 'option -f/--values needs a value; received an empty string'],
  ])('%j', async (args, command, message) => {
    const dir = tmpdir();
    const r = await cli(args, { cwd: dir });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`armada-cdk ${command}: ${message}\nRun armada-cdk ${command} --help for usage.\n`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe("values-types reads the chart's values.yaml", () => {
  test('a key the schema requires and values.yaml sets is optional in the type; without values.yaml it is required', async () => {
    const schema = JSON.stringify({ type: 'object', required: ['image', 'replicas'], properties: { image: { type: 'string' }, replicas: { type: 'integer' } } });
    const dir = chart('name: web\n', schema);
    write(dir, 'values.yaml', 'image: nginx:1.27\n');
    const r = await cli(['values-types', dir]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain("  /** Required by the schema; optional here because the chart's values.yaml sets it. */\n  image?: string;\n  replicas: number;\n");
    fs.rmSync(path.join(dir, 'values.yaml'));
    expect((await cli(['values-types', dir])).stdout).toContain('  image: string;\n  replicas: number;\n');
  });
});
