/**
 * `convert --to helmfile` of a small site over the harness's fixture charts, deployed by the real
 * Helmfile with the harness's Helm 3: the releases are synced in plan order (each step after the
 * step before is ready: the postsync hooks run `armada-cdk wait` of this checkout), the API's tests
 * run, and a release installed beforehand is taken over (upgraded, not installed again).
 *
 * `helmfile sync`, not `apply`: apply diffs first, with the helm-diff plugin, which the harness
 * does not build; and sync is what `armada apply` does (every chart deployed and waited for).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { engineBinaries } from '../build/engines';
import { helmRecord, helmTime } from '../pulumi/helm-records';
import { tarball } from '../pulumi/fixture-site';
import { createNamespace, runTool, stack } from '../stack';
import { armadaCdkExecutable } from './armada-cdk';

/** The site: a sequenced database group, the API (with its tests), two node agents at once. */
function siteYaml(namespace: string): { yaml: string; steps: string[][] } {
  const chart = (id: string, fixture: string, wait: string, extra: string[] = []) => {
    const src = tarball(fixture) as { url: string; subpath: string };
    return [
      '---',
      'schema: armada/Chart/v1',
      `metadata: {schema: metadata/Document/v1, name: ${id}}`,
      'data:',
      `  chart_name: ${id}`,
      `  release: ${id}`,
      `  namespace: ${namespace}`,
      `  source: {type: tar, location: "${src.url}", subpath: ${src.subpath}}`,
      `  wait: ${wait}`,
      ...extra,
    ].join('\n');
  };
  const labels = (id: string) => `{release_group: hf-${id}}`;
  const docs = [
    chart('db', 'e2e-db', `{timeout: 240, labels: ${labels('db')}, resources: [{type: statefulset, min_ready: "50%"}]}`, ['  values: {pod: {replicas: {server: 2}}}', '  test: {enabled: false}']),
    chart('api', 'e2e-api', `{timeout: 240, labels: ${labels('api')}, resources: [{type: deployment}], native: {enabled: false}}`, ['  values: {manifests: {job_db_init: false, job_db_sync: false}}', '  test: {enabled: true, timeout: 120}']),
    chart('agent-a', 'e2e-agent', `{timeout: 240, labels: ${labels('agent-a')}, resources: [{type: daemonset, min_ready: "90%"}]}`, ['  test: {enabled: false}']),
    chart('agent-b', 'e2e-agent', `{timeout: 240, labels: ${labels('agent-b')}, resources: [{type: daemonset, min_ready: "90%"}]}`, ['  test: {enabled: false}']),
    ['---', 'schema: armada/ChartGroup/v1', 'metadata: {schema: metadata/Document/v1, name: infra}', 'data: {description: infra, sequenced: true, chart_group: [db]}'].join('\n'),
    ['---', 'schema: armada/ChartGroup/v1', 'metadata: {schema: metadata/Document/v1, name: api}', 'data: {description: api, sequenced: true, chart_group: [api]}'].join('\n'),
    ['---', 'schema: armada/ChartGroup/v1', 'metadata: {schema: metadata/Document/v1, name: compute}', 'data: {description: compute, sequenced: false, chart_group: [agent-a, agent-b]}'].join('\n'),
    ['---', 'schema: armada/Manifest/v1', 'metadata: {schema: metadata/Document/v1, name: site}', 'data: {release_prefix: hf, chart_groups: [infra, api, compute]}'].join('\n'),
  ];
  return { yaml: `${docs.join('\n')}\n`, steps: [['hf-db'], ['hf-api'], ['hf-agent-a', 'hf-agent-b']] };
}

describe('helmfile sync of convert --to helmfile', () => {
  test('deploys in plan order, waiting and testing in the hooks, taking over a release installed beforehand', async () => {
    const s = stack();
    const namespace = await createNamespace('helmfile');
    const dir = path.join(s.dir, 'work', `helmfile-${namespace}`);
    fs.mkdirSync(dir, { recursive: true });
    const site = siteYaml(namespace);
    fs.writeFileSync(path.join(dir, 'site.yaml'), site.yaml);
    const armadaCdk = armadaCdkExecutable(dir);

    // The database as Armada left it: installed by Helm, revision 1.
    const db = tarball('e2e-db') as { url: string };
    await runTool('helm3', ['install', 'hf-db', db.url, '--namespace', namespace, '--set', 'pod.replicas.server=2', '--wait', '--timeout', '240s']);
    expect((await helmRecord(namespace, 'hf-db'))?.version).toBe(1);

    const converted = await runTool(armadaCdk, ['convert', 'site.yaml', '--to', 'helmfile', '-o', 'out', '--armada-cdk', armadaCdk, '--helm', s.binaries.helm3], { cwd: dir });
    expect(converted.stderr).toContain('wrote out/site.helmfile.yaml');
    const file = path.join(dir, 'out', 'site.helmfile.yaml');
    const started = Date.now();
    const sync = await runTool(engineBinaries('helmfile').helmfile, ['--file', file, '--helm-binary', s.binaries.helm3, '--log-level', 'debug', 'sync'], { cwd: path.dirname(file), timeoutMs: 900_000, allowFailure: true });
    expect([sync.code, sync.code === 0 ? '' : `${sync.stdout}\n${sync.stderr}`]).toEqual([0, '']);

    const records = new Map<string, { version: number; deployed: bigint; status: string }>();
    for (const name of site.steps.flat()) {
      const r = await helmRecord(namespace, name);
      records.set(name, { version: r!.version, deployed: helmTime(r!.info.last_deployed), status: r!.info.status });
    }
    // Taken over: upgraded from Armada's revision, not installed again; every release deployed.
    expect(records.get('hf-db')!.version).toBe(2);
    expect([...records.values()].map((r) => r.status)).toEqual(['deployed', 'deployed', 'deployed', 'deployed']);
    // Each step deployed after every release of the step before.
    for (let k = 1; k < site.steps.length; k++) {
      for (const after of site.steps[k]) for (const before of site.steps[k - 1]) expect([after, before, records.get(after)!.deployed > records.get(before)!.deployed]).toEqual([after, before, true]);
    }
    expect(helmTime(new Date(started).toISOString())).toBeLessThan(records.get('hf-db')!.deployed);
    // The hooks ran the waits and the API's tests (their stderr is in helmfile's debug log).
    expect(sync.stdout + sync.stderr).toContain(`${namespace}/hf-api: tests passed`);
    expect(sync.stdout + sync.stderr).toContain(`${namespace}/hf-agent-b: ready`);
  });
});
