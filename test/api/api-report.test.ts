import * as fs from 'fs';
import * as path from 'path';
import { apiReport, entryPoints, REPORT_FILE } from '../../scripts/api-report';

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

  test('the report covers each entry point of package.json, and the ones the README imports from', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(entryPoints(ROOT)).toEqual([
      { specifier: 'armada-cdk', file: 'src/index.ts' },
      { specifier: 'armada-cdk/cdk8s', file: 'src/cdk8s/index.ts' },
      { specifier: 'armada-cdk/pulumi', file: 'src/pulumi/index.ts' },
    ]);
    // Every subpath resolves for node10 resolution too (typesVersions), to the same declarations.
    for (const { specifier } of entryPoints(ROOT).slice(1)) {
      const sub = specifier.slice('armada-cdk/'.length);
      expect(pkg.typesVersions['*'][sub]).toEqual([pkg.exports[`./${sub}`].types.replace(/^\.\//, '')]);
    }
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const imported = [...readme.matchAll(/import \{([^}]*)\} from '(armada-cdk(?:\/\w+)?)'/g)].flatMap((m) =>
      m[1].split(',').map((n) => `${m[2]} ${n.trim()}`),
    );
    const exported = new Set(report.names.map((n) => `${n.entry} ${n.name}`));
    expect(imported.length).toBeGreaterThan(10);
    expect(imported.filter((i) => !exported.has(i))).toEqual([]);
  });

  test('internals stay behind internal paths', () => {
    const names = new Set(report.names.map((n) => n.name));
    for (const internal of ['buildPlan', 'parseMinReady', 'effectiveWaitTimeout', 'layoutDeployment', 'previousKey', 'publishChart', 'needsRefresh', 'RenderedObject', 'operatorCrds', 'toArmadaDocuments', 'releaseInputs']) {
      expect([internal, names.has(internal)]).toEqual([internal, false]);
    }
  });

  test('the names a program can use at run time are the constructs, factories, enums and errors', () => {
    const values = (entry: string) =>
      report.names.filter((n) => n.entry === entry && !['interface', 'type'].includes(n.kind) && !n.kind.endsWith('(type only)')).map((n) => n.name);
    expect(values('armada-cdk')).toEqual(['ArmadaManifest', 'ArmadaValidationError', 'Chart', 'ChartGroup', 'ChartSource', 'Duration', 'SchemaVersion', 'SourceType', 'Testing', 'WaitResource', 'WaitResourceType', 'mergeValues']);
    expect(values('armada-cdk/cdk8s')).toEqual(['ArmadaChartOutput', 'ArmadaDocuments', 'ArmadaOperator', 'FluxOutput', 'HelmReleasePlacement', 'KeleustesReleaseNaming', 'OperatorApi', 'ResourceKinds']);
    expect(values('armada-cdk/pulumi')).toEqual(['ChartSourceError', 'ManifestDeployment', 'defaultCacheDir']);
    // The report's view matches what the modules really export.
    const runtime = (m: object) => Object.keys(m).filter((k) => k !== '__esModule').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(runtime(require('../../src'))).toEqual(values('armada-cdk'));
    expect(runtime(require('../../src/cdk8s'))).toEqual(values('armada-cdk/cdk8s'));
    expect(runtime(require('../../src/pulumi'))).toEqual(values('armada-cdk/pulumi'));
  });
});
