/**
 * `--check-subcharts`: the three outcomes (same render, different render, cannot build) on the
 * small charts of test/fixtures/subcharts, committed to a Git repository, rendered with a real
 * Helm 3 (test/helpers/real-helm.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { compareObjects, subchartOutcomes } from '../../src/chart-repository/subchart-outcome';
import { subchartsText } from '../../src/model/wire/flux-subcharts';
import { toFluxObjects } from '../../src/model/wire/flux-v2';
import { realHelm } from '../helpers/real-helm';
import { cleanup, git, isolateEnvironment, tempDir } from '../pulumi/sources/helpers';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'subcharts');

// Found before isolateEnvironment moves HOME.
const helm = realHelm();

describe('what Flux makes of Armada dependencies, checked', () => {
  let repo: string;
  beforeAll(async () => {
    await isolateEnvironment();
    repo = await tempDir('subcharts');
    fs.cpSync(FIXTURES, repo, { recursive: true });
    await git(repo, 'init', '-q', '-b', 'main');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'charts');
  });
  afterAll(cleanup);

  test('same render, different render with the objects, cannot build', async () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const toolkit = new Chart(site, 'toolkit', { namespace: 'ns', source: ChartSource.git(repo, { subpath: 'toolkit-a', reference: 'main' }) });
    const g = new ChartGroup(site, 'g');
    for (const name of ['same', 'differ', 'remote']) new Chart(g, name, { namespace: 'ns', source: ChartSource.git(repo, { subpath: name, reference: 'main' }), dependencies: [toolkit] });
    const { spec, plan } = site.resolve();
    const outcomes = await subchartOutcomes(spec, plan, { helm, cacheDir: await tempDir('cache'), log: () => undefined });
    expect(outcomes).toEqual({
      // Chart.yaml's file://../toolkit-a is the chart Armada injects.
      same: { kind: 'same' },
      // charts/ vendors toolkit-b, whose labels add tier: b; the Service is the same.
      differ: { kind: 'different', objects: ['ConfigMap ns/p-differ-config'] },
      // OSH's helm serve repository, which no source-controller reaches.
      remote: { kind: 'cannot-build', reason: 'remote/Chart.yaml: dependency "toolkit" comes from http://localhost:8879/charts, which source-controller fetches from its own pod, where nothing serves it (a helm serve repository of the machine that ran Armada)' },
    });
    // The warning of each chart says its outcome.
    const findings = toFluxObjects(spec, plan, { subchartOutcomes: outcomes }).diagnostics.all.filter((d) => d.field === 'dependencies').map((d) => [d.location, d.message.replace(/^.*?: subchart/, 'subchart')]);
    expect(findings).toEqual([
      ['site/g/same', 'subchart dependencies ["toolkit"] (Armada injects them into charts/): Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists), and it renders the same objects as Armada\'s (checked with helm template)'],
      ['site/g/differ', 'subchart dependencies ["toolkit"] (Armada injects them into charts/): Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists), and it renders one object otherwise than Armada\'s (checked with helm template): ConfigMap ns/p-differ-config; convert with --package-charts URL to deploy the charts as Armada assembles them, or vendor the subcharts into the chart'],
      ['site/g/remote', `subchart dependencies ["toolkit"] (Armada injects them into charts/): Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists), and it cannot be built so: ${outcomes.remote.kind === 'cannot-build' ? outcomes.remote.reason : ''}; convert with --package-charts URL to deploy the charts as Armada assembles them, or vendor the subcharts into the chart`],
    ]);
  }, 60_000);

  test('a dependency Flux cannot find in the source, and a local directory Flux cannot read', async () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const toolkit = new Chart(site, 'toolkit', { namespace: 'ns', source: ChartSource.local(path.join(FIXTURES, 'toolkit-a')) });
    const g = new ChartGroup(site, 'g');
    // Flux fetches the whole repository: file://../toolkit-a is found beside the chart.
    new Chart(g, 'alone', { namespace: 'ns', source: ChartSource.git(repo, { subpath: 'same', reference: 'main' }), dependencies: [toolkit] });
    new Chart(g, 'local', { namespace: 'ns', source: ChartSource.local(FIXTURES, { subpath: 'same' }), dependencies: [toolkit] });
    const { spec, plan } = site.resolve();
    const outcomes = await subchartOutcomes(spec, plan, { helm, cacheDir: await tempDir('cache'), log: () => undefined });
    expect(outcomes.local).toEqual({ kind: 'cannot-build', reason: `no Flux source reads the local directory ${JSON.stringify(FIXTURES)} (name the Git repository that holds it with --local-source)` });
    expect(outcomes.alone).toEqual({ kind: 'same' });
  }, 60_000);

  test('the text when nothing was checked, and for an outcome not determined', () => {
    expect(subchartsText(['a', 'b'], undefined)).toBe('subchart dependencies ["a","b"] (Armada injects them into charts/): Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists); not checked whether it then renders the same objects, renders others or cannot be built: convert with --check-subcharts to know, or with --package-charts URL to deploy what Armada deploys');
    expect(subchartsText([], { kind: 'unknown', reason: 'why' })).toBe("dependencies [] (Armada empties the chart's charts/ directory): Flux builds the chart as its source has it (its charts/ and the dependencies its Chart.yaml lists); whether it renders the same objects was not determined: why");
  });

  test('objects compared by kind, namespace and name, whatever the key order', () => {
    const a = new Map<string, unknown>([['ConfigMap ns/a', { x: 1, y: 2 }], ['Service ns/s', {}], ['Secret ns/gone', {}]]);
    const b = new Map<string, unknown>([['ConfigMap ns/a', { y: 2, x: 1 }], ['Service ns/s', { spec: {} }], ['Job ns/new', {}]]);
    expect(compareObjects(a, b)).toEqual(['Job ns/new (only under Flux)', 'Secret ns/gone (missing under Flux)', 'Service ns/s']);
  });
});
