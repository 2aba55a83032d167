/**
 * Nothing from an input becomes code in what `armada-cdk import` writes: file names, document
 * names and values reach the generated TypeScript only as escaped string literals or checked
 * identifiers, whatever line terminator they carry, and the result always compiles.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import * as armada from '../../src';
import { generateTypeScript } from '../../src/importer/codegen';
import { documentsToSpec } from '../../src/model/wire/from-documents';
import { cli, tmpdir, write } from '../helpers/cli';
import { parseDocuments } from '../helpers/documents';

const ROOT = path.resolve(__dirname, '..', '..');

/** Every character JavaScript or TypeScript ends a line (and so a `//` comment) at, and NEL. */
const TERMINATORS: [string, string][] = [
  ['LF', '\n'],
  ['CR', '\r'],
  ['CRLF', '\r\n'],
  ['LS U+2028', '\u2028'],
  ['PS U+2029', '\u2029'],
  ['NEL U+0085', '\u0085'],
];

const PAYLOAD = 'globalThis.__armadaCdkPwned = 1;0';

/**
 * Type errors of generated modules by file name, against the library's own types (as a user's
 * tsc): one program for all of them, since a program costs seconds.
 */
function typeErrors(files: Record<string, string>): Record<string, string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-codegen-hostile-'));
  const names = Object.entries(files).map(([n, code]) => {
    fs.writeFileSync(path.join(dir, n), code);
    return path.join(dir, n);
  });
  const program = ts.createProgram(names, {
    strict: true,
    noUnusedLocals: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    baseUrl: ROOT,
    paths: { 'armada-cdk': [path.join(ROOT, 'src/index.ts')] },
  });
  const out: Record<string, string[]> = Object.fromEntries(Object.keys(files).map((n) => [n, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const n = d.file ? path.basename(d.file.fileName) : '';
    (out[n] ??= []).push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return out;
}

/** Runs generated code with `armada-cdk` bound to this checkout and no other module. */
function run(code: string): Record<string, unknown> {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = { exports: {} as Record<string, unknown> };
  const req = (m: string) => {
    if (m === 'armada-cdk') return armada;
    throw new Error(`the generated code required ${m}`);
  };
  new Function('exports', 'require', 'module', js)(module.exports, req, module);
  return module.exports;
}

const SITE = (chartKey = 'image', group = 'infra') => `
schema: armada/Chart/v1
metadata: { schema: metadata/Document/v1, name: mariadb }
data:
  chart_name: mariadb
  release: mariadb
  namespace: openstack
  source: { type: local, location: /charts/mariadb, subpath: . }
  dependencies: []
  values: { ${JSON.stringify(chartKey)}: "docker.io/mariadb:10" }
---
schema: armada/ChartGroup/v1
metadata: { schema: metadata/Document/v1, name: ${JSON.stringify(group)} }
data: { chart_group: [mariadb] }
---
schema: armada/Manifest/v1
metadata: { schema: metadata/Document/v1, name: site }
data: { release_prefix: armada, chart_groups: [${JSON.stringify(group)}] }
`;

function generate(yaml: string, sources: string[]): string {
  const { spec, diagnostics } = documentsToSpec(parseDocuments(yaml, 'site.yaml'));
  expect(diagnostics.errors).toEqual([]);
  return generateTypeScript(spec!, { sources });
}

afterEach(() => {
  delete (globalThis as Record<string, unknown>).__armadaCdkPwned;
});

const pwned = () => (globalThis as Record<string, unknown>).__armadaCdkPwned;
const firstChart = (code: string) => {
  const site = run(code).site as armada.ArmadaManifest;
  return site.node.findAll().find((c): c is armada.Chart => c instanceof armada.Chart)!;
};

// Every generated module, type-checked together once.
const MODULE_NAMES = ['require', 'exports', 'module', '__dirname', '__filename', 'global', 'globalThis', 'BigInt'];
const generated: Record<string, string> = {};
TERMINATORS.forEach(([, t], i) => {
  generated[`name-${i}.ts`] = generate(SITE(), [`x${t}${PAYLOAD}`]);
  generated[`key-${i}.ts`] = generate(SITE(`image${t}tag`), []);
  generated[`value-${i}.ts`] = generate(SITE().replace('"docker.io/mariadb:10"', JSON.stringify(`a${t}b\u202ec`)), []);
});
MODULE_NAMES.forEach((n, i) => (generated[`group-${i}.ts`] = generate(SITE('image', n), [])));
let errors: Record<string, string[]> = {};
beforeAll(() => {
  errors = typeErrors(generated);
});

describe('a file name in the header comment never becomes code', () => {
  test.each(TERMINATORS.map(([n], i) => [n, i] as const))('%s in a file name stays inside the comment', (_name, i) => {
    const code = generated[`name-${i}.ts`];
    const header = code.slice(0, code.indexOf('\nimport '));
    // The header is two `//` lines by every reader's count of lines, and the name is escaped.
    expect(header.split(/\r\n|[\n\r\u2028\u2029\u0085]/)).toEqual([
      expect.stringMatching(/^\/\/ Generated by `armada-cdk import` from "x(\\[nr]|\\u[0-9a-f]{4})+globalThis\.__armadaCdkPwned = 1;0"\.$/),
      '// Render it with an output of armada-cdk/cdk8s, or deploy it with armada-cdk/pulumi.',
    ]);
    expect(errors[`name-${i}.ts`]).toEqual([]);
    expect(run(code).site).toBeInstanceOf(armada.ArmadaManifest);
    expect(pwned()).toBeUndefined();
  });

  test('bidirectional controls in a file name are escaped too; a plain name is written as it is', () => {
    const code = generate(SITE(), ['a\u202eb.yaml', 'site.yaml']);
    expect(code.split('\n')[0]).toBe('// Generated by `armada-cdk import` from "a\\u202eb.yaml", site.yaml.');
  });

  test('through the command: a file named with U+2028 and a statement imports to code that runs nothing of it', async () => {
    const dir = tmpdir('armada-cdk-import-name-');
    const file = write(dir, `x\u2028${PAYLOAD}.yaml`, SITE());
    const r = await cli(['import', file]);
    expect(r.code).toBe(0);
    // Its diagnostics name the file with the same escape (a warning about the wait is expected).
    expect(r.stderr).toContain('x\\u2028globalThis');
    expect(r.stderr).not.toMatch(/[\u2028\u2029]/);
    expect(r.stdout.split(/\r\n|[\n\r\u2028\u2029]/)[0]).toBe('// Generated by `armada-cdk import` from "x\\u2028globalThis.__armadaCdkPwned = 1;0.yaml".');
    run(r.stdout);
    expect(pwned()).toBeUndefined();
  });
});

describe('values and names with line terminators compile and keep their text', () => {
  test.each(TERMINATORS.map(([n, t], i) => [n, t, i] as const))('%s in a values key: a quoted property name, never a template literal (TS1136)', (_name, t, i) => {
    expect(errors[`key-${i}.ts`]).toEqual([]);
    expect(Object.keys(firstChart(generated[`key-${i}.ts`]).values as object)).toEqual([`image${t}tag`]);
  });

  test.each(TERMINATORS.map(([n, t], i) => [n, t, i] as const))('%s in a values string round-trips', (_name, t, i) => {
    const code = generated[`value-${i}.ts`];
    expect(code).not.toMatch(/[\u2028\u2029\u0085\u202e]/);
    expect(errors[`value-${i}.ts`]).toEqual([]);
    expect(firstChart(code).values).toEqual({ image: `a${t}b\u202ec` });
  });

  test.each(MODULE_NAMES.map((n, i) => [n, i] as const))('a group named %s does not declare a reserved module-scope name (TS2441)', (name, i) => {
    const code = generated[`group-${i}.ts`];
    expect(code).not.toMatch(new RegExp(`const ${name} =`));
    expect(errors[`group-${i}.ts`]).toEqual([]);
    const site = run(code).site as armada.ArmadaManifest;
    expect(site.node.findAll().some((c) => c instanceof armada.ChartGroup && c.node.id === name)).toBe(true);
  });
});
