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
    expect(() => app.synth()).toThrow(/chart name "Bad_Name"/);
    expect(fs.readdirSync(outdir)).toEqual([]);
  });
});
