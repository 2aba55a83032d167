/** `armada-cdk convert --to flux-v2` on the real corpus and on a generated site. */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { cli, tmpdir, write } from '../helpers/cli';
import { fluxCrdErrors } from '../helpers/flux-crds';
import { levelsFromDependsOn } from '../helpers/flux-order';
import { corpusFiles, sharedPath } from '../helpers/shared';

const corpus = (f: string) => sharedPath('corpus', f);
/** Complete manifests the current Armada schemas reject (INDEX.md): not converted by any target. */
const SCHEMA_REJECTED = new Set(['openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml']);
const complete = corpusFiles().filter((f) => f.complete && !SCHEMA_REJECTED.has(f.file)).map((f) => f.file);

const parse = (text: string) => YAML.parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS());

async function planSteps(file: string): Promise<string[][]> {
  const plan = JSON.parse((await cli(['plan', file, '--format', 'json'])).stdout);
  return plan.steps.map((s: any) => [...new Set<string>(s.releases.map((r: any) => r.name))]);
}

describe('convert --to flux-v2', () => {
  test('the corpus has complete manifests to convert', () => {
    expect(complete.length).toBeGreaterThanOrEqual(8);
  });

  test.each(complete)('%s: converts; every object is valid against the Flux CRDs; dependsOn gives back the plan', async (file) => {
    const r = await cli(['convert', corpus(file), '--to', 'flux-v2']);
    expect([r.code, r.stderr.split('\n').filter((l) => / error: /.test(l))]).toEqual([0, []]);
    const objects = parse(r.stdout);
    for (const o of objects) expect([o.kind, o.metadata.name, fluxCrdErrors(o)]).toEqual([o.kind, o.metadata.name, []]);
    expect(levelsFromDependsOn(objects)).toEqual(await planSteps(corpus(file)));
    for (const o of objects.filter((x) => x.kind === 'HelmRelease')) {
      expect(o.spec.storageNamespace).toBe(o.spec.targetNamespace);
      // Scoped to the site (the corpus's manifest names are short slugs already); the Helm release as written.
      expect(o.metadata.name).toBe(`${o.metadata.annotations['armada-cdk.io/manifest']}.${o.spec.releaseName}`);
    }
    // Every finding is one line naming the file position, the document and the field.
    for (const line of r.stderr.split('\n').filter((l) => / warning: /.test(l) && /Flux/.test(l))) {
      expect(line).toMatch(/^.+:\d+:\d+: warning: armada\/(Chart|Manifest)\/v1 [^:]+: (data\.[^:]+: )?/);
    }
  });

  test('warnings point at the document and field: a local source, git:// rewritten as https://', async () => {
    const local = await cli(['convert', corpus('armada__examples__podinfo.yaml'), '--to', 'flux-v2']);
    expect(local.stderr).toMatch(/armada__examples__podinfo\.yaml:\d+:\d+: warning: armada\/Chart\/v1 podinfo: data\.source\.type: cannot be expressed for Flux \(helm\.toolkit\.fluxcd\.io\/v2\): a local source \("\/podinfo\/charts\/podinfo"\)/);
    const git = await cli(['convert', corpus('armada__examples__armada-manifest-v1.yaml'), '--to', 'flux-v2']);
    expect(parse(git.stdout).filter((o) => o.kind === 'GitRepository').map((o) => [o.metadata.name, o.spec.url, o.spec.ref])).toEqual([
      ['armada-manifest.openstack-helm-master', 'https://github.com/openstack/openstack-helm', { branch: 'master' }],
    ]);
    expect(git.stderr).toContain('data.source.location: for Flux (helm.toolkit.fluxcd.io/v2): the git:// URL "git://github.com/openstack/openstack-helm"');
  });

  test('options: placement, namespaces, intervals, suspend', async () => {
    const r = await cli(['convert', corpus('armada__examples__simple.yaml'), '--to', 'flux-v2', '--placement', 'chart-namespace', '--interval', '1h30m', '--source-interval', '45s', '--suspend']);
    expect(r.code).toBe(0);
    const objects = parse(r.stdout);
    const hr = objects.filter((o) => o.kind === 'HelmRelease');
    expect(hr.map((o) => [o.metadata.namespace, o.spec.targetNamespace, o.spec.interval, o.spec.suspend])).toEqual([
      ['default', 'default', '1h30m', true],
      ['default', 'default', '1h30m', true],
    ]);
    expect(objects.filter((o) => o.kind === 'GitRepository').map((o) => [o.metadata.namespace, o.spec.interval])).toEqual([
      ['default', '45s'],
      ['default', '45s'],
    ]);
    const ns = parse((await cli(['convert', corpus('armada__examples__simple.yaml'), '--to', 'flux-v2', '--flux-namespace', 'gitops', '--source-namespace', 'sources'])).stdout);
    expect(ns.map((o) => `${o.kind}/${o.metadata.namespace}`)).toEqual(['GitRepository/sources', 'GitRepository/sources', 'HelmRelease/gitops', 'HelmRelease/gitops']);
  });

  test('--placement chart-namespace: the Namespaces first, sorted, one per namespace written into (none for kube-system or flux-system); valid; byte-identical runs', async () => {
    const text = fs.readFileSync(corpus('armada__examples__simple.yaml'), 'utf8');
    // The example's two charts are both in "default", which every cluster has: spread them.
    const docs = text.split(/^---\n/m).filter((d) => d.trim() !== '');
    const charts = docs.filter((d) => /schema: armada\/Chart\/v1/.test(d));
    expect(charts).toHaveLength(2);
    const site = (a: string, b: string) => [...docs.filter((d) => !charts.includes(d)), charts[0].replace(/namespace: default/, `namespace: ${a}`), charts[1].replace(/namespace: default/, `namespace: ${b}`)].map((d) => `---\n${d}`).join('');
    const file = write(tmpdir(), 'spread.yaml', site('zeta', 'alpha'));
    const args = ['convert', file, '--to', 'flux-v2', '--placement', 'chart-namespace', '--source-namespace', 'sources'];
    const r = await cli(args);
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('must exist before')]);
    const objects = parse(r.stdout);
    expect(objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).slice(0, 3)).toEqual(['Namespace//alpha', 'Namespace//sources', 'Namespace//zeta']);
    expect(objects[0]).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'alpha', annotations: { 'kustomize.toolkit.fluxcd.io/prune': 'disabled', 'kustomize.toolkit.fluxcd.io/ssa': 'IfNotPresent' } } });
    for (const o of objects) expect([o.kind, o.metadata.name, fluxCrdErrors(o)]).toEqual([o.kind, o.metadata.name, []]);
    // As kubectl apply -f applies them, in order: each object's namespace exists by then.
    const created = new Set<string>();
    for (const o of objects) {
      if (o.kind === 'Namespace') created.add(o.metadata.name);
      else expect([o.kind, o.metadata.name, created.has(o.metadata.namespace)]).toEqual([o.kind, o.metadata.name, true]);
    }
    expect((await cli(args)).stdout).toBe(r.stdout);
    const system = await cli(['convert', write(tmpdir(), 'system.yaml', site('kube-system', 'flux-system')), '--to', 'flux-v2', '--placement', 'chart-namespace', '--source-namespace', 'sources']);
    expect(parse(system.stdout).filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name)).toEqual(['sources']);
    // The default placement is as it was: no Namespace.
    expect(parse((await cli(['convert', file, '--to', 'flux-v2', '--source-namespace', 'sources'])).stdout).filter((o) => o.kind === 'Namespace')).toEqual([]);
  });

  test('--local-source names the Git repository of a local directory', async () => {
    const r = await cli(['convert', corpus('openstack-helm-infra__tools__deployment__armada__manifests__armada-cluster-ingress.yaml'), '--to', 'flux-v2', '--local-source', '${OSH_INFRA_PATH}=https://opendev.org/openstack/openstack-helm-infra#refs/tags/2024.2.0']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('a local source');
    const objects = parse(r.stdout);
    expect(objects.filter((o) => o.kind === 'GitRepository').map((o) => [o.metadata.name, o.spec.url, o.spec.ref])).toEqual([
      ['armada-manifest.openstack-helm-infra-tags-2024-2-0', 'https://opendev.org/openstack/openstack-helm-infra', { name: 'refs/tags/2024.2.0' }],
    ]);
    expect(objects.filter((o) => o.kind === 'HelmRelease').map((o) => o.spec.chart.spec.chart)).toEqual(['./ingress']);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
  });

  test('bad option values are usage errors (exit 2) and write nothing', async () => {
    const dir = tmpdir();
    for (const [args, message] of [
      [['--interval', '10 minutes'], '--interval must be a duration such as 10m, 1h or 1h30m, greater than 0; received "10 minutes"'],
      [['--interval', '0s'], '--interval must be a duration such as 10m, 1h or 1h30m, greater than 0; received "0s"'],
      [['--source-interval', '99999999999h'], '--source-interval: received "99999999999h"; Flux reads it as a Go duration, which ends at 9223372036 seconds (2562047h, about 292 years)'],
      [['--flux-namespace', 'Flux'], '--flux-namespace: received "Flux"; a namespace must be a DNS-1123 label'],
      [['--placement', 'everywhere'], '--placement must be one of single-namespace, chart-namespace; received "everywhere"'],
      [['--local-source', '/opt/charts'], '--local-source must be DIR=URL or DIR=URL#REF (the Git repository that holds the local directory DIR); received "/opt/charts"'],
      [['--source-secret', 'https://e.org/r'], '--source-secret must be SOURCE=SECRET (a source\'s URL or name, and the Secret with its credentials); received "https://e.org/r"'],
      [['--source-secret', 'https://e.org/r?ref=1=Creds'], '--source-secret "https://e.org/r?ref=1": received Secret "Creds"; a Secret name must be a DNS-1123 subdomain'],
      [['--source-secret', 'x=a', '--source-secret', 'x=b'], '--source-secret "x": given twice, with Secrets "a" and "b"'],
    ] as const) {
      const r = await cli(['convert', corpus('armada__examples__simple.yaml'), '--to', 'flux-v2', '-o', dir, ...args]);
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([2, expect.stringContaining(message)]);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test('--source-secret SOURCE=SECRET: spec.secretRef on the source it names (by URL, at the last =); one that names none is an error', async () => {
    const file = corpus('armada__examples__simple.yaml');
    const r = await cli(['convert', file, '--to', 'flux-v2', '--source-secret', 'https://github.com/gardlt/hello-world-chart=repo-creds']);
    expect([r.code, r.stderr.split('\n').filter((l) => / error: /.test(l))]).toEqual([0, []]);
    const sources = parse(r.stdout).filter((o) => o.kind === 'GitRepository');
    expect(sources.map((o) => [o.spec.url, o.spec.secretRef])).toEqual([
      ['https://github.com/gardlt/hello-world-chart', { name: 'repo-creds' }],
      ['https://github.com/gardlt/hello-world-chart', { name: 'repo-creds' }],
    ]);
    for (const o of sources) expect(fluxCrdErrors(o)).toEqual([]);
    const bad = await cli(['convert', file, '--to', 'flux-v2', '--source-secret', 'https://e.org/nothing=creds']);
    expect([bad.code, bad.stdout, bad.stderr.split('\n').filter((l) => / error: /.test(l))]).toEqual([1, '', [expect.stringContaining('error: armada/Manifest/v1 simple-armada: Flux option sourceSecrets["https://e.org/nothing"]: matches no source of the site;')]]);
  });

  test('-o --single-file writes <manifest>.flux-v2.yaml; an error writes nothing', async () => {
    const dir = tmpdir();
    const ok = await cli(['convert', corpus('armada__examples__simple.yaml'), '--to', 'flux-v2', '-o', dir, '--single-file']);
    expect([ok.code, fs.readdirSync(dir)]).toEqual([0, ['simple-armada.flux-v2.yaml']]);
    const text = fs.readFileSync(corpus('armada__examples__tar_example.yaml'), 'utf8').replace('mariadb-0.1.0.tgz', 'mariadb.tgz');
    const bad = await cli(['convert', write(tmpdir(), 'tar.yaml', text), '--to', 'flux-v2', '-o', dir, '--single-file']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tar\.yaml:\d+:\d+: error: armada\/Chart\/v1 mariadb-tarball: data\.source\.location: received "http:\/\/localhost:8879\/charts\/mariadb\.tgz", a tarball whose file name has no version: a Flux HelmRepository serves a chart by name and version/);
    expect(fs.readdirSync(dir)).toEqual(['simple-armada.flux-v2.yaml']);
  });

  test('a generated 120-chart site (git, tar and local sources): valid objects, order equal to the plan, byte-identical runs', async () => {
    const generated = execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '120'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    // As in the benchmarks: Armada rejects min_ready on pod and job waits, which the generator writes.
    const file = write(tmpdir(), 'site.yaml', generated.replace(/(- type: (?:job|pod)\n)[ ]+min_ready: [^\n]*\n/g, '$1'));
    const a = await cli(['convert', file, '--to', 'flux-v2']);
    expect(a.code).toBe(0);
    const objects = parse(a.stdout);
    expect(objects.filter((o) => o.kind === 'HelmRelease')).toHaveLength(120);
    for (const o of objects) expect(fluxCrdErrors(o)).toEqual([]);
    expect(levelsFromDependsOn(objects)).toEqual(await planSteps(file));
    expect((await cli(['convert', file, '--to', 'flux-v2'])).stdout).toBe(a.stdout);
    expect(path.basename(file)).toBe('site.yaml');
  });
});
