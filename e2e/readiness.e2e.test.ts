/**
 * The readiness gate (Armada's `wait` after a release, `waitForResources`) against the real watch
 * API: kwok brings pods up slowly, fails one, restarts one; `min_ready` holds the gate back until
 * met; a watch broken by an API server restart resumes.
 */
import { SchemaVersion } from '../src/model/spec';
import type { EffectiveWaitResource } from '../src/model/wait';
import { ReadinessTimeoutError, waitForResources } from '../src/pulumi/provider/readiness';
import type { WaitForResourcesOptions } from '../src/pulumi/provider/readiness';
import { createNamespace, endpoint, kubeOk, restartApiServer, stack } from './stack';
import { create, deployment, isReady, listPods, pod, poll, unstall } from './workloads';

const ep = () => endpoint();

function wait(type: string, labels: Record<string, string>, more: Partial<EffectiveWaitResource> = {}): EffectiveWaitResource {
  return { type, labels, minReady: '100%', required: true, allowAsyncUpdates: false, ...more };
}

function gate(namespace: string, resources: EffectiveWaitResource[], timeoutMs: number, more: Partial<WaitForResourcesOptions> = {}) {
  return waitForResources({
    namespace,
    resources,
    schemaVersion: SchemaVersion.V2,
    deadline: Date.now() + timeoutMs,
    kubeconfig: stack().kubeconfig,
    retryDelayMs: 500,
    ...more,
  });
}

/** When a promise settled, for asserting on the order of events. */
async function settledAt<T>(p: Promise<T>): Promise<{ at: number; value?: T; error?: unknown }> {
  try {
    const value = await p;
    return { at: Date.now(), value };
  } catch (error) {
    return { at: Date.now(), error };
  }
}

describe('readiness gate against the API server', () => {
  let ns: string;
  beforeEach(async () => {
    ns = await createNamespace('gate');
  });

  test('a deployment whose pods come up slowly is ready only once every replica is available', async () => {
    const labels = { app: 'slow' };
    await create(ep(), ns, deployment('slow', 3, labels, { readyAfter: '3s' }));
    const started = Date.now();
    const results = await gate(ns, [wait('deployment', labels)], 60_000);
    const tookMs = Date.now() - started;

    expect(results).toEqual([{ type: 'deployment', labelSelector: 'app=slow', outcome: 'ready', count: 1, passes: 1 }]);
    // kwok made the pods Ready 3 s after they were created: the gate cannot have passed earlier.
    expect(tookMs).toBeGreaterThanOrEqual(2500);
    const d = await kubeOk(ep(), 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/slow`);
    expect(d.status.availableReplicas).toBe(3);
  });

  test('a failed pod keeps a pod wait from passing, and the timeout names it with its last state', async () => {
    const labels = { app: 'pods' };
    await create(ep(), ns, pod('good', labels));
    await create(ep(), ns, pod('broken', labels, { fail: true }));
    await poll('the broken pod to fail', () => listPods(ep(), ns, 'app=pods'), (ps) => ps.some((p) => p.status?.phase === 'Failed'));

    const error = await gate(ns, [wait('pod', labels)], 5_000).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    const timeout = error as ReadinessTimeoutError;
    expect(timeout.resourceType).toBe('pod');
    expect(timeout.namespace).toBe(ns);
    expect(timeout.labelSelector).toBe('app=pods');
    expect(timeout.notReady).toEqual([{ name: 'broken', message: 'Waiting for pod broken to be ready...' }]);
  });

  test('a pod that restarts is waited for until it is ready again', async () => {
    const labels = { app: 'restarting' };
    await create(ep(), ns, pod('flappy', labels, { restart: true, restartAfter: '500ms', recoverAfter: '4s' }));
    // Catch it in its restart: not ready, with one restart behind it.
    const restarting = await poll(
      'the pod to restart',
      () => kubeOk(ep(), 'GET', `/api/v1/namespaces/${ns}/pods/flappy`),
      (p) => p.status?.containerStatuses?.[0]?.restartCount === 1 && !isReady(p),
    );
    expect(restarting.status.containerStatuses[0].state.waiting.reason).toBe('CrashLoopBackOff');

    const result = await settledAt(gate(ns, [wait('pod', labels)], 60_000));
    const after = await kubeOk(ep(), 'GET', `/api/v1/namespaces/${ns}/pods/flappy`);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual([{ type: 'pod', labelSelector: 'app=restarting', outcome: 'ready', count: 1, passes: 1 }]);
    // The gate passed on the recovered pod, not on the one that was ready before the restart.
    expect(isReady(after)).toBe(true);
    expect(after.status.containerStatuses[0].restartCount).toBe(1);
  });

  test.each([
    { minReady: 2, started: 2, passes: true },
    { minReady: 3, started: 2, passes: false },
    { minReady: '50%', started: 2, passes: true },
    { minReady: '75%', started: 2, passes: false },
  ] as const)('min_ready $minReady with $started of 4 replicas available: passes=$passes', async ({ minReady, started, passes }) => {
    const labels = { app: 'partial' };
    await create(ep(), ns, deployment('partial', 4, labels, { stall: true }));
    const pods = await poll('4 pods', () => listPods(ep(), ns, 'app=partial'), (ps) => ps.length === 4);
    for (const p of pods.slice(0, started)) await unstall(ep(), ns, p.metadata.name);
    await poll('the started pods to be available', () => kubeOk(ep(), 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/partial`), (d) => d.status?.availableReplicas === started);

    const outcome = await settledAt(gate(ns, [wait('deployment', labels, { minReady })], 4_000));
    if (passes) {
      expect(outcome.error).toBeUndefined();
      expect(outcome.value?.[0]?.outcome).toBe('ready');
    } else {
      expect(outcome.error).toBeInstanceOf(ReadinessTimeoutError);
      expect((outcome.error as ReadinessTimeoutError).notReady).toEqual([
        {
          name: 'partial',
          message: `Waiting for deployment partial rollout to finish: ${started} of 4 updated replicas are available, with min_ready=${minReady}`,
        },
      ]);
    }
  });

  test('min_ready holds the gate back until the count is met, then lets it through', async () => {
    const labels = { app: 'held' };
    await create(ep(), ns, deployment('held', 4, labels, { stall: true, readyAfter: '1s' }));
    const pods = await poll('4 pods', () => listPods(ep(), ns, 'app=held'), (ps) => ps.length === 4);
    await unstall(ep(), ns, pods[0].metadata.name);
    await unstall(ep(), ns, pods[1].metadata.name);

    const pending = settledAt(gate(ns, [wait('deployment', labels, { minReady: 3 })], 60_000));
    await new Promise((r) => setTimeout(r, 3_000));
    const released = Date.now();
    await unstall(ep(), ns, pods[2].metadata.name);
    const outcome = await pending;

    expect(outcome.error).toBeUndefined();
    expect(outcome.value?.[0]?.outcome).toBe('ready');
    // Not before the third pod was let start (and kwok made it Ready a second later).
    expect(outcome.at).toBeGreaterThanOrEqual(released + 800);
  });

  test('a watch broken by an API server restart resumes and sees the rollout finish', async () => {
    const labels = { app: 'survivor' };
    await create(ep(), ns, deployment('survivor', 2, labels, { stall: true }));
    const pods = await poll('2 pods', () => listPods(ep(), ns, 'app=survivor'), (ps) => ps.length === 2);

    const progress: string[] = [];
    const pending = settledAt(gate(ns, [wait('deployment', labels)], 120_000, { onProgress: (m) => progress.push(m), progressIntervalMs: 1 }));
    await new Promise((r) => setTimeout(r, 1_500));
    await restartApiServer(2_000);
    const restarted = Date.now();
    for (const p of pods) await unstall(ep(), ns, p.metadata.name);
    const outcome = await pending;

    expect(outcome.error).toBeUndefined();
    expect(outcome.value).toEqual([{ type: 'deployment', labelSelector: 'app=survivor', outcome: 'ready', count: 1, passes: 1 }]);
    expect(outcome.at).toBeGreaterThan(restarted);
  });
});
