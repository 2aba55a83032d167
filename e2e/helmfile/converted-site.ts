/**
 * The set-up the Helmfile deployment tests share: a small site over the harness's fixture charts,
 * its database installed beforehand with Helm (as Armada left it), converted with
 * `convert --to helmfile`; helmfile run on it with the harness's Helm 3 and helm-diff; and the
 * Helm records the tests read the order from.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { engineBinaries } from '../build/engines';
import { helmRecord, helmTime } from '../pulumi/helm-records';
import { tarball } from '../pulumi/fixture-site';
import { createNamespace, runTool, stack, ToolResult } from '../stack';
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

/** A converted site, ready for helmfile. */
export interface ConvertedSite {
  readonly namespace: string;
  /** The helmfile `convert -o out` wrote. */
  readonly file: string;
  /** The release names, plan step by plan step. */
  readonly steps: readonly (readonly string[])[];
}

/**
 * Writes the site into a fresh namespace's work folder, installs its database with `helm install`
 * (revision 1, with `dbReplicas` servers: the site has 2) and converts the site with hooks that run
 * this checkout's armada-cdk and the harness's Helm 3.
 */
export async function convertedSite(prefix: string, dbReplicas: number): Promise<ConvertedSite> {
  const s = stack();
  const namespace = await createNamespace(prefix);
  const dir = path.join(s.dir, 'work', `${prefix}-${namespace}`);
  fs.mkdirSync(dir, { recursive: true });
  const site = siteYaml(namespace);
  fs.writeFileSync(path.join(dir, 'site.yaml'), site.yaml);
  const armadaCdk = armadaCdkExecutable(dir);

  // The database as Armada left it: installed by Helm, revision 1.
  const db = tarball('e2e-db') as { url: string };
  await runTool('helm3', ['install', 'hf-db', db.url, '--namespace', namespace, '--set', `pod.replicas.server=${dbReplicas}`, '--wait', '--timeout', '240s']);
  expect((await helmRecord(namespace, 'hf-db'))?.version).toBe(1);

  const converted = await runTool(armadaCdk, ['convert', 'site.yaml', '--to', 'helmfile', '-o', 'out', '--armada-cdk', armadaCdk, '--helm', s.binaries.helm3], { cwd: dir });
  expect(converted.stderr).toContain('wrote out/site.helmfile.yaml');
  return { namespace, file: path.join(dir, 'out', 'site.helmfile.yaml'), steps: site.steps };
}

/** `helmfile COMMAND` of the site with the harness's Helm 3 and the helm-diff plugin (debug log: the hooks' stderr is in it). */
export function helmfile(site: ConvertedSite, command: 'sync' | 'apply'): Promise<ToolResult> {
  const bin = engineBinaries('helmfile', 'helmDiff');
  return runTool(bin.helmfile, ['--file', site.file, '--helm-binary', stack().binaries.helm3, '--log-level', 'debug', command], {
    cwd: path.dirname(site.file),
    env: { HELM_PLUGINS: bin.helmPlugins },
    timeoutMs: 900_000,
    allowFailure: true,
  });
}

/** What a test reads of a release's record. */
export interface ReleaseState {
  readonly version: number;
  readonly status: string;
  /** `info.last_deployed`, in nanoseconds. */
  readonly deployed: bigint;
}

/** The records of the site's releases, by name. */
export async function releaseStates(site: ConvertedSite): Promise<Map<string, ReleaseState>> {
  const out = new Map<string, ReleaseState>();
  for (const name of site.steps.flat()) {
    const r = await helmRecord(site.namespace, name);
    if (r === undefined) throw new Error(`release ${site.namespace}/${name}: Helm has no record of it`);
    out.set(name, { version: r.version, status: r.info.status, deployed: helmTime(r.info.last_deployed) });
  }
  return out;
}

/** Each step deployed after every release of the step before, the first after `started`. */
export function expectPlanOrder(site: ConvertedSite, states: ReadonlyMap<string, ReleaseState>, started: number): void {
  const at = (name: string) => states.get(name)!.deployed;
  for (let k = 1; k < site.steps.length; k++) {
    for (const after of site.steps[k]) for (const before of site.steps[k - 1]) expect([after, before, at(after) > at(before)]).toEqual([after, before, true]);
  }
  for (const first of site.steps[0]) expect(helmTime(new Date(started).toISOString())).toBeLessThan(at(first));
}
