/**
 * Outputs are explicit: a manifest renders through the outputs added for it, and loading
 * armada-cdk/cdk8s registers nothing. ManifestOutput is the extension point for a target of one's own.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup, Diagnostic } from '../../src';
import { ArmadaChartOutput, ArmadaDocuments, ManifestOutput, Rendered } from '../../src/cdk8s';
import { base } from '../helpers/site';

function siteIn(scope: cdk8s.Chart | undefined) {
  const site = new ArmadaManifest(scope, 'site', { releasePrefix: 'airship' });
  new Chart(new ChartGroup(site, 'g'), 'mariadb', base('mariadb'));
  return site;
}

describe('outputs are explicit', () => {
  test('a manifest in a cdk8s Chart renders through the output added for it, and through nothing else', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'site');
    const site = siteIn(chart);
    new ArmadaDocuments(chart, 'docs', { manifest: site });
    expect(cdk8s.Testing.synth(chart).map((o) => o.schema)).toEqual(['armada/Chart/v1', 'armada/ChartGroup/v1', 'armada/Manifest/v1']);
    expect(site.node.findAll().filter((c) => cdk8s.ApiObject.isApiObject(c))).toEqual([]);
  });

  test('loading armada-cdk/cdk8s adds no output: without one the synth fails and says which to add', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'site');
    siteIn(chart);
    expect(() => app.synthYaml()).toThrow("site/site: this manifest is inside a cdk8s Chart but nothing renders it: add an output of armada-cdk/cdk8s for it, such as new ArmadaChartOutput(chart, 'crs', { manifest: site })");
  });

  test('an output in another App renders there; the manifest in a cdk8s Chart still needs its own', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'site');
    const site = siteIn(chart);
    const other = new cdk8s.Chart(new cdk8s.App(), 'docs');
    new ArmadaDocuments(other, 'docs', { manifest: site, onWarning: () => undefined });
    expect(cdk8s.Testing.synth(other).map((o) => o.schema)).toEqual(['armada/Chart/v1', 'armada/ChartGroup/v1', 'armada/Manifest/v1']);
    new ArmadaChartOutput(chart, 'crs', { manifest: site, onWarning: () => undefined });
    expect(cdk8s.Testing.synth(chart).map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.name}`)).toEqual(['armada.airshipit.org/v1 ArmadaChart airship-mariadb']);
  });

  test('an output outside a cdk8s Chart is refused at once', () => {
    const site = siteIn(undefined);
    expect(() => new ArmadaDocuments(new cdk8s.App(), 'docs', { manifest: site })).toThrow('docs: an Armada output must be created inside a cdk8s Chart');
  });

  test('a failed synth writes no file', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-nofile-'));
    try {
      const app = new cdk8s.App({ outdir });
      const chart = new cdk8s.Chart(app, 'site');
      const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'p' });
      new Chart(new ChartGroup(site, 'g'), 'Bad_Name', base('x'));
      new ArmadaChartOutput(chart, 'crs', { manifest: site });
      expect(() => app.synth()).toThrow(/Bad_Name: release: Helm release "p-Bad_Name"/);
      expect(fs.readdirSync(outdir)).toEqual([]);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});

/** A target of one's own: one ConfigMap listing the plan's releases in order. */
class ReleaseList extends ManifestOutput {
  protected render(): Rendered {
    const { plan, spec } = this.manifest.resolve();
    const diagnostics: Diagnostic[] = plan.releases.length > 1 ? [] : [{ severity: 'warning', location: this.manifest.node.path, message: 'one release only', code: 'not-expressible' }];
    const name = `${spec.name}-releases`;
    return {
      objects: [{ identity: { apiVersion: 'v1', kind: 'ConfigMap', name }, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { releases: plan.releases.map((r) => r.name).join(',') } } }],
      diagnostics,
    };
  }
}

describe('ManifestOutput, the extension point', () => {
  test('a subclass renders from the resolved manifest; the base writes its objects and reports its warnings', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'out');
    const site = siteIn(undefined);
    const seen: string[] = [];
    new ReleaseList(chart, 'list', { manifest: site, onWarning: (d) => seen.push(`${d.code} ${d.location}: ${d.message}`) });
    expect(cdk8s.Testing.synth(chart)).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'site-releases' }, data: { releases: 'airship-mariadb' } }]);
    expect(seen).toEqual(['not-expressible site: one release only']);
  });

  test('the base reports the manifest errors instead of rendering, and the clash of an object written twice', () => {
    const app = new cdk8s.App();
    const chart = new cdk8s.Chart(app, 'out');
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
    new Chart(new ChartGroup(site, 'g'), 'Bad_Name', base('x'));
    new ReleaseList(chart, 'list', { manifest: site });
    expect(() => app.synthYaml()).toThrow('[out/list] site/g/Bad_Name: release: Helm release "airship-Bad_Name"');

    const twice = new cdk8s.App();
    const out = new cdk8s.Chart(twice, 'out');
    const ok = siteIn(undefined);
    new ReleaseList(out, 'a', { manifest: ok, onWarning: () => undefined });
    new ReleaseList(out, 'b', { manifest: ok, onWarning: () => undefined });
    expect(() => twice.synthYaml()).toThrow("out/b: ConfigMap site-releases is written into out's file by out/a/ConfigMap-site-releases as well");
  });
});
