import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { apiReport, entryPoints, REPORT_FILE } from '../../scripts/api-report';
import { documentationFiles } from '../consumer/readme-samples';

const ROOT = path.resolve(__dirname, '..', '..');
const UPDATE = process.env.UPDATE_API_REPORT === '1';

/** The lines that differ, as `-` (committed) and `+` (generated), with line numbers; at most `max`. */
function lineDiff(before: string, after: string, max = 40): string {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence over lines: the report is a few thousand lines at most.
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while ((i < a.length || j < b.length) && out.length < max) {
    if (i < a.length && j < b.length && a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) out.push(`+${j + 1}: ${b[j++]}`);
    else out.push(`-${i + 1}: ${a[i++]}`);
  }
  return out.join('\n');
}

/** A scratch package with two entry points, for the generator's own tests. */
function scratchPackage(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-api-'));
  const entry = (p: string) => ({ types: `./lib/src/${p}.d.ts`, default: `./lib/src/${p}.js` });
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'demo', exports: { '.': entry('index'), './extra': entry('extra/index'), './package.json': './package.json' } }),
    'tsconfig.build.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', lib: ['ES2022'], strict: true, rootDir: '.', outDir: 'lib', types: [] }, include: ['src'] }),
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the API report generator', () => {
  const root = scratchPackage({
    'src/index.ts': "export { Widget } from './widget';\nexport type { Gadget, WidgetProps } from './widget';\n",
    'src/extra/index.ts': "export type { Part } from '../part';\n",
    'src/part.ts': 'export interface Part { readonly name: string }\n',
    'src/size.ts': 'export interface Size { readonly width: number }\n',
    'src/widget.ts': [
      "import { Part } from './part';",
      "import type { Size } from './size';",
      '/** Props. */',
      'export interface WidgetProps { readonly part?: Part; readonly size?: Size }',
      'export class Widget {',
      '  private secret = 1;',
      '  constructor(readonly props: WidgetProps) {}',
      '  get parts(): Part[] { return [this.props.part!].slice(this.secret); }',
      '  protected weight(): number { return 1; }',
      '}',
      'export class Gadget {}',
      '',
    ].join('\n'),
  });
  const report = apiReport(root);

  test('lists each entry point of package.json with its names, kinds and declarations, private members left out', () => {
    expect(report.names).toEqual([
      { entry: 'demo', name: 'Gadget', kind: 'class (type only)' },
      { entry: 'demo', name: 'Widget', kind: 'class' },
      { entry: 'demo', name: 'WidgetProps', kind: 'interface' },
      { entry: 'demo/extra', name: 'Part', kind: 'interface' },
    ]);
    expect(report.text).toContain('## demo\n\nFrom src/index.ts: 3 names.\n\n- Gadget: class (type only)\n- Widget: class\n- WidgetProps: interface\n');
    expect(report.text).toContain(
      '### Widget\n\nclass, from src/widget.ts\n\n```ts\nexport declare class Widget {\n    readonly props: WidgetProps;\n    constructor(props: WidgetProps);\n' +
        '    get parts(): Part[];\n    protected weight(): number;\n}\n```',
    );
    expect(report.text).toContain('### WidgetProps\n\ninterface, from src/widget.ts\n\n```ts\nexport interface WidgetProps {\n    readonly part?: Part;\n    readonly size?: Size;\n}\n```');
    expect(report.text).not.toContain('secret');
  });

  test('a type used by a public declaration but exported by no entry point is a forgotten export', () => {
    // Part is exported by the other entry point, so a user can name it; Size by none.
    expect(report.forgottenExports).toEqual(['demo WidgetProps uses Size (src/size.ts), which no entry point exports']);
  });
});

describe('the API report', () => {
  const report = apiReport(ROOT);
  const file = path.join(ROOT, REPORT_FILE);

  test(`${REPORT_FILE} is what the entry points export (regenerate with UPDATE_API_REPORT=1)`, () => {
    if (UPDATE) fs.writeFileSync(file, report.text);
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (committed !== report.text) {
      throw new Error(
        `The exported API differs from ${REPORT_FILE}. If the change is intended, run\n` +
          `  UPDATE_API_REPORT=1 npx jest test/api\n` +
          `and commit the report with the change, so that the new surface is reviewed.\n\n` +
          lineDiff(committed, report.text),
      );
    }
  });

  test('every type a public declaration uses can be named by a user (no forgotten exports)', () => {
    expect(report.forgottenExports).toEqual([]);
  });

  test('the report covers each entry point of package.json, and the ones the README and the docs import from', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(entryPoints(ROOT)).toEqual([
      { specifier: 'armada-cdk', file: 'src/index.ts' },
      { specifier: 'armada-cdk/cdk8s', file: 'src/cdk8s/index.ts' },
      { specifier: 'armada-cdk/pulumi', file: 'src/pulumi/index.ts' },
      { specifier: 'armada-cdk/helmfile', file: 'src/helmfile/index.ts' },
    ]);
    // Every subpath resolves for node10 resolution too (typesVersions), to the same declarations.
    for (const { specifier } of entryPoints(ROOT).slice(1)) {
      const sub = specifier.slice('armada-cdk/'.length);
      expect(pkg.typesVersions['*'][sub]).toEqual([pkg.exports[`./${sub}`].types.replace(/^\.\//, '')]);
    }
    const readme = documentationFiles()
      .map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'))
      .join('\n');
    const imported = [...readme.matchAll(/import \{([^}]*)\} from '(armada-cdk(?:\/\w+)?)'/g)].flatMap((m) =>
      m[1].split(',').map((n) => `${m[2]} ${n.trim()}`),
    );
    const exported = new Set(report.names.map((n) => `${n.entry} ${n.name}`));
    expect(imported.length).toBeGreaterThan(10);
    expect(imported.filter((i) => !exported.has(i))).toEqual([]);
  });

  test('members tagged @internal (the underscore methods the constructs call on each other) are not in the published declarations', () => {
    // tsconfig.build.json strips them (stripInternal); the report reads the same options.
    const build = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.build.json'), 'utf8'));
    expect(build.compilerOptions.stripInternal).toBe(true);
    const declarations = report.text.split('\n').filter((l) => /^ {4}(?:(?:static|readonly|get|set|protected) )*_\w*\(?/.test(l));
    expect(declarations).toEqual([]);
    for (const member of ['_adopt', '_claim', '_outputs', '_toSpec', '_done']) expect(report.text).not.toContain(member);
  });

  test('internals stay behind internal paths', () => {
    const names = new Set(report.names.map((n) => n.name));
    for (const internal of ['buildPlan', 'parseMinReady', 'effectiveWaitTimeout', 'layoutDeployment', 'previousKey', 'publishChart', 'needsRefresh', 'RenderedObject', 'operatorCrds', 'toArmadaDocuments', 'releaseInputs']) {
      expect([internal, names.has(internal)]).toEqual([internal, false]);
    }
  });

  test('the names a program can use at run time are the constructs, factories, enums and errors, and the Pegleg site loaders', () => {
    const values = (entry: string) =>
      report.names.filter((n) => n.entry === entry && !['interface', 'type'].includes(n.kind) && !n.kind.endsWith('(type only)')).map((n) => n.name);
    expect(values('armada-cdk')).toEqual(['ArmadaManifest', 'ArmadaValidationError', 'Chart', 'ChartGroup', 'ChartSource', 'Duration', 'SchemaVersion', 'SourceType', 'Testing', 'WaitResource', 'WaitResourceType', 'Warnings', 'loadPeglegSite', 'mergeValues', 'siteSecret']);
    expect(values('armada-cdk/cdk8s')).toEqual([
      'ArmadaChartOutput',
      'ArmadaDocuments',
      'ArmadaOperator',
      'ChartPackagingError',
      'FluxLayout',
      'FluxOutput',
      'HelmReleasePlacement',
      'KeleustesReleaseNaming',
      'ManifestOutput',
      'OperatorApi',
      'OperatorRbac',
      'PodSecurityLevel',
      'ReleaseNamespaceOutput',
      'ResourceKinds',
      'RoleEscalation',
      'checkFluxSubcharts',
      'packageFluxCharts',
    ]);
    expect(values('armada-cdk/pulumi')).toEqual(['ChartSourceError', 'ManifestDeployment', 'defaultCacheDir', 'loadPeglegSite']);
    // The report's view matches what the modules really export.
    const runtime = (m: object) => Object.keys(m).filter((k) => k !== '__esModule').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(runtime(require('../../src'))).toEqual(values('armada-cdk'));
    expect(runtime(require('../../src/cdk8s'))).toEqual(values('armada-cdk/cdk8s'));
    expect(runtime(require('../../src/pulumi'))).toEqual(values('armada-cdk/pulumi'));
    expect(runtime(require('../../src/helmfile'))).toEqual(values('armada-cdk/helmfile'));
  });
});
