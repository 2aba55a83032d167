/** FluxOutput with FluxLayout.DIRECTORY: the GitOps directory of `convert --to flux-v2 -o DIR`, from a cdk8s app. */
import * as fs from 'fs';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import * as YAML from 'yaml';
import { defineSite } from '../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Testing } from '../../src';
import { FluxLayout, FluxOutput, FluxOutputProps } from '../../src/cdk8s';
import { toYamlStream } from '../../src/model/wire/yaml';
import { Diagnostic } from '../../src/model/diagnostics';
import { cli, tmpdir } from '../helpers/cli';
import { TAR } from '../helpers/flux-site';

const OSH_INFRA = 'https://opendev.org/openstack/openstack-helm-infra';
const LOCAL = { '/opt/charts/openstack-helm-infra': ChartSource.git(OSH_INFRA, { reference: 'master' }) };

/** Every file under `dir`, relative, sorted, with its text. */
function tree(dir: string): [string, string][] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort()
    .map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
}

function directoryApp(manifest: ArmadaManifest, props: Omit<FluxOutputProps, 'manifest'>, outdir: string) {
  const warnings: Diagnostic[] = [];
  const app = new cdk8s.App({ outdir });
  const chart = new cdk8s.Chart(app, 'flux');
  const output = new FluxOutput(chart, 'flux', { manifest, layout: FluxLayout.DIRECTORY, onWarning: (w) => warnings.push(w), ...props });
  return { app, chart, output, warnings };
}

describe('FluxOutput, FluxLayout.DIRECTORY', () => {
  test('the example site: the same files, byte for byte, as convert --to flux-v2 -o DIR of its documents', async () => {
    const cwd = tmpdir();
    fs.writeFileSync(path.join(cwd, 'site.yaml'), toYamlStream(Testing.documents(defineSite())));
    const r = await cli(['convert', path.join(cwd, 'site.yaml'), '--to', 'flux-v2', '-o', 'dist', '--local-source', `/opt/charts/openstack-helm-infra=${OSH_INFRA}#master`], { cwd });
    expect([r.code, r.stderr.split('\n').filter((l) => l.startsWith('wrote') || / error: /.test(l))]).toEqual([0, ['wrote dist/site/ (16 files, 22 objects)']]);

    const out = tmpdir();
    const { app, output } = directoryApp(defineSite(), { localSources: LOCAL }, 'dist');
    // The app's outdir is the directory's path in the Git repository; the files go where asked.
    app.synth = () => undefined;
    const written = output.writeDirectory(out);
    expect(tree(out)).toEqual(tree(path.join(cwd, 'dist')));
    expect(written.files.map((f) => f.path).sort()).toEqual(tree(out).map(([f]) => f));
    expect(written.objectCount).toBe(22);
  });

  test('app.synth() writes nothing into the chart\'s file; writeDirectory() writes <outdir>/<manifest>/; byte-identical runs', () => {
    // cdk8s runs from the root of the Git repository, with a relative outdir.
    const repo = tmpdir();
    const outdir = 'dist';
    const was = process.cwd();
    process.chdir(repo);
    const make = () => {
      const { app, chart, output } = directoryApp(defineSite(), { localSources: LOCAL }, outdir);
      app.synth();
      expect(cdk8s.Testing.synth(chart)).toEqual([]);
      output.writeDirectory();
      return tree(path.join(repo, outdir, 'site'));
    };
    let first: [string, string][];
    try {
      first = make();
      expect(make()).toEqual(first);
    } finally {
      process.chdir(was);
    }
    expect(first.slice(0, 3).map(([f]) => f)).toEqual(['flux-kustomizations.yaml', 'kustomization.yaml', 'sources/kustomization.yaml']);
    const ks = YAML.parseAllDocuments(first[0][1]).map((d) => d.toJS());
    expect(ks[0].spec.path).toBe('./dist/site/sources');
  });

  test('secretValues: placeholders with substituteFrom (listed, never the value); without it, an error that fails the synth', () => {
    const site = () => {
      const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
      new Chart(new ChartGroup(m, 'g'), 'db', { namespace: 'ns', source: TAR, values: { auth: { admin: { password: 'hunter2' }, user: 'admin' }, list: ['s3cret', 'other'] } });
      return m;
    };
    const out = tmpdir();
    const ok = directoryApp(site(), { substituteFrom: 'site-vars', repositoryPath: 'clusters/prod', secretValues: { db: [['auth', 'admin', 'password'], ['list', 0]] } }, out);
    const written = ok.output.writeDirectory();
    const text = written.files.map((f) => f.content).join('');
    expect([text.includes('hunter2'), text.includes('s3cret')]).toEqual([false, false]);
    const [hr] = YAML.parseAllDocuments(written.files.find((f) => f.path.endsWith('helmreleases.yaml'))!.content).map((d) => d.toJS());
    expect(hr.spec.values).toEqual({ auth: { admin: { password: '${SECRET_P_DB_AUTH_ADMIN_PASSWORD}' }, user: 'admin' }, list: ['${SECRET_P_DB_LIST_0}', 'other'] });
    expect(written.notes).toEqual([
      'note: 2 secret values of the site became placeholders, for the Secret site-vars in namespace flux-system:',
      '  SECRET_P_DB_AUTH_ADMIN_PASSWORD: release p-db, values.auth.admin.password',
      '  SECRET_P_DB_LIST_0: release p-db, values.list[0]',
      'note: no ${VAR} placeholder in the values; the steps substitute from Secret site-vars all the same',
    ]);

    const bad = directoryApp(site(), { repositoryPath: 'clusters/prod', secretValues: { db: [['auth', 'admin', 'password']], nodb: [['x']] } }, tmpdir());
    expect(() => bad.output.writeDirectory()).toThrow([
      'flux/flux: the GitOps directory cannot be written:',
      '  flux/flux: secretValues["nodb"]: received chart "nodb", which the manifest "site" does not have; its charts are "db"',
      '  site/g/db: values.auth.admin.password: values.auth.admin.password holds secrets of the site (marked in secretValues): the HelmRelease would carry it in clear in spec.values, in Git; give the FluxOutput substituteFrom, which puts a ${SECRET_...} placeholder there',
    ].join('\n'));
    // The single file has no substitution step: a secret value fails the synth.
    const app = new cdk8s.App();
    new FluxOutput(new cdk8s.Chart(app, 'one'), 'flux', { manifest: site(), secretValues: { db: [['auth']] }, onWarning: () => undefined });
    expect(() => app.synthYaml()).toThrow(/site\/g\/db: values\.auth: values\.auth holds secrets of the site \(marked in secretValues\): .*; use FluxLayout\.DIRECTORY with substituteFrom/);
  });

  test('props are checked at once, with the construct path', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const chart = new cdk8s.Chart(new cdk8s.App({ outdir: '/abs/dist' }), 'c');
    expect(() => new FluxOutput(chart, 'a', { manifest: site, layout: FluxLayout.DIRECTORY })).toThrow(
      'c/a: the Kustomizations need the directory\'s path in the Git repository Flux reads, and the app\'s outdir "/abs/dist" must be relative to the root of the Git repository; give it as repositoryPath',
    );
    expect(() => new FluxOutput(chart, 'b', { manifest: site, layout: FluxLayout.DIRECTORY, repositoryPath: '../x' })).toThrow('c/b: repositoryPath: received "../x"; it must not leave the Git repository (no ..)');
    expect(() => new FluxOutput(chart, 'c', { manifest: site, substituteFrom: 'vars' })).toThrow('c/c: substituteFrom: received "vars" with layout single-file; it applies to FluxLayout.DIRECTORY only (the Kustomizations of the GitOps directory)');
    expect(() => new FluxOutput(chart, 'd', { manifest: site, layout: FluxLayout.DIRECTORY, repositoryPath: 'x', substituteFrom: 'Vars' })).toThrow('c/d: substituteFrom: received "Vars"; a Secret name must be a DNS-1123 subdomain');
    expect(() => new FluxOutput(chart, 'e', { manifest: site, layout: 'tree' as never })).toThrow('c/e: layout: received "tree"; use FluxLayout.SINGLE_FILE or FluxLayout.DIRECTORY');
    expect(() => new FluxOutput(chart, 'f', { manifest: site, secretValues: { db: ['auth.password'] as never } })).toThrow(
      'c/f: secretValues["db"]: received "auth.password"; give a list of paths inside the chart\'s values, each a non-empty list of keys and list indexes, e.g. [[\'endpoints\', \'oslo_db\', \'auth\', \'admin\', \'password\']]',
    );
    const single = new FluxOutput(chart, 'g', { manifest: site });
    expect(() => single.writeDirectory()).toThrow('c/g: the layout is single-file: its objects go into the enclosing chart\'s file; use FluxLayout.DIRECTORY for the GitOps directory');
  });
});
