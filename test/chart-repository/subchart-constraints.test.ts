/**
 * `--check-subcharts` and a Chart.yaml dependency's `alias` and `version`, on charts written to a
 * temporary Git repository and rendered with a real Helm 3 (test/helpers/real-helm.ts):
 * source-controller adds a missing `file://` dependency only when its version satisfies the
 * constraint, and Helm gives a subchart the alias (its name, its values key) only when its
 * version satisfies the constraint of the dependency of its name.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { subchartOutcomes } from '../../src/chart-repository/subchart-outcome';
import { realHelm } from '../helpers/real-helm';
import { cleanup, git, isolateEnvironment, tempDir } from '../pulumi/sources/helpers';

// Found before isolateEnvironment moves HOME.
const helm = realHelm();

/** A chart directory: Chart.yaml (with `extra` lines appended), a ConfigMap named after the chart, values. */
function writeChart(dir: string, name: string, version: string, extra = '', values = ''): void {
  fs.mkdirSync(path.join(dir, 'templates'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'Chart.yaml'), `apiVersion: v2\nname: ${name}\nversion: ${version}\n${extra}`);
  fs.writeFileSync(path.join(dir, 'templates', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-{{ .Chart.Name }}\ndata:\n  x: {{ .Values.x | default "unset" | quote }}\n');
  fs.writeFileSync(path.join(dir, 'values.yaml'), values);
}

function dependency(fields: Record<string, string>): string {
  return 'dependencies:\n' + Object.entries(fields).map(([k, v], i) => `${i === 0 ? '  - ' : '    '}${k}: ${JSON.stringify(v)}\n`).join('');
}

describe('--check-subcharts: alias and version of a Chart.yaml dependency', () => {
  let repo: string;
  beforeAll(async () => {
    await isolateEnvironment();
    repo = await tempDir('subchart-constraints');
    writeChart(path.join(repo, 'toolkit-1'), 'toolkit', '0.1.0');
    writeChart(path.join(repo, 'toolkit-2'), 'toolkit', '0.2.0');
    const values = 'tk:\n  x: under-alias\ntoolkit:\n  x: under-name\n';
    // The alias given, the version allowed: Armada injects toolkit-1, Flux adds it.
    writeChart(path.join(repo, 'aliased'), 'aliased', '1.0.0', dependency({ name: 'toolkit', alias: 'tk', version: '0.1.0', repository: 'file://../toolkit-1' }), values);
    // Armada injects toolkit-2 (0.2.0), which ~0.1 does not allow: Helm keeps it as toolkit.
    writeChart(path.join(repo, 'unaliased'), 'unaliased', '1.0.0', dependency({ name: 'toolkit', alias: 'tk', version: '~0.1', repository: 'file://../toolkit-1' }), values);
    writeChart(path.join(repo, 'too-new'), 'too-new', '1.0.0', dependency({ name: 'toolkit', version: '>=0.2.0', repository: 'file://../toolkit-1' }));
    writeChart(path.join(repo, 'no-version'), 'no-version', '1.0.0', dependency({ name: 'toolkit', alias: 'tk', repository: 'file://../toolkit-1' }));
    // charts/ vendors toolkit; source-controller looks for tk (the alias), and other is missing.
    writeChart(path.join(repo, 'vendored'), 'vendored', '1.0.0', dependency({ name: 'toolkit', alias: 'tk', version: '0.1.0', repository: 'file://../toolkit-1' }) + '  - name: other\n    version: 0.1.0\n    repository: file://../toolkit-1\n');
    fs.cpSync(path.join(repo, 'toolkit-1'), path.join(repo, 'vendored', 'charts', 'toolkit'), { recursive: true });
    await git(repo, 'init', '-q', '-b', 'main');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'charts');
  });
  afterAll(cleanup);

  test('what Flux builds and Helm renders, by alias and version', async () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const one = new Chart(site, 'toolkit-one', { namespace: 'ns', source: ChartSource.git(repo, { subpath: 'toolkit-1', reference: 'main' }) });
    const two = new Chart(site, 'toolkit-two', { namespace: 'ns', source: ChartSource.git(repo, { subpath: 'toolkit-2', reference: 'main' }) });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'aliased', { namespace: 'ns', source: ChartSource.git(repo, { subpath: 'aliased', reference: 'main' }), dependencies: [one] });
    new Chart(g, 'unaliased', { namespace: 'ns', source: ChartSource.git(repo, { subpath: 'unaliased', reference: 'main' }), dependencies: [two] });
    for (const name of ['too-new', 'no-version', 'vendored']) new Chart(g, name, { namespace: 'ns', source: ChartSource.git(repo, { subpath: name, reference: 'main' }), dependencies: [one] });
    const { spec, plan } = site.resolve();
    const outcomes = await subchartOutcomes(spec, plan, { helm, cacheDir: await tempDir('cache'), log: () => undefined });
    expect(outcomes).toEqual({
      // Both builds: toolkit 0.1.0 as tk, its values from tk:.
      aliased: { kind: 'same' },
      // Armada's toolkit 0.2.0 is rendered as toolkit (values from toolkit:); Flux's 0.1.0 as tk.
      unaliased: { kind: 'different', objects: ['ConfigMap ns/p-unaliased-tk (only under Flux)', 'ConfigMap ns/p-unaliased-toolkit (missing under Flux)'] },
      'too-new': { kind: 'cannot-build', reason: 'too-new/Chart.yaml: dependency "toolkit": the chart there ("toolkit") has version "0.1.0", which does not satisfy its version constraint ">=0.2.0", so source-controller refuses it ("can\'t get a valid version for constraint"): change the constraint to one that 0.1.0 satisfies, or the chart\'s version' },
      'no-version': { kind: 'cannot-build', reason: 'no-version/Chart.yaml: dependency "toolkit" (alias "tk"): the chart there ("toolkit") has version "0.1.0"; the dependency has no version, an empty constraint, which Helm does not accept (dependency "toolkit" has an invalid version/constraint format: improper constraint:), so source-controller refuses it ("invalid version/constraint format"): give the dependency a version constraint that 0.1.0 satisfies, such as "0.1.0"' },
      vendored: { kind: 'unknown', reason: 'vendored/Chart.yaml: dependency "toolkit" (alias "tk"): charts/ has a chart named "toolkit", which Helm gives the alias when its version satisfies "0.1.0", and source-controller, which looks for a chart named "tk", adds another under that name: helm template cannot render the chart as source-controller builds it; vendor the dependency under charts/ or drop it from charts/' },
    });
  }, 120_000);

  test('Helm itself: the alias and the values key only for a version the constraint allows, and none without a constraint', async () => {
    // The rule the outcomes above rest on, shown on the real binary.
    const { execFileSync } = await import('child_process');
    const dir = await tempDir('alias-rule');
    const render = (constraint: string | undefined, subchartVersion: string): string => {
      const chart = path.join(dir, `c-${constraint ?? 'none'}-${subchartVersion}`);
      writeChart(chart, 'app', '1.0.0', dependency({ name: 'toolkit', alias: 'tk', ...(constraint !== undefined ? { version: constraint } : {}) }), 'tk:\n  x: under-alias\ntoolkit:\n  x: under-name\n');
      writeChart(path.join(chart, 'charts', 'toolkit'), 'toolkit', subchartVersion);
      fs.rmSync(path.join(chart, 'templates'), { recursive: true });
      const out = execFileSync(helm, ['template', 'r', chart], { encoding: 'utf8' });
      return [...out.matchAll(/name: (\S+)\n[^]*?x: (\S+)/g)].map((m) => `${m[1]} ${m[2]}`).join(', ');
    };
    expect(render('0.1.0', '0.1.0')).toBe('r-tk "under-alias"');
    expect(render('~0.1', '0.2.0')).toBe('r-toolkit "under-name"');
    expect(render(undefined, '0.1.0')).toBe('r-toolkit "under-name"');
  }, 60_000);
});
