/**
 * Two constructs that write the same object into one cdk8s Chart's file: applied, the last
 * would replace the first without a word, so synth refuses it with both construct paths.
 */
import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { ArmadaChartOutput, ArmadaDocuments } from '../../src/cdk8s';

const SRC = ChartSource.tar('https://e.org/charts/x-1.0.0.tgz');

function manifest(scope: cdk8s.Chart | undefined, id: string, chart = 'a') {
  const site = new ArmadaManifest(scope, id, { releasePrefix: 'airship' });
  new Chart(new ChartGroup(site, 'g'), chart, { namespace: 'ns', source: SRC, wait: { labels: { a: 'b' } } });
  return site;
}

function synthErrors(app: cdk8s.App): string[] {
  try {
    app.synthYaml();
  } catch (e) {
    return (e as Error).message.split('\n').filter((l) => l.includes(' is written into '));
  }
  return [];
}

test('two manifests with the same release names rendered into one chart', () => {
  const app = new cdk8s.App();
  const out = new cdk8s.Chart(app, 'site');
  manifest(out, 'one');
  manifest(out, 'two');
  expect(synthErrors(app)).toEqual([
    expect.stringContaining("site/two/armada-cdk-output: ArmadaChart ns/airship-a is written into site's file by site/one/armada-cdk-output/ArmadaChart-ns-airship-a as well; applied, one would replace the other"),
  ]);
});

test('two outputs of one manifest into one chart; the same outputs into two charts are fine', () => {
  const app = new cdk8s.App();
  const out = new cdk8s.Chart(app, 'site');
  const site = manifest(undefined, 'site');
  new ArmadaChartOutput(out, 'o1', { manifest: site, onWarning: () => undefined });
  new ArmadaChartOutput(out, 'o2', { manifest: site, onWarning: () => undefined });
  expect(synthErrors(app)).toEqual([expect.stringMatching(/^.*site\/o2: ArmadaChart ns\/airship-a is written into site's file by site\/o1\/ArmadaChart-ns-airship-a as well/)]);

  const apart = new cdk8s.App();
  new ArmadaChartOutput(new cdk8s.Chart(apart, 'a'), 'o1', { manifest: site, onWarning: () => undefined });
  new ArmadaChartOutput(new cdk8s.Chart(apart, 'b'), 'o2', { manifest: site, onWarning: () => undefined });
  expect(synthErrors(apart)).toEqual([]);
});

test("an object of the user's own with the same identity; different kinds and names do not clash", () => {
  const app = new cdk8s.App();
  const out = new cdk8s.Chart(app, 'site');
  const site = manifest(undefined, 'site');
  new cdk8s.ApiObject(out, 'mine', { apiVersion: 'armada.airshipit.org/v1', kind: 'ArmadaChart', metadata: { name: 'airship-a', namespace: 'ns' } });
  new cdk8s.ApiObject(out, 'other', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'airship-a', namespace: 'ns' } });
  new ArmadaChartOutput(out, 'crs', { manifest: site, onWarning: () => undefined });
  // Documents and CRs of one manifest side by side are different objects.
  new ArmadaDocuments(out, 'docs', { manifest: site, onWarning: () => undefined });
  expect(synthErrors(app)).toEqual([expect.stringContaining("site/crs: ArmadaChart ns/airship-a is written into site's file by site/mine as well")]);
});
