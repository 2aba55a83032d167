import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup } from '../../src';
import { ArmadaDocuments } from '../../src/cdk8s';
import { base } from '../helpers/site';

describe('a manifest created inside a cdk8s Chart', () => {
  test('renders itself as airship ArmadaCharts into that chart (importing armada-cdk/cdk8s is enough)', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'site');
    const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'airship' });
    new Chart(new ChartGroup(site, 'g'), 'mariadb', base('mariadb'));
    const objs = cdk8s.Testing.synth(chart);
    expect(objs.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.name}`)).toEqual(['armada.airshipit.org/v1 ArmadaChart airship-mariadb']);
  });

  test('an explicit output takes over from the automatic one', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'site');
    const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'airship' });
    new Chart(new ChartGroup(site, 'g'), 'mariadb', base('mariadb'));
    new ArmadaDocuments(chart, 'docs', { manifest: site });
    const objs = cdk8s.Testing.synth(chart);
    expect(objs.map((o) => o.schema)).toEqual(['armada/Chart/v1', 'armada/ChartGroup/v1', 'armada/Manifest/v1']);
  });

  test('the explicit output that takes over is one of the same app: one in another App leaves this one rendering', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'site');
    const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'airship' });
    new Chart(new ChartGroup(site, 'g'), 'mariadb', base('mariadb'));
    // A second App in the same process (another cluster, another test) renders the same site.
    const other = new cdk8s.App();
    const docs = new cdk8s.Chart(other, 'docs');
    new ArmadaDocuments(docs, 'docs', { manifest: site, onWarning: () => undefined });
    expect(cdk8s.Testing.synth(chart).map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.name}`)).toEqual(['armada.airshipit.org/v1 ArmadaChart airship-mariadb']);
    expect(cdk8s.Testing.synth(docs).map((o) => o.schema)).toEqual(['armada/Chart/v1', 'armada/ChartGroup/v1', 'armada/Manifest/v1']);
    // An explicit output in the manifest's own app still takes over there, whatever other apps hold.
    const fresh = new cdk8s.App();
    const freshChart = new cdk8s.Chart(fresh, 'site');
    const freshSite = new ArmadaManifest(freshChart, 'site', { releasePrefix: 'airship' });
    new Chart(new ChartGroup(freshSite, 'g'), 'mariadb', base('mariadb'));
    new ArmadaDocuments(new cdk8s.Chart(fresh, 'docs'), 'docs', { manifest: freshSite, onWarning: () => undefined });
    new ArmadaDocuments(new cdk8s.Chart(new cdk8s.App(), 'docs'), 'docs', { manifest: freshSite, onWarning: () => undefined });
    expect(cdk8s.Testing.synth(freshChart)).toEqual([]);
  });

  test('an output outside a cdk8s Chart is refused at once', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    expect(() => new ArmadaDocuments(new cdk8s.App(), 'docs', { manifest: site })).toThrow('docs: an Armada output must be created inside a cdk8s Chart');
  });

  test('a failed synth writes no file', () => {
    const fs = require('fs');
    const os = require('os');
    const path = require('path');
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-nofile-'));
    const app = new cdk8s.App({ outdir });
    const chart = new cdk8s.Chart(app, 'site');
    const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'p' });
    new Chart(new ChartGroup(site, 'g'), 'Bad_Name', base('x'));
    expect(() => app.synth()).toThrow(/Bad_Name: release: Helm release "p-Bad_Name"/);
    expect(fs.readdirSync(outdir)).toEqual([]);
  });
});
