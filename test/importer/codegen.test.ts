import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import * as armada from '../../src';
import { Testing } from '../../src';
import { exportNameProblem, generateTypeScript } from '../../src/importer/codegen';
import { specToConstructs } from '../../src/importer/to-constructs';
import { SchemaVersion } from '../../src/model/spec';
import { documentsToSpec } from '../../src/model/wire/from-documents';
import { parseDocuments } from '../helpers/documents';
import { corpusFiles, readShared } from '../helpers/shared';

const ROOT = path.resolve(__dirname, '..', '..');
const complete = corpusFiles().filter((f) => f.complete).map((f) => f.file);

/** Type-checks generated sources against the library's own types, as a user's tsc would. */
function typeErrors(files: Record<string, string>): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-codegen-'));
  const names = Object.entries(files).map(([n, text]) => {
    const f = path.join(dir, n);
    fs.writeFileSync(f, text);
    return f;
  });
  const program = ts.createProgram(names, {
    strict: true,
    // As cdk8s's project template has them: every generated variable must be used.
    noUnusedLocals: true,
    noUnusedParameters: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    resolveJsonModule: true,
    baseUrl: ROOT,
    paths: { 'armada-cdk': [path.join(ROOT, 'src/index.ts')], 'armada-cdk/pulumi': [path.join(ROOT, 'src/pulumi/index.ts')] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/** Runs generated code with `armada-cdk` bound to this checkout; returns its exports. */
function run(code: string): Record<string, unknown> {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const module = { exports: {} as Record<string, unknown> };
  const req = (m: string) => {
    if (m === 'armada-cdk') return armada;
    throw new Error(`unexpected import ${m}`);
  };
  new Function('exports', 'require', 'module', js)(module.exports, req, module);
  return module.exports;
}

/**
 * A chart document without the keys Armada reads as absent, which the generated code leaves out:
 * `install` or `upgrade` empty or `{ no_hooks: false }`, `values: {}`.
 */
function withoutDefaultKeys<D extends { schema: string; data: unknown }>(doc: D): D {
  if (!doc.schema.startsWith('armada/Chart/')) return doc;
  const data = { ...(doc.data as Record<string, unknown>) };
  const empty = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  const install = data.install as Record<string, unknown> | undefined;
  if (install !== undefined && Object.keys(install).every((k) => k === 'no_hooks' && install[k] === false)) delete data.install;
  // The v1 writer writes upgrade.no_hooks into any upgrade it writes (v1's schema requires it).
  const upgrade = data.upgrade as Record<string, unknown> | undefined;
  if (upgrade !== undefined && Object.keys(upgrade).every((k) => k === 'no_hooks' && upgrade[k] === false)) delete data.upgrade;
  if (empty(data.values)) delete data.values;
  return { ...doc, data };
}

describe('armada-cdk import: generated TypeScript', () => {
  const generated: Record<string, string> = {};
  for (const file of complete) {
    const { spec } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
    generated[file.replace(/\.yaml$/, '.ts').replace(/[^A-Za-z0-9_.]/g, '_')] = generateTypeScript(spec!, { sources: [file] });
  }

  test('compiles under tsc --strict --noUnusedLocals for every complete corpus manifest', () => {
    expect(typeErrors(generated)).toEqual([]);
  });

  test.each(complete)('%s: round trip: import -> TypeScript -> synth gives documents equal to the input but for the defaults left out', (file) => {
    const { spec } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
    const code = generateTypeScript(spec!, { sources: [file] });
    const site = run(code).site as armada.ArmadaManifest;
    expect(armada.ArmadaManifest.isArmadaManifest(site)).toBe(true);
    const expected = Testing.documents(specToConstructs(spec!), { version: SchemaVersion.V1 });
    const key = (d: { schema: string; metadata: { name: string } }) => `${d.schema} ${d.metadata.name}`;
    const got = Testing.documents(site, { version: SchemaVersion.V1 });
    expect(new Map(got.map((d) => [key(d), d]))).toEqual(new Map(expected.map((d) => [key(d), withoutDefaultKeys(d)])));
    expect(Testing.plan(site).toJSON()).toEqual(Testing.plan(specToConstructs(spec!)).toJSON());
  });

  test('reads like hand-written code: variables, ChartSource, Duration, WaitResource, object literals', () => {
    const code = generated['openstack_helm__tools__deployment__armada__manifests__armada_osh.ts'];
    expect(code).toContain("import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from 'armada-cdk';");
    expect(code).toContain("export const site = new ArmadaManifest(undefined, 'armada-manifest', { releasePrefix: 'osh' });");
    expect(code).toContain("const helmToolkit = new Chart(site, 'helm-toolkit', {");
    expect(code).toContain("const deployMariadb = new ChartGroup(site, 'deploy-mariadb', { description: 'Mariadb', sequenced: true });");
    // A chart nothing refers to is not a variable (noUnusedLocals); one used as a subchart is.
    expect(code).toMatch(/\nnew Chart\(deployMariadb, 'mariadb', \{\n {2}namespace: 'openstack',\n {2}source: ChartSource\.local\('\$\{OSH_INFRA_PATH\}', \{ subpath: 'mariadb' \}\),/);
    expect(code).toContain('timeout: Duration.minutes(30)');
    expect(code).toContain('dependencies: [helmToolkit],');
  });

  test('leaves out what equals the construct default, across the corpus; keeps dependencies: [], which is a choice', () => {
    const all = Object.values(generated).join('\n');
    for (const written of ['no_hooks: false', 'noHooks: false', 'values: {}', 'install: {}']) expect(all).not.toContain(written);
    // Armada deletes a chart's own charts/ for `dependencies: []`: not a default.
    expect(all).toContain('dependencies: [],');
    const { spec } = documentsToSpec(parseDocuments(['schema: armada/Chart/v1', 'metadata: { schema: metadata/Document/v1, name: c }', 'data:', '  chart_name: c', '  release: c', '  namespace: n', '  install: { no_hooks: false }', '  upgrade: { no_hooks: false, pre: { delete: [{ type: job }] } }', '  values: {}', '  dependencies: []', '  source: { type: local, location: /c, subpath: . }', '---', 'schema: armada/ChartGroup/v1', 'metadata: { schema: metadata/Document/v1, name: g }', 'data: { chart_group: [c] }', '---', 'schema: armada/Manifest/v1', 'metadata: { schema: metadata/Document/v1, name: m }', 'data: { release_prefix: p, chart_groups: [g] }', ''].join('\n'), 'x.yaml'));
    const code = generateTypeScript(spec!);
    expect(code).toContain(["new Chart(g, 'c', {", "  namespace: 'n',", "  source: ChartSource.local('/c', { subpath: '.' }),", "  upgrade: { pre: { delete: [{ type: 'job' }] } },", '  dependencies: [],', '});'].join('\n'));
  });
});

describe('the Pulumi deployment (pulumi option)', () => {
  const file = 'openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml';
  const { spec } = documentsToSpec(parseDocuments(readShared('corpus', file), file));

  test('takeover: an exported ManifestDeployment of the manifest, from armada-cdk/pulumi, that compiles', () => {
    const code = generateTypeScript(spec!, { pulumi: { takeover: true } });
    const lines = code.split('\n');
    expect(lines.slice(2, 4)).toEqual(["import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from 'armada-cdk';", "import { ManifestDeployment } from 'armada-cdk/pulumi';"]);
    expect(lines.slice(-4)).toEqual([
      '',
      '// Its first `pulumi up` takes over the releases Armada installed, then upgrades each in place; remove takeover once it succeeded.',
      "export const deployment = new ManifestDeployment('armada-manifest', { manifest: site, takeover: true });",
      '',
    ]);
    expect(typeErrors({ 'takeover.ts': code })).toEqual([]);
    // Without the option, nothing of Pulumi.
    expect(generateTypeScript(spec!)).not.toContain('ManifestDeployment');
  });

  test('without takeover, a default export, and names that collide: the deployment keeps its own name; the manifest name is a quoted string', () => {
    const doc = (name: string) =>
      [
        'schema: armada/Chart/v1',
        'metadata: { schema: metadata/Document/v1, name: deployment }',
        'data: { chart_name: c, release: c, namespace: n, source: { type: local, location: /c, subpath: . } }',
        '---',
        'schema: armada/ChartGroup/v1',
        'metadata: { schema: metadata/Document/v1, name: g }',
        'data: { chart_group: [deployment] }',
        '---',
        'schema: armada/Manifest/v1',
        `metadata: { schema: metadata/Document/v1, name: ${JSON.stringify(name)} }`,
        'data: { release_prefix: p, chart_groups: [g] }',
        '',
      ].join('\n');
    const hostile = documentsToSpec(parseDocuments(doc("m'); require('x"), 'x.yaml')).spec!;
    const code = generateTypeScript(hostile, { pulumi: {}, exportName: 'default', importFrom: '@site/armada-cdk' });
    expect(code).toContain("import { ManifestDeployment } from '@site/armada-cdk/pulumi';");
    expect(code).toContain("export const deployment = new ManifestDeployment('m\\'); require(\\'x', { manifest: site });");
    // The chart named `deployment` is not a variable here (nothing refers to it), and never takes the deployment's name.
    expect(code).toContain("new Chart(g, 'deployment', {");
    expect(code.trimEnd().endsWith('export default site;')).toBe(true);
    const named = generateTypeScript(hostile, { pulumi: { takeover: false }, exportName: 'deployment' });
    expect(named).toContain("export const deployment = new ArmadaManifest(undefined, 'm\\'); require(\\'x', { releasePrefix: 'p' });");
    expect(named).toContain("export const deployment2 = new ManifestDeployment('m\\'); require(\\'x', { manifest: deployment });");
    expect(exportNameProblem('ManifestDeployment')).toBe('the generated module imports ManifestDeployment from armada-cdk');
  });
});

describe('the exported name', () => {
  const { spec } = documentsToSpec(parseDocuments(readShared('corpus', complete[0]), complete[0]));

  test('--export-name default gives a default export that compiles', () => {
    const code = generateTypeScript(spec!, { exportName: 'default' });
    expect(code).toContain("\nconst site = new ArmadaManifest(undefined, ");
    expect(code.trimEnd().endsWith('export default site;')).toBe(true);
    expect(typeErrors({ 'default-export.ts': code })).toEqual([]);
    expect(armada.ArmadaManifest.isArmadaManifest(run(code).default)).toBe(true);
  });

  test.each([
    ['class', 'it is a reserved word of JavaScript or TypeScript'],
    ['await', 'it is a reserved word of JavaScript or TypeScript'],
    ['Chart', 'the generated module imports Chart from armada-cdk'],
    ['my-site', 'it is not a JavaScript identifier (letters, digits, _ and $, not starting with a digit)'],
  ])('%s is refused with the reason', (name, reason) => {
    expect(exportNameProblem(name)).toBe(reason);
    expect(() => generateTypeScript(spec!, { exportName: name })).toThrow(`exportName ${JSON.stringify(name)} cannot name the manifest constant: ${reason}`);
  });
});
