/**
 * `armada-cdk wait` against the real API server while kwok brings pods up: it decides as the
 * readiness gate of the Pulumi target does (the same code, run as a command), for each wait type
 * and for `min_ready`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SchemaVersion } from '../../src/model/spec';
import type { EffectiveWaitResource } from '../../src/model/wait';
import { waitForResources } from '../../src/pulumi/provider/readiness';
import type { KubeConfigLike } from '../../src/pulumi/provider/readiness';
import { createNamespace, endpoint, runTool, stack } from '../stack';
import { create, deployment, job, listPods, pod, poll, unstall } from '../workloads';
import { armadaCdkExecutable } from './armada-cdk';

const ep = () => endpoint();

function cluster(): KubeConfigLike {
  const { server, ca, token } = endpoint();
  return {
    getCurrentCluster: () => ({ server }),
    applyToHTTPSOptions: async (options) => {
      options.ca = ca;
      options.headers = { ...options.headers, Authorization: `Bearer ${token}` };
    },
  };
}

/** A v2 site of one chart `c` in `namespace` waiting on `resource` (Armada's wire form). */
function siteFile(dir: string, namespace: string, resource: Record<string, unknown>): string {
  const file = path.join(dir, `site-${Math.random().toString(36).slice(2, 8)}.yaml`);
  fs.writeFileSync(
    file,
    [
      '---',
      'schema: armada/Chart/v2',
      'metadata: {schema: metadata/Document/v1, name: c}',
      'data:',
      '  release: c',
      `  namespace: ${namespace}`,
      '  source: {type: local, location: /charts, subpath: c}',
      `  wait: {timeout: 60, resources: [${JSON.stringify(resource)}]}`,
      '  test: {enabled: false}',
      '---',
      'schema: armada/ChartGroup/v2',
      'metadata: {schema: metadata/Document/v1, name: g}',
      'data: {chart_group: [c]}',
      '---',
      'schema: armada/Manifest/v2',
      'metadata: {schema: metadata/Document/v1, name: site}',
      'data: {release_prefix: e2e, chart_groups: [g]}',
      '',
    ].join('\n'),
  );
  return file;
}

/** `armada-cdk wait` of that site, with a fresh budget of `seconds`: its exit code and how long it took. */
async function cliWait(file: string, seconds: number): Promise<{ code: number; ms: number; stderr: string }> {
  const dir = path.join(stack().dir, 'work', 'helmfile-wait');
  fs.mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const r = await runTool(armadaCdkExecutable(dir), ['wait', file, '--chart', 'c', '--timeout', String(seconds)], { allowFailure: true, timeoutMs: (seconds + 60) * 1000 });
  return { code: r.code, ms: Date.now() - started, stderr: r.stderr };
}

/** The gate's decision on the same resource and budget: true when ready. */
async function gateWait(namespace: string, resource: EffectiveWaitResource, seconds: number): Promise<boolean> {
  return waitForResources({ namespace, resources: [resource], schemaVersion: SchemaVersion.V2, deadline: Date.now() + seconds * 1000, kubeconfig: cluster(), retryDelayMs: 500 }).then(
    () => true,
    () => false,
  );
}

function effective(type: string, labels: Record<string, string>, minReady: number | `${number}%` = '100%'): EffectiveWaitResource {
  return { type, labels, minReady, required: true, allowAsyncUpdates: false };
}

describe('armada-cdk wait against the API server', () => {
  let ns: string;
  let dir: string;
  beforeEach(async () => {
    ns = await createNamespace('hfwait');
    dir = path.join(stack().dir, 'work', 'helmfile-wait', ns);
    fs.mkdirSync(dir, { recursive: true });
  });

  test('a deployment whose pods come up slowly: exit 0 only once every replica is available, as the gate', async () => {
    const labels = { app: 'slow' };
    await create(ep(), ns, deployment('slow', 3, labels, { readyAfter: '3s' }));
    const [cli, gate] = await Promise.all([cliWait(siteFile(dir, ns, { type: 'deployment', labels }), 60), gateWait(ns, effective('deployment', labels), 60)]);
    expect([cli.code, gate]).toEqual([0, true]);
    expect(cli.ms).toBeGreaterThanOrEqual(2500);
  });

  test.each([
    { type: 'pod', make: (ns: string) => create(ep(), ns, pod('p', { app: 'x' }, { readyAfter: '1s' })) },
    { type: 'job', make: (ns: string) => create(ep(), ns, job('j', { app: 'x' })) },
  ])('$type: ready as the gate decides', async ({ type, make }) => {
    await make(ns);
    const [cli, gate] = await Promise.all([cliWait(siteFile(dir, ns, { type, labels: { app: 'x' } }), 60), gateWait(ns, effective(type, { app: 'x' }), 60)]);
    expect([cli.code, gate]).toEqual([0, true]);
  });

  test('a failed pod: exit 3 naming it, as the gate times out', async () => {
    await create(ep(), ns, pod('broken', { app: 'bad' }, { fail: true }));
    await poll('the pod to fail', () => listPods(ep(), ns, 'app=bad'), (ps) => ps.some((p) => p.status?.phase === 'Failed'));
    const [cli, gate] = await Promise.all([cliWait(siteFile(dir, ns, { type: 'pod', labels: { app: 'bad' } }), 5), gateWait(ns, effective('pod', { app: 'bad' }), 5)]);
    expect([cli.code, gate]).toEqual([3, false]);
    expect(cli.stderr).toContain('broken');
  });

  test.each([
    { minReady: 2, passes: true },
    { minReady: 3, passes: false },
    { minReady: '50%', passes: true },
    { minReady: '75%', passes: false },
  ] as const)('min_ready $minReady with 2 of 4 replicas available: passes=$passes, as the gate', async ({ minReady, passes }) => {
    const labels = { app: 'partial' };
    await create(ep(), ns, deployment('partial', 4, labels, { stall: true }));
    const pods = await poll('4 pods', () => listPods(ep(), ns, 'app=partial'), (ps) => ps.length === 4);
    for (const p of pods.slice(0, 2)) await unstall(ep(), ns, p.metadata.name);
    const [cli, gate] = await Promise.all([cliWait(siteFile(dir, ns, { type: 'deployment', labels, min_ready: minReady }), 15), gateWait(ns, effective('deployment', labels, minReady), 15)]);
    expect([cli.code === 0, gate]).toEqual([passes, passes]);
  });
});
