/** `convert --to flux-v2 -o DIR`: the GitOps directory, one Kustomization per plan step. */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { cli, tmpdir } from '../helpers/cli';
import { fluxCrdErrors } from '../helpers/flux-crds';
import { corpusFiles, sharedPath } from '../helpers/shared';

const corpus = (f: string) => sharedPath('corpus', f);
const SCHEMA_REJECTED = new Set(['openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml']);
const complete = corpusFiles().filter((f) => f.complete && !SCHEMA_REJECTED.has(f.file)).map((f) => f.file);
const parse = (text: string) => YAML.parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS());

/** Every file under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(dir, d), { withFileTypes: true })) {
      const rel = d === '' ? e.name : `${d}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

async function planSteps(file: string): Promise<{ index: number; group: string; releases: string[] }[]> {
  const plan = JSON.parse((await cli(['plan', file, '--format', 'json'])).stdout);
  return plan.steps.map((s: any) => ({ index: s.index, group: s.group, releases: [...new Set<string>(s.releases.filter((r: any) => r.firstStep === undefined || r.firstStep === s.index).map((r: any) => r.name))] }));
}

/**
 * What `kustomize build` needs of each folder, checked without kustomize (the e2e suite runs it):
 * a kustomization.yaml of one document whose resources are files of the folder, each a stream of
 * objects with apiVersion, kind and metadata.name. Returns each folder's objects.
 */
function kustomizeFolders(root: string): Map<string, any[]> {
  const folders = new Map<string, any[]>();
  for (const f of tree(root).filter((x) => path.basename(x) === 'kustomization.yaml')) {
    const docs = parse(fs.readFileSync(path.join(root, f), 'utf8'));
    expect([f, docs.length, docs[0].apiVersion, docs[0].kind, Object.keys(docs[0])]).toEqual([f, 1, 'kustomize.config.k8s.io/v1beta1', 'Kustomization', ['apiVersion', 'kind', 'resources']]);
    const folder = path.dirname(f);
    const objects: any[] = [];
    for (const r of docs[0].resources as string[]) {
      const file = path.join(root, folder, r);
      expect([f, r, fs.existsSync(file)]).toEqual([f, r, true]);
      for (const o of parse(fs.readFileSync(file, 'utf8'))) {
        expect([r, typeof o.apiVersion, typeof o.kind, typeof o.metadata?.name]).toEqual([r, 'string', 'string', 'string']);
        objects.push(o);
      }
    }
    folders.set(folder, objects);
  }
  return folders;
}

describe('convert --to flux-v2 -o DIR: the GitOps layout', () => {
  test('the layout of a four-step site: files, Kustomizations chained by dependsOn, each step its HelmReleases', async () => {
    const cwd = tmpdir();
    const r = await cli(['convert', corpus('armada__examples__armada-manifest-v1.yaml'), '--to', 'flux-v2', '-o', 'clusters'], { cwd });
    expect([r.code, r.stderr.split('\n').filter((l) => l.startsWith('wrote'))]).toEqual([0, ['wrote clusters/armada-manifest/ (12 files, 10 objects)']]);
    const root = path.join(cwd, 'clusters', 'armada-manifest');
    expect(tree(root)).toEqual([
      'flux-kustomizations.yaml',
      'kustomization.yaml',
      'sources/kustomization.yaml',
      'sources/sources.yaml',
      'steps/0-openstack-infra-services/helmreleases.yaml',
      'steps/0-openstack-infra-services/kustomization.yaml',
      'steps/1-openstack-infra-services/helmreleases.yaml',
      'steps/1-openstack-infra-services/kustomization.yaml',
      'steps/2-openstack-infra-services/helmreleases.yaml',
      'steps/2-openstack-infra-services/kustomization.yaml',
      'steps/3-openstack-keystone/helmreleases.yaml',
      'steps/3-openstack-keystone/kustomization.yaml',
    ]);
    expect(fs.readFileSync(path.join(root, 'kustomization.yaml'), 'utf8')).toBe('apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - flux-kustomizations.yaml\n');
    const ks = parse(fs.readFileSync(path.join(root, 'flux-kustomizations.yaml'), 'utf8'));
    const source = { kind: 'GitRepository', name: 'flux-system' };
    expect(ks[0]).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'armada-manifest.sources', namespace: 'flux-system' },
      spec: { interval: '10m', path: './clusters/armada-manifest/sources', prune: false, sourceRef: source, wait: true },
    });
    expect(ks[1]).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'armada-manifest.step-0-openstack-infra-services', namespace: 'flux-system' },
      // Each release's wait and tests, one after the other: the most the step can take.
      spec: { dependsOn: [{ name: 'armada-manifest.sources' }], interval: '10m', path: './clusters/armada-manifest/steps/0-openstack-infra-services', prune: false, sourceRef: source, timeout: '1h5m', wait: true },
    });
    expect(ks.map((k) => [k.metadata.name, k.spec.dependsOn?.[0].name])).toEqual([
      ['armada-manifest.sources', undefined],
      ['armada-manifest.step-0-openstack-infra-services', 'armada-manifest.sources'],
      ['armada-manifest.step-1-openstack-infra-services', 'armada-manifest.step-0-openstack-infra-services'],
      ['armada-manifest.step-2-openstack-infra-services', 'armada-manifest.step-1-openstack-infra-services'],
      ['armada-manifest.step-3-openstack-keystone', 'armada-manifest.step-2-openstack-infra-services'],
    ]);
    for (const k of ks) expect(fluxCrdErrors(k)).toEqual([]);
  });

  test.each(complete)('%s: every folder builds; the steps hold the plan, in order; the objects are those of stdout', async (file) => {
    const cwd = tmpdir();
    const r = await cli(['convert', corpus(file), '--to', 'flux-v2', '-o', 'out'], { cwd });
    expect(r.code).toBe(0);
    const [site] = fs.readdirSync(path.join(cwd, 'out'));
    const root = path.join(cwd, 'out', site);
    const folders = kustomizeFolders(root);
    const ks = folders.get('.')!;
    expect(ks.every((k) => k.kind === 'Kustomization' && fluxCrdErrors(k).length === 0)).toBe(true);
    // Each Kustomization's path is a folder of the layout, each step after the one before.
    expect(ks.map((k) => k.spec.path)).toEqual(ks.map((k) => `./out/${site}/${k.spec.path.split(`/${site}/`)[1]}`));
    expect(ks.slice(1).map((k) => k.spec.dependsOn)).toEqual(ks.slice(0, -1).map((k) => [{ name: k.metadata.name }]));
    const steps = (await planSteps(corpus(file))).filter((s) => s.releases.length > 0);
    const stepFolders = ks.slice(1).map((k) => k.spec.path.split(`/${site}/`)[1]);
    expect(stepFolders.map((f) => folders.get(f)!.map((o) => o.spec.releaseName))).toEqual(steps.map((s) => s.releases));
    // The same objects as the single stream, in the same order.
    const stdout = parse((await cli(['convert', corpus(file), '--to', 'flux-v2'])).stdout);
    expect([...folders.get('sources')!, ...stepFolders.flatMap((f) => folders.get(f)!)]).toEqual(stdout);
  });

  test('--repository-path and --repository-source; byte-identical runs (--force replaces)', async () => {
    const cwd = tmpdir();
    const args = ['convert', corpus('armada__examples__simple.yaml'), '--to', 'flux-v2', '-o', 'out', '--repository-path', 'clusters/prod/', '--repository-source', 'platform', '--flux-namespace', 'gitops', '--interval', '1h'];
    expect((await cli(args, { cwd })).code).toBe(0);
    const root = path.join(cwd, 'out', 'simple-armada');
    const first = tree(root).map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]);
    const ks = parse(fs.readFileSync(path.join(root, 'flux-kustomizations.yaml'), 'utf8'));
    expect(ks.map((k) => [k.metadata.namespace, k.spec.path, k.spec.sourceRef, k.spec.interval])).toEqual([
      ['gitops', './clusters/prod/simple-armada/sources', { kind: 'GitRepository', name: 'platform' }, '1h'],
      ['gitops', './clusters/prod/simple-armada/steps/0-blog-group', { kind: 'GitRepository', name: 'platform' }, '1h'],
    ]);
    const again = await cli(args, { cwd });
    expect([again.code, again.stderr.split('\n').filter((l) => / already exists/.test(l))]).toEqual([2, [expect.stringContaining('out/simple-armada/kustomization.yaml already exists')]]);
    expect((await cli([...args, '--force'], { cwd })).code).toBe(0);
    expect(tree(root).map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')])).toEqual(first);
  });

  test('option mistakes are usage errors, before anything is read or written', async () => {
    const cwd = tmpdir();
    const input = corpus('armada__examples__simple.yaml');
    for (const [args, message] of [
      [['-o', path.join(cwd, 'abs')], `-o ${path.join(cwd, 'abs')}: the Kustomizations need the directory's path in the Git repository Flux reads, and this one must be relative to the root of the Git repository; give it with --repository-path PATH`],
      [['-o', '../up'], "-o ../up: the Kustomizations need the directory's path in the Git repository Flux reads, and this one must not leave the Git repository (no ..); give it with --repository-path PATH"],
      [['-o', 'out', '--repository-path', 'a b'], '--repository-path: received "a b"; it may hold letters, digits, ".", "_", "-" and "/" only'],
      [['-o', 'out', '--repository-source', 'Flux'], '--repository-source: received "Flux"; a GitRepository name must be a DNS-1123 subdomain'],
      [['--repository-path', 'x'], '--repository-path applies to the directory that -o DIR writes for flux-v2; received it without -o'],
      [['-o', 'out', '--single-file', '--repository-source', 'x'], '--repository-source applies to the directory that -o DIR writes for flux-v2; received it with --single-file'],
      [['--single-file'], '--single-file applies with -o DIR only; without -o the output is a single stream already'],
    ] as const) {
      const r = await cli(['convert', input, '--to', 'flux-v2', ...args], { cwd });
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, expect.stringContaining(message)]);
    }
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  test('an input with errors writes no folder', async () => {
    const cwd = tmpdir();
    const text = fs.readFileSync(corpus('armada__examples__tar_example.yaml'), 'utf8').replace('mariadb-0.1.0.tgz', 'mariadb.tgz');
    fs.writeFileSync(path.join(cwd, 'tar.yaml'), text);
    const r = await cli(['convert', 'tar.yaml', '--to', 'flux-v2', '-o', 'out'], { cwd });
    expect(r.code).toBe(1);
    expect(fs.readdirSync(cwd)).toEqual(['tar.yaml']);
  });

  test('--substitute-from: ${VAR} placeholders kept for post-build substitution, every other ${ escaped, each step substitutes from the Secret', async () => {
    const cwd = tmpdir();
    const values = [
      '  values:',
      '    db:',
      "      password: '${DB_PASSWORD}'",
      "      host: 'db.${DOMAIN}'",
      '    scripts:',
      "      start.sh: \"#!/bin/sh\\necho ${HOME}\\n\"",
      '    conf:',
      "      tag: 'info.${tag}'",
    ].join('\n');
    const text = fs.readFileSync(corpus('armada__examples__simple.yaml'), 'utf8').replace('  values: {}', values);
    expect(text).toContain('${DB_PASSWORD}');
    fs.writeFileSync(path.join(cwd, 'site.yaml'), text);
    const r = await cli(['convert', path.join(cwd, 'site.yaml'), '--to', 'flux-v2', '-o', 'out', '--substitute-from', 'site-vars'], { cwd });
    expect([r.code, r.stderr.split('\n').filter((l) => / error: /.test(l))]).toEqual([0, []]);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('note: the values keep'))).toEqual([
      'note: the values keep ${DB_PASSWORD}, ${DOMAIN} for kustomize-controller to substitute from the Secret site-vars in namespace flux-system: create it, out of Git, with those keys (kubectl create secret generic site-vars -n flux-system --from-literal=DB_PASSWORD=...)',
    ]);
    const root = path.join(cwd, 'out', 'simple-armada');
    const [release] = parse(fs.readFileSync(path.join(root, 'steps/0-blog-group/helmreleases.yaml'), 'utf8'));
    expect(release.spec.values).toEqual({ conf: { tag: 'info.$${tag}' }, db: { host: 'db.${DOMAIN}', password: '${DB_PASSWORD}' }, scripts: { 'start.sh': '#!/bin/sh\necho $${HOME}\n' } });
    const ks = parse(fs.readFileSync(path.join(root, 'flux-kustomizations.yaml'), 'utf8'));
    expect(ks.map((k) => k.spec.postBuild)).toEqual([undefined, { substituteFrom: [{ kind: 'Secret', name: 'site-vars' }] }]);
    for (const k of ks) expect(fluxCrdErrors(k)).toEqual([]);
    // Without the option the values are as written.
    const plain = await cli(['convert', path.join(cwd, 'site.yaml'), '--to', 'flux-v2', '-o', 'plain'], { cwd });
    expect(plain.code).toBe(0);
    expect(parse(fs.readFileSync(path.join(cwd, 'plain', 'simple-armada', 'steps/0-blog-group/helmreleases.yaml'), 'utf8'))[0].spec.values.conf).toEqual({ tag: 'info.${tag}' });
  });

  test('a folder of the layout that is a link or a file is refused, and nothing is written', async () => {
    const cwd = tmpdir();
    const elsewhere = tmpdir();
    fs.mkdirSync(path.join(cwd, 'out'));
    fs.symlinkSync(elsewhere, path.join(cwd, 'out', 'simple-armada'));
    const input = corpus('armada__examples__simple.yaml');
    const r = await cli(['convert', input, '--to', 'flux-v2', '-o', 'out', '--force'], { cwd });
    expect([r.code, r.stderr.split('\n').filter((l) => /not a directory/.test(l))]).toEqual([2, ['armada-cdk convert: out/simple-armada exists and is not a directory (a link is not followed); remove it, or choose another -o directory']]);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    fs.rmSync(path.join(cwd, 'out', 'simple-armada'));
    fs.mkdirSync(path.join(cwd, 'out', 'simple-armada'));
    fs.writeFileSync(path.join(cwd, 'out', 'simple-armada', 'steps'), 'a file');
    const f = await cli(['convert', input, '--to', 'flux-v2', '-o', 'out', '--force'], { cwd });
    expect([f.code, f.stderr.split('\n').filter((l) => /not a directory/.test(l))]).toEqual([2, ['armada-cdk convert: out/simple-armada/steps exists and is not a directory (a link is not followed); remove it, or choose another -o directory']]);
    expect(tree(path.join(cwd, 'out'))).toEqual(['simple-armada/steps']);
  });
});
