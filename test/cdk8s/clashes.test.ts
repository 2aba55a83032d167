/**
 * Two constructs that write the same object into one cdk8s Chart's file, or into two files of
 * one app: applied, the last would replace the first without a word (and deleting either file
 * deletes the other's), so synth refuses it with both construct paths.
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

function synthErrors(app: cdk8s.App, marker = ' is written into '): string[] {
  try {
    app.synthYaml();
  } catch (e) {
    return (e as Error).message.split('\n').filter((l) => l.includes(marker)).map((l) => l.trim());
  }
  return [];
}

const ACROSS = ' writes as well, into ';

test('two manifests with the same release names rendered into one chart', () => {
  const app = new cdk8s.App();
  const out = new cdk8s.Chart(app, 'site');
  new ArmadaChartOutput(out, 'crs-one', { manifest: manifest(out, 'one'), onWarning: () => undefined });
  new ArmadaChartOutput(out, 'crs-two', { manifest: manifest(out, 'two'), onWarning: () => undefined });
  expect(synthErrors(app)).toEqual([
    expect.stringContaining("site/crs-two: ArmadaChart ns/airship-a is written into site's file by site/crs-one/ArmadaChart-ns-airship-a as well; applied, one would replace the other"),
  ]);
});

test('two outputs of one manifest into one chart; the same outputs into two charts are fine', () => {
  const app = new cdk8s.App();
  const out = new cdk8s.Chart(app, 'site');
  const site = manifest(undefined, 'site');
  new ArmadaChartOutput(out, 'o1', { manifest: site, onWarning: () => undefined });
  new ArmadaChartOutput(out, 'o2', { manifest: site, onWarning: () => undefined });
  expect(synthErrors(app)).toEqual([expect.stringMatching(/^.*site\/o2: ArmadaChart ns\/airship-a is written into site's file by site\/o1\/ArmadaChart-ns-airship-a as well/)]);

  // In two files of one app, kubectl apply -f dist/ applies both, and deleting one deletes the other's.
  const apart = new cdk8s.App();
  new ArmadaChartOutput(new cdk8s.Chart(apart, 'a'), 'o1', { manifest: site, onWarning: () => undefined });
  new ArmadaChartOutput(new cdk8s.Chart(apart, 'b'), 'o2', { manifest: site, onWarning: () => undefined });
  expect(synthErrors(apart, ACROSS)).toEqual([
    "[] the ArmadaChartOutput (api armada.airshipit.org/v1) b/o2 writes ArmadaChart ns/airship-a, which the ArmadaChartOutput (api armada.airshipit.org/v1) a/o1 writes as well, into b's file and a's: applied, one would replace the other, and kubectl delete -f of either file would delete the other's; give them different names or namespaces, or write them once",
  ]);
  // Two apps (two clusters) are fine, and so are Armada documents, which kubectl never applies.
  for (const out of [new cdk8s.App(), new cdk8s.App()]) {
    new ArmadaChartOutput(new cdk8s.Chart(out, 'a'), 'o', { manifest: site, onWarning: () => undefined });
    expect(synthErrors(out, ' ')).toEqual([]);
  }
  const docs = new cdk8s.App();
  new ArmadaDocuments(new cdk8s.Chart(docs, 'a'), 'd1', { manifest: site, onWarning: () => undefined });
  new ArmadaDocuments(new cdk8s.Chart(docs, 'b'), 'd2', { manifest: site, onWarning: () => undefined });
  expect(synthErrors(docs, ' ')).toEqual([]);
});

test("across files: an object of the user's own clashes with an output's; two of the user's own are left to the user; a second synth fails as the first", () => {
  const app = new cdk8s.App();
  const site = manifest(undefined, 'site');
  const mine = new cdk8s.Chart(app, 'mine');
  // Another version of the same group is the same object to the API server.
  new cdk8s.ApiObject(mine, 'cr', { apiVersion: 'armada.airshipit.org/v1alpha1', kind: 'ArmadaChart', metadata: { name: 'airship-a', namespace: 'ns' } });
  new cdk8s.ApiObject(mine, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' } });
  new cdk8s.ApiObject(new cdk8s.Chart(app, 'also-mine'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'ns' } });
  new ArmadaChartOutput(new cdk8s.Chart(app, 'site'), 'crs', { manifest: site, onWarning: () => undefined });
  const expected = [
    "[] the ArmadaChartOutput (api armada.airshipit.org/v1) site/crs writes ArmadaChart ns/airship-a, which mine/cr writes as well, into site's file and mine's: applied, one would replace the other, and kubectl delete -f of either file would delete the other's; give them different names or namespaces, or write them once",
  ];
  expect(synthErrors(app, ACROSS)).toEqual(expected);
  expect(synthErrors(app, ACROSS)).toEqual(expected);
});

test('a clash inside one file is still reported on every synth', () => {
  const app = new cdk8s.App();
  const out = new cdk8s.Chart(app, 'site');
  new ArmadaChartOutput(out, 'crs-one', { manifest: manifest(out, 'one'), onWarning: () => undefined });
  new ArmadaChartOutput(out, 'crs-two', { manifest: manifest(out, 'two'), onWarning: () => undefined });
  expect(synthErrors(app)).toHaveLength(1);
  expect(synthErrors(app)).toHaveLength(1);
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
