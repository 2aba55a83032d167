/**
 * An API server that misbehaves on purpose: closes every watch at once, answers every fresh
 * resourceVersion with 410, or fills its error bodies with terminal sequences. The gate must back
 * off (counted in requests) and keep what it prints to one escaped line.
 */
import { SchemaVersion } from '../../../src/model/spec';
import type { EffectiveWaitResource } from '../../../src/model/wait';
import { KubernetesApiError, ReadinessTimeoutError, waitForResources, WaitForResourcesOptions } from '../../../src/pulumi/provider/readiness';
import { Backoff } from '../../../src/pulumi/provider/readiness/backoff';
import { FakeApiServer, RecordedRequest, status } from './fake-api-server';
import { NS, pod } from './fixtures';

const PODS = `/api/v1/namespaces/${NS}/pods`;
const POD_WAIT: EffectiveWaitResource = { type: 'pod', labels: { application: 'keystone' }, minReady: '100%', required: true, allowAsyncUpdates: false };

let api: FakeApiServer;
beforeEach(async () => {
  api = await FakeApiServer.start();
});
afterEach(async () => {
  await api.close();
});

function wait(o: Partial<WaitForResourcesOptions>, messages: string[] = []) {
  return waitForResources({
    kubeconfig: api.kubeConfig(),
    namespace: NS,
    schemaVersion: SchemaVersion.V2,
    resources: [POD_WAIT],
    deadline: Date.now() + 3000,
    retryDelayMs: 50,
    maxRetryDelayMs: 400,
    // The whole pause each time: the gaps below are then known exactly.
    jitter: () => 1,
    progressIntervalMs: 0,
    onProgress: (m) => messages.push(m),
    ...o,
  });
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the wait to fail');
}

/** Milliseconds between one request and the next. */
const gaps = (rs: readonly RecordedRequest[]) => rs.slice(1).map((r, i) => r.at - rs[i].at);

describe('the readiness gate backs off from a server that will not hold a watch', () => {
  it('a watch that ends at once, even after an event, is reconnected after 50, 100, 200, 400, 400... ms', async () => {
    // The repro: every watch sends one event of a pod that is not ready and closes (1,167 watches in 10 s before).
    const starting = pod('keystone-api-0', { ready: false, labels: { application: 'keystone' }, rv: '11' });
    api.script(PODS, {
      lists: [{ items: [starting], resourceVersion: '10' }],
      watches: [{ steps: [{ type: 'MODIFIED', object: starting }], end: 'close' }],
    });
    const error = await rejection(wait({}));
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    const watches = api.watches(PODS);
    // 3 s hold 50 + 100 + 200 + 6 × 400 ms of pauses: at most 10 watches.
    expect(watches.length).toBeGreaterThanOrEqual(5);
    expect(watches.length).toBeLessThanOrEqual(10);
    gaps(watches).forEach((g, i) => expect(g).toBeGreaterThanOrEqual(Math.min(400, 50 * 2 ** i) - 5));
    expect(api.lists(PODS)).toHaveLength(1);
  });

  it('410 for every fresh list: the first is relisted at once, the next after growing pauses', async () => {
    // The repro: each LIST's resourceVersion is answered with an ERROR 410 event (184 requests in 3 s before).
    api.script(PODS, {
      lists: [{ items: [pod('keystone-api-0', { ready: false, labels: { application: 'keystone' } })], resourceVersion: '10' }],
      watches: [{ steps: [{ type: 'ERROR', object: status(410, 'too old resource version: 10 (900)', 'Expired') }], end: 'close' }],
    });
    const error = await rejection(wait({}));
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    const lists = api.lists(PODS);
    // One LIST to start, then one per 410: pauses of 0, 50, 100, 200, 400, 400... ms.
    expect(lists.length).toBeGreaterThanOrEqual(5);
    expect(lists.length).toBeLessThanOrEqual(11);
    expect(api.watches(PODS).length).toBe(lists.length);
    const relists = gaps(lists);
    relists.forEach((g, i) => expect(g).toBeGreaterThanOrEqual(i === 0 ? 0 : Math.min(400, 50 * 2 ** (i - 1)) - 5));
  });

  it('a watch that lasts starts the count again', async () => {
    const starting = pod('keystone-api-0', { ready: false, labels: { application: 'keystone' }, rv: '11' });
    api.script(PODS, {
      lists: [{ items: [starting], resourceVersion: '10' }],
      watches: [
        { steps: [], end: 'close' },
        { steps: [], end: 'close' },
        { steps: [], end: 'close' },
        // Lives past the longest pause: the next quick end pauses from the base again.
        { steps: [{ delayMs: 450 }], end: 'close' },
        { steps: [], end: 'close' },
        { steps: [{ type: 'MODIFIED', object: pod('keystone-api-0', { ready: true, labels: { application: 'keystone' }, rv: '12' }) }], end: 'hang' },
      ],
    });
    await wait({});
    const g = gaps(api.watches(PODS));
    expect(g).toHaveLength(5);
    [50, 100, 200].forEach((want, i) => expect(g[i]).toBeGreaterThanOrEqual(want - 5));
    // 450 ms of stream, then no pause (it lasted); then the quick end pauses 50 ms, not 400.
    expect(g[3]).toBeGreaterThanOrEqual(445);
    expect(g[3]).toBeLessThan(700);
    expect(g[4]).toBeGreaterThanOrEqual(45);
    expect(g[4]).toBeLessThan(300);
  });

  it('Backoff: doubling from the base to the cap, the jitter keeping half to all of each pause', () => {
    const full = new Backoff(100, 1000, () => 1);
    expect([1, 2, 3, 4, 5, 6].map(() => full.next())).toEqual([100, 200, 400, 800, 1000, 1000]);
    const half = new Backoff(100, 1000, () => 0);
    expect([1, 2, 3].map(() => half.next(true))).toEqual([0, 50, 100]);
    half.reset();
    expect(half.next()).toBe(50);
    // A source that returns nonsense still gives a pause within the bounds.
    expect(new Backoff(100, 1000, () => NaN).next()).toBe(100);
    expect(new Backoff(100, 1000, () => 7).next()).toBe(100);
  });
});

describe('what the API server says is escaped before it is printed', () => {
  it('a 403 body with terminal sequences and line breaks', async () => {
    const body = status(403, 'pods is forbidden\x1b[2J\x1b]0;owned\x07\nerror: forged line\u2028', 'Forbidden');
    api.script(PODS, { lists: [{ status: 403, body }] });
    const error = await rejection(wait({}));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.message).toBe(`GET ${PODS}: HTTP 403: pods is forbidden\\x1b[2J\\x1b]0;owned\\x07\\nerror: forged line\\u2028`);
  });

  it('a watch ERROR event message, and a pod status message in progress and timeout lines', async () => {
    const messages: string[] = [];
    const stuck = pod('keystone-api-0', { phase: 'Pending', labels: { application: 'keystone' }, rv: '11' });
    (stuck.status as { conditions: { message?: string }[] }).conditions[0].message = '0/3 nodes\x1b[31m available\r\nforged';
    api.script(PODS, {
      lists: [{ items: [stuck], resourceVersion: '10' }],
      watches: [{ steps: [{ type: 'ERROR', object: status(500, 'etcd\x1b[8m hidden') }], end: 'close' }],
    });
    const error = await rejection(wait({ deadline: Date.now() + 600 }, messages));
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    for (const text of [error.message, ...messages]) expect(text).not.toMatch(/[\x1b\r\u2028]/);
    expect(error.message).toContain('\\x1b[8m hidden');
  });
});
