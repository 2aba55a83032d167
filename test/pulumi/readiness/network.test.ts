import * as net from 'node:net';
import { SchemaVersion } from '../../../src/model/spec';
import type { EffectiveWaitResource } from '../../../src/model/wait';
import {
  KubeConfigLike,
  ReadinessTimeoutError,
  ResponseTooLargeError,
  waitForResources,
  WaitForResourcesOptions,
} from '../../../src/pulumi/provider/readiness';
import { retryAfter } from '../../../src/pulumi/provider/readiness/kube-client';
import { clampDelay, MAX_TIMER_MS, setLongTimeout } from '../../../src/pulumi/provider/readiness/timers';
import { FakeApiServer, status } from './fake-api-server';
import { NS, pod } from './fixtures';
import { SilentProxy } from './silent-proxy';

const PODS = `/api/v1/namespaces/${NS}/pods`;
const NOVA: EffectiveWaitResource = { type: 'pod', labels: { application: 'nova' }, minReady: '100%', required: true, allowAsyncUpdates: false };

let api: FakeApiServer;
beforeEach(async () => {
  api = await FakeApiServer.start();
});
afterEach(async () => {
  await api.close();
});

function wait(o: Partial<WaitForResourcesOptions> = {}, messages: string[] = []) {
  return waitForResources({
    kubeconfig: api.kubeConfig(),
    namespace: NS,
    schemaVersion: SchemaVersion.V2,
    resources: [NOVA],
    deadline: Date.now() + 4000,
    retryDelayMs: 50,
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

const notReady = pod('nova-api', { ready: false, rv: '5' });
const ready = pod('nova-api', { rv: '9' });

describe('a proxy that goes silent mid-watch', () => {
  let proxy: SilentProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });

  it('abandons the silent stream after the idle limit, relists and sees readiness', async () => {
    api.script(PODS, {
      lists: [
        { items: [notReady], resourceVersion: '5' },
        { items: [ready], resourceVersion: '9' },
      ],
      watches: [{ steps: [{ type: 'MODIFIED', object: pod('nova-api', { ready: false, rv: '6' }) }, { delayMs: 400 }, { type: 'MODIFIED', object: ready }], end: 'hang' }],
    });
    proxy = await SilentProxy.start(api.url, { silenceAfterMs: 150, silentWatches: 1 });
    const started = Date.now();
    const results = await wait({ kubeconfig: proxy.kubeConfig(), idleTimeoutMs: 800, deadline: Date.now() + 20_000 });
    const took = Date.now() - started;

    expect(results).toEqual([{ type: 'pod', labelSelector: 'application=nova', outcome: 'ready', count: 1, passes: 1 }]);
    // The ready event was sent into the silent connection and never arrived.
    expect(proxy.silenced).toBe(1);
    expect(proxy.swallowedBytes).toBeGreaterThan(0);
    expect(api.lists(PODS)).toHaveLength(2);
    // Within the idle limit of the silence (plus the retry pause), far from the 20 s deadline.
    expect(took).toBeGreaterThanOrEqual(800);
    expect(took).toBeLessThan(3000);
  });

  it('reports the silence as the last error when the deadline comes first', async () => {
    api.script(PODS, { lists: [{ items: [notReady], resourceVersion: '5' }], watches: [{ steps: [], end: 'hang' }] });
    proxy = await SilentProxy.start(api.url, { silenceAfterMs: 0, silentWatches: 100 });
    const error = await rejection(wait({ kubeconfig: proxy.kubeConfig(), idleTimeoutMs: 300, deadline: Date.now() + 1200 }));
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    expect(error.message.split('\n')).toEqual([
      "Timed out waiting for pods (namespace=openstack, labels=(application=nova)). These pods were not ready=['nova-api']",
      expect.stringMatching(/^ {2}pod nova-api: /),
      expect.stringMatching(
        /^Last error from the API server: GET \/api\/v1\/namespaces\/openstack\/pods: nothing received for 0\.3 s \(the connection is silent; a proxy may have stopped forwarding it\)$/,
      ),
    ]);
  });
});

describe('watch streams are capped', () => {
  it('replaces a stream after maxWatchMs, resuming from the same resourceVersion', async () => {
    api.script(PODS, {
      lists: [{ items: [notReady], resourceVersion: '5' }],
      watches: [{ steps: [], end: 'hang' }, { steps: [], end: 'hang' }, { steps: [{ type: 'MODIFIED', object: ready }], end: 'hang' }],
    });
    const results = await wait({ maxWatchMs: 200 });
    expect(results[0].outcome).toBe('ready');
    const watches = api.watches(PODS);
    expect(watches).toHaveLength(3);
    expect(watches.map((w) => w.query.get('resourceVersion'))).toEqual(['5', '5', '5']);
    expect(watches.map((w) => w.query.get('timeoutSeconds'))).toEqual(['1', '1', '1']);
    expect(api.lists(PODS)).toHaveLength(1);
  });

  it('asks the server to end a stream after at most maxWatchMs, not after the whole remaining budget', async () => {
    api.script(PODS, { lists: [{ items: [notReady], resourceVersion: '5' }], watches: [{ steps: [{ type: 'MODIFIED', object: ready }], end: 'hang' }] });
    await wait({ deadline: Date.now() + 3_600_000 });
    expect(api.watches(PODS)[0].query.get('timeoutSeconds')).toBe('300');
  });

  it('turns on TCP keep-alive for its connections', async () => {
    const spy = jest.spyOn(net.Socket.prototype, 'setKeepAlive');
    try {
      api.script(PODS, { lists: [{ items: [ready], resourceVersion: '9' }] });
      await wait();
      expect(spy).toHaveBeenCalledWith(true, 30_000);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a deadline beyond what a Node timer holds', () => {
  it('waits normally with a deadline 30 days away', async () => {
    api.script(PODS, {
      lists: [{ items: [notReady], resourceVersion: '5' }],
      watches: [{ steps: [{ delayMs: 100 }, { type: 'MODIFIED', object: ready }], end: 'hang' }],
    });
    const messages: string[] = [];
    const results = await wait({ deadline: Date.now() + 30 * 24 * 3600 * 1000 }, messages);
    expect(results[0]).toMatchObject({ outcome: 'ready', count: 1 });
    expect(messages[0]).toBe('Waiting for pods (namespace=openstack, labels=application=nova, required=true) for 2592000s');
  });

  it('re-arms a long timer in steps instead of firing at once', () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const fired = jest.fn();
      setLongTimeout(fired, 30 * 24 * 3600 * 1000);
      jest.advanceTimersByTime(MAX_TIMER_MS);
      expect(fired).not.toHaveBeenCalled();
      jest.advanceTimersByTime(30 * 24 * 3600 * 1000 - MAX_TIMER_MS - 1);
      expect(fired).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(fired).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('clamps delays to what Node accepts', () => {
    expect([clampDelay(-5), clampDelay(Number.NaN), clampDelay(10), clampDelay(2 ** 40)]).toEqual([0, 0, 10, 2 ** 31 - 1]);
  });
});

describe('transient authentication errors', () => {
  it('retries a LIST answered with 401, applying the (refreshed) credentials again', async () => {
    api.script(PODS, { lists: [{ status: 401, body: status(401, 'Unauthorized', 'Unauthorized') }, { items: [ready], resourceVersion: '9' }] });
    let calls = 0;
    const kc: KubeConfigLike = {
      getCurrentCluster: () => ({ server: api.url }),
      applyToHTTPSOptions: async (opts) => {
        calls++;
        opts.headers = { ...opts.headers, Authorization: `Bearer token-${calls}` };
      },
    };
    const results = await wait({ kubeconfig: kc });
    expect(results[0].outcome).toBe('ready');
    expect(api.lists(PODS).map((r) => r.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  it('retries a watch answered with 401', async () => {
    api.script(PODS, {
      lists: [{ items: [notReady], resourceVersion: '5' }],
      watches: [{ status: 401 }, { steps: [{ type: 'MODIFIED', object: ready }], end: 'hang' }],
    });
    const results = await wait();
    expect(results[0].outcome).toBe('ready');
    expect(api.watches(PODS)).toHaveLength(2);
  });

  it('retries when the credentials cannot be applied once (an exec plugin failing), without quoting what it said', async () => {
    api.script(PODS, { lists: [{ items: [ready], resourceVersion: '9' }] });
    let calls = 0;
    const kc: KubeConfigLike = {
      getCurrentCluster: () => ({ server: api.url }),
      applyToHTTPSOptions: async (opts) => {
        if (++calls === 1) throw new Error('exec plugin said: token=s3cr3t-value');
        opts.headers = { ...opts.headers, Authorization: 'Bearer fresh' };
      },
    };
    const results = await wait({ kubeconfig: kc });
    expect(results[0].outcome).toBe('ready');
    expect(calls).toBe(2);
  });

  it('times out, not fails at once, on credentials that keep failing, and keeps the secret out of the message', async () => {
    const kc: KubeConfigLike = {
      getCurrentCluster: () => ({ server: api.url }),
      applyToHTTPSOptions: async () => {
        throw new Error('exec plugin said: token=s3cr3t-value');
      },
    };
    const error = await rejection(wait({ kubeconfig: kc, deadline: Date.now() + 400 }));
    expect(error.message).toBe(
      "Timed out waiting for pods (namespace=openstack, labels=(application=nova)). Could not list them: The kubeconfig's credentials could not be applied (Error)",
    );
    expect(error.message).not.toContain('s3cr3t');
  });

  it('still fails at once on 403: that is not an expired token', async () => {
    api.script(PODS, { lists: [{ status: 403, body: status(403, 'pods is forbidden', 'Forbidden') }] });
    const error = await rejection(wait());
    expect(error.message).toBe(`GET ${PODS}: HTTP 403: pods is forbidden`);
    expect(api.lists(PODS)).toHaveLength(1);
  });
});

describe('watch ERROR events without a code', () => {
  it('retries with a fresh LIST instead of failing the wait', async () => {
    api.script(PODS, {
      lists: [
        { items: [notReady], resourceVersion: '5' },
        { items: [ready], resourceVersion: '9' },
      ],
      watches: [{ steps: [{ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'unable to decode an event from the watch stream' } }], end: 'hang' }],
    });
    const results = await wait();
    expect(results[0]).toMatchObject({ outcome: 'ready', count: 1 });
    expect(api.lists(PODS)).toHaveLength(2);
    expect(api.watches(PODS)).toHaveLength(1);
  });

  it('names the event as the last error when it repeats until the deadline', async () => {
    api.script(PODS, {
      lists: [{ items: [notReady], resourceVersion: '5' }],
      watches: [{ steps: [{ type: 'ERROR', object: { kind: 'Status', message: 'stream reset' } }], end: 'hang' }],
    });
    const error = await rejection(wait({ deadline: Date.now() + 600 }));
    expect(error.message.split('\n').pop()).toBe('Last error from the API server: Got error event for pods (namespace=openstack): stream reset');
  });
});

describe('Retry-After', () => {
  it('waits as long as a 429 asks before listing again', async () => {
    api.script(PODS, { lists: [{ status: 429, headers: { 'Retry-After': '1' } }, { items: [ready], resourceVersion: '9' }] });
    const results = await wait();
    expect(results[0].outcome).toBe('ready');
    const [first, second] = api.lists(PODS);
    expect(second.at - first.at).toBeGreaterThanOrEqual(990);
    expect(second.at - first.at).toBeLessThan(2000);
  });

  it('waits as long as a 429 on a watch asks', async () => {
    api.script(PODS, {
      lists: [{ items: [notReady], resourceVersion: '5' }],
      watches: [{ status: 429, headers: { 'Retry-After': '1' } }, { steps: [{ type: 'MODIFIED', object: ready }], end: 'hang' }],
    });
    await wait();
    const [first, second] = api.watches(PODS);
    expect(second.at - first.at).toBeGreaterThanOrEqual(990);
  });

  it('never sleeps past the deadline for a long Retry-After', async () => {
    api.script(PODS, { lists: [{ status: 429, headers: { 'Retry-After': '3600' } }] });
    const started = Date.now();
    const error = await rejection(wait({ deadline: Date.now() + 500 }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(error.message).toBe(
      `Timed out waiting for pods (namespace=openstack, labels=(application=nova)). Could not list them: GET ${PODS}: HTTP 429: fake failure 429`,
    );
  });

  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-12-03T12:00:00Z');
    expect(retryAfter('120', now)).toBe(120_000);
    expect(retryAfter('Thu, 03 Dec 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfter('Thu, 03 Dec 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfter('soon', now)).toBeUndefined();
    expect(retryAfter(undefined, now)).toBeUndefined();
  });
});

describe('size limits', () => {
  it('fails a LIST answer larger than maxListBytes', async () => {
    api.script(PODS, { lists: [{ items: Array.from({ length: 50 }, (_, i) => pod(`nova-${i}`)), resourceVersion: '9' }] });
    const error = await rejection(wait({ maxListBytes: 2000 }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toBe(`The LIST answer of ${PODS} is larger than 2000 bytes (maxListBytes); narrow the wait's labels or raise the limit`);
    expect(api.lists(PODS)).toHaveLength(1);
  });

  it('fails a watch event larger than maxWatchEventBytes', async () => {
    const big = { ...pod('nova-api', { rv: '9' }), metadata: { name: 'nova-api', resourceVersion: '9', annotations: { blob: 'x'.repeat(5000) } } };
    api.script(PODS, { lists: [{ items: [notReady], resourceVersion: '5' }], watches: [{ steps: [{ type: 'MODIFIED', object: big }], end: 'hang' }] });
    const error = await rejection(wait({ maxWatchEventBytes: 4096 }));
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toBe(`A watch event of ${PODS} is larger than 4096 bytes (maxWatchEventBytes)`);
  });

  it('refuses limits that are not positive numbers', async () => {
    await expect(wait({ idleTimeoutMs: 0 })).rejects.toThrow('waitForResources: `idleTimeoutMs` must be a positive number, got 0.');
    await expect(wait({ maxWatchMs: Number.NaN })).rejects.toThrow('waitForResources: `maxWatchMs` must be a positive number, got NaN.');
  });
});
