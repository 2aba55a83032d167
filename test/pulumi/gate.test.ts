import { SchemaVersion } from '../../src';
import type { EffectiveWaitResource } from '../../src/model/wait';
import { gzipSync } from 'node:zlib';
import { decodeReleaseRecord, encodeReleaseRecord, MAX_RELEASE_RECORD_BYTES, readDeployStart, ReleaseRecordTooLargeError, releaseRecordName } from '../../src/pulumi/provider/helm-record';
import { readinessGateProvider } from '../../src/pulumi/resources/readiness-gate';
import type { TestTarget } from '../../src/pulumi/provider/helm-test-run';
import { checkReadiness, diffGate, GateInputs, GateState, GateTarget, gateDeadline, gateDue, runGate, testsDue, UntestedGate } from '../../src/pulumi/provider/readiness-gate-run';
import { KubeconfigRefusedError, ReadinessTimeoutError, WaitForResourcesOptions } from '../../src/pulumi/provider/readiness';
import { FakeKube } from './fake-kube';

const pods: EffectiveWaitResource = { type: 'pod', labels: { app: 'db' }, minReady: '100%', required: true, allowAsyncUpdates: false };
const target = (o: Partial<GateTarget> = {}): GateTarget => ({
  release: 'p-db',
  namespace: 'ns',
  resources: [pods],
  schemaVersion: SchemaVersion.V1,
  timeoutSeconds: 600,
  sharesDeadline: true,
  ...o,
});
const NOW = Date.parse('2026-01-01T12:00:00Z');
const kubeConfig = { getCurrentCluster: () => ({ server: 'http://unused' }), applyToHTTPSOptions: async () => undefined };

const tests = (o: Partial<TestTarget> = {}): TestTarget => ({ release: 'p-db', namespace: 'ns', timeoutSeconds: 300, waitLabels: { app: 'db' }, helmCommand: 'helm', ...o });

function harness(o: { deployStart?: number | Error | undefined; wait?: (opts: WaitForResourcesOptions) => Promise<any>; testFailure?: Error | undefined } = {}) {
  const logs: string[] = [];
  /** What ran, in order: `wait` or `test <revision>`. */
  const ran: string[] = [];
  const waits: WaitForResourcesOptions[] = [];
  const reads: unknown[][] = [];
  const deps = {
    loadCluster: jest.fn(async () => kubeConfig),
    waitForResources: async (opts: WaitForResourcesOptions) => {
      waits.push(opts);
      ran.push('wait');
      opts.onProgress?.('Waiting for pods (namespace=ns, labels=app=db, required=true) for 600s');
      return o.wait ? o.wait(opts) : [{ type: 'pod', labelSelector: 'app=db', outcome: 'ready', count: 2, passes: 1 }];
    },
    readDeployStart: async (...args: unknown[]) => {
      reads.push(args);
      if (o.deployStart instanceof Error) throw o.deployStart;
      return o.deployStart ?? NOW - 100_000;
    },
    log: { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`) },
    now: () => NOW,
    runHelmTest: async (inputs: { target: TestTarget; release?: { revision?: number | undefined } | undefined; cluster?: unknown }) => {
      ran.push(`test ${inputs.release?.revision} ${JSON.stringify(inputs.target)} ${JSON.stringify(inputs.cluster)}`);
      if (o.testFailure) throw o.testFailure;
      return { target: inputs.target, passedAt: new Date(NOW).toISOString() };
    },
  };
  return { deps, logs, waits, reads, ran };
}

describe('gateDeadline', () => {
  const base = { now: NOW, timeoutSeconds: 600 };
  test('shares the release deadline: deploy start + wait.timeout', () => {
    expect(gateDeadline({ ...base, sharesDeadline: true, deployStart: NOW - 100_000 })).toBe(NOW + 500_000);
  });
  test('an install that just used the whole budget keeps its passed deadline: the wait fails at once, as in Armada', () => {
    expect(gateDeadline({ ...base, sharesDeadline: true, deployStart: NOW - 600_000 })).toBe(NOW);
  });
  test('a release an earlier run deployed is a re-check: the whole budget from now', () => {
    expect(gateDeadline({ ...base, sharesDeadline: true, deployStart: NOW - 3_600_000 })).toBe(NOW + 600_000);
  });
  test('a repeat step, or no known start: the whole budget from now', () => {
    expect(gateDeadline({ ...base, sharesDeadline: false, deployStart: NOW - 100_000 })).toBe(NOW + 600_000);
    expect(gateDeadline({ ...base, sharesDeadline: true })).toBe(NOW + 600_000);
  });
});

describe('checkReadiness', () => {
  test('waits with the shared deadline read from the Helm release record, reporting progress to the log', async () => {
    const h = harness();
    const state = await checkReadiness({ target: target(), release: { revision: 3, status: 'deployed' }, cluster: { kubeconfig: 'kc', context: 'ctx' } }, h.deps);
    expect(h.deps.loadCluster).toHaveBeenCalledWith({ kubeconfig: 'kc', context: 'ctx' });
    expect(h.reads).toEqual([[kubeConfig, 'ns', 'p-db', 3]]);
    expect(h.waits.map((w) => [w.namespace, w.resources, w.schemaVersion, w.deadline, w.kubeconfig])).toEqual([['ns', [pods], SchemaVersion.V1, NOW + 500_000, kubeConfig]]);
    expect(h.logs).toEqual(['info ns/p-db: Waiting for pods (namespace=ns, labels=app=db, required=true) for 600s']);
    expect(state).toEqual({
      target: target(),
      release: { revision: 3, status: 'deployed' },
      checkedAt: '2026-01-01T12:00:00.000Z',
      waited: [{ type: 'pod', labelSelector: 'app=db', outcome: 'ready', count: 2 }],
    });
  });

  test('an unreadable release record falls back to now + timeout, with a warning', async () => {
    const h = harness({ deployStart: new Error('no Helm release record ns/sh.helm.release.v1.p-db.v3') });
    await checkReadiness({ target: target(), release: { revision: 3 } }, h.deps);
    expect(h.waits[0].deadline).toBe(NOW + 600_000);
    expect(h.logs[0]).toBe('warn ns/p-db: cannot read when revision 3 was deployed (no Helm release record ns/sh.helm.release.v1.p-db.v3); the readiness wait gets its whole 600s from now instead of sharing the deadline with the release');
  });

  test('a repeat gate does not read the record', async () => {
    const h = harness();
    await checkReadiness({ target: target({ sharesDeadline: false }), release: { revision: 3 } }, h.deps);
    expect(h.reads).toEqual([]);
    expect(h.waits[0].deadline).toBe(NOW + 600_000);
  });

  test('a timeout fails with the list of what was not ready', async () => {
    const timeout = new ReadinessTimeoutError({
      resourceType: 'pod',
      namespace: 'ns',
      labelSelector: 'app=db',
      noneFound: false,
      expiredBeforeStart: false,
      notReady: [{ name: 'db-0', message: 'Waiting for pod db-0 to be ready...' }],
      notStarted: [],
    });
    const h = harness({ wait: async () => Promise.reject(timeout) });
    const failure = checkReadiness({ target: target(), release: { revision: 1 } }, h.deps);
    await expect(failure).rejects.toThrow(
      "Helm release ns/p-db is not ready: Timed out waiting for pods (namespace=ns, labels=(app=db)). These pods were not ready=['db-0']\n  pod db-0: Waiting for pod db-0 to be ready...",
    );
    await expect(failure).rejects.toMatchObject({ cause: timeout });
  });

  test('a kubeconfig refused before any request: "cannot wait", never "not ready", at once and without a warning about the deadline', async () => {
    const why = "the kubeconfig's cluster 'c' has a plain-HTTP server (http://h:8080), which @kubernetes/client-node refuses unless the cluster sets insecure-skip-tls-verify: true. Give the server's https:// address, or, for a server without TLS, set it: kubectl config set-cluster c --insecure-skip-tls-verify=true";
    const expected = `cannot wait for Helm release ns/p-db: no request can be sent to the cluster, because ${why}`;
    // From the wait's first request.
    const refused = new KubeconfigRefusedError('GET /api/v1/namespaces/ns/pods', why);
    expect(refused.message).toBe(`GET /api/v1/namespaces/ns/pods: ${why}`);
    const waiting = harness({ wait: async () => Promise.reject(refused) });
    const failure = checkReadiness({ target: target({ sharesDeadline: false }), release: { revision: 1 } }, waiting.deps);
    await expect(failure).rejects.toThrow(expected);
    await expect(failure).rejects.toMatchObject({ message: expected, cause: refused });
    // From reading the release record: the wait is not started.
    const reading = harness({ deployStart: new KubeconfigRefusedError('GET /api/v1/namespaces/ns/secrets/sh.helm.release.v1.p-db.v1', why) });
    await expect(checkReadiness({ target: target(), release: { revision: 1 } }, reading.deps)).rejects.toMatchObject({ message: expected });
    expect([reading.waits, reading.logs]).toEqual([[], []]);
  });

  test('wait.resources: [] needs no cluster', async () => {
    const h = harness();
    const state = await checkReadiness({ target: target({ resources: [] }), release: { revision: 1 } }, h.deps);
    expect(h.deps.loadCluster).not.toHaveBeenCalled();
    expect(state.waited).toEqual([]);
    expect(h.logs).toEqual(['info ns/p-db: wait.resources is empty, nothing to wait on']);
  });
});

describe('diffGate', () => {
  const rel = (revision: number, status = 'deployed') => ({ revision, status, name: 'p-db', namespace: 'ns', chart: 'db', version: '0.1.0', appVersion: '1' });
  const olds = { target: target(), release: rel(2), checkedAt: 'x', waited: [] };
  test('waits again when the revision, the status, the target or the run token changes', () => {
    expect(diffGate(olds, { target: target(), release: rel(2) })).toEqual({ changes: false });
    expect(diffGate(olds, { target: target(), release: rel(3) })).toEqual({ changes: true });
    expect(diffGate(olds, { target: target(), release: rel(2, 'failed') })).toEqual({ changes: true });
    expect(diffGate(olds, { target: target({ timeoutSeconds: 60 }), release: rel(2) })).toEqual({ changes: true });
    expect(diffGate(olds, { target: target(), release: rel(2), runToken: 'now' })).toEqual({ changes: true });
  });
  test('a preview with the revision unknown shows a change; the cluster never counts', () => {
    expect(diffGate(olds, { target: target(), release: '04da6b54-80e4-46f7-96ec-b56ff0331ba9' })).toEqual({ changes: true });
    expect(diffGate(olds, { target: target(), release: rel(2), cluster: { kubeconfig: 'other' } })).toEqual({ changes: false });
  });

  describe('with tests', () => {
    const tested = { ...olds, test: tests(), tested: { revision: 2, passedAt: 'y' } };
    test('tests are due after a new revision, new test settings, or while they have not passed; not for a status change or a run token', () => {
      const news = { target: target(), release: rel(2), test: tests() };
      expect([diffGate(tested, news), gateDue(tested, news), testsDue(tested, news)]).toEqual([{ changes: false }, false, false]);
      expect([gateDue(tested, { ...news, release: rel(3) }), testsDue(tested, { ...news, release: rel(3) })]).toEqual([true, true]);
      expect([gateDue(tested, { ...news, release: rel(2, 'failed') }), testsDue(tested, { ...news, release: rel(2, 'failed') })]).toEqual([true, false]);
      expect([gateDue(tested, { ...news, runToken: 'now' }), testsDue(tested, { ...news, runToken: 'now' })]).toEqual([true, false]);
      expect([diffGate(tested, { ...news, test: tests({ timeoutSeconds: 60 }) }), gateDue(tested, { ...news, test: tests({ timeoutSeconds: 60 }) }), testsDue(tested, { ...news, test: tests({ timeoutSeconds: 60 }) })]).toEqual([{ changes: true }, false, true]);
      // Failed last time: the gate is ready, the tests are not done.
      const untested = { ...olds, test: tests() };
      expect([diffGate(untested, news), gateDue(untested, news), testsDue(untested, news)]).toEqual([{ changes: true }, false, true]);
      expect(testsDue(tested, { ...news, release: '04da6b54-80e4-46f7-96ec-b56ff0331ba9' })).toBe(true);
    });
    test('enabling tests makes them due; disabling them is a change that runs nothing', () => {
      expect([diffGate(olds, { target: target(), release: rel(2), test: tests() }), testsDue(olds, { target: target(), release: rel(2), test: tests() })]).toEqual([{ changes: true }, true]);
      const news = { target: target(), release: rel(2) };
      expect([diffGate(tested, news), gateDue(tested, news), testsDue(tested, news)]).toEqual([{ changes: true }, false, false]);
    });
  });
});

describe('runGate: the wait, then the tests', () => {
  const inputs = (o: Partial<GateInputs> = {}): GateInputs => ({ target: target(), release: { revision: 3, status: 'deployed' }, cluster: { context: 'ctx' }, test: tests(), ...o });
  const TEST_3 = `test 3 ${JSON.stringify(tests())} {"context":"ctx"}`;
  const ready = (o: Partial<GateState> = {}): GateState => ({
    target: target(),
    release: { revision: 3, status: 'deployed' },
    checkedAt: '2026-01-01T12:00:00.000Z',
    waited: [{ type: 'pod', labelSelector: 'app=db', outcome: 'ready', count: 2 }],
    test: tests(),
    ...o,
  });

  test('create: waits, then tests on the release, recording the tested revision', async () => {
    const h = harness();
    expect(await runGate(inputs(), undefined, h.deps)).toEqual(ready({ tested: { revision: 3, passedAt: '2026-01-01T12:00:00.000Z' } }));
    expect(h.ran).toEqual(['wait', TEST_3]);
  });

  test('without tests the state has none; a gate that is not ready fails before any test', async () => {
    const h = harness();
    expect(await runGate(inputs({ test: undefined }), undefined, h.deps)).toEqual(ready({ test: undefined }));
    const failing = harness({ wait: async () => Promise.reject(new Error('Timed out waiting for pods')) });
    await expect(runGate(inputs(), undefined, failing.deps)).rejects.toThrow('Helm release ns/p-db is not ready: Timed out waiting for pods');
    expect(failing.ran).toEqual(['wait']);
  });

  test('failed tests: an UntestedGate with the ready, untested state and helm\'s message; the next run tests without waiting', async () => {
    const failure = new Error('helm test of ns/p-db failed (exit code 1):\nError: pod db-test failed');
    const h = harness({ testFailure: failure });
    const error = (await runGate(inputs(), undefined, h.deps).catch((e: unknown) => e)) as UntestedGate;
    expect(error).toBeInstanceOf(UntestedGate);
    expect([error.message, error.state, error.cause]).toEqual([failure.message, ready(), failure]);
    expect(h.ran).toEqual(['wait', TEST_3]);
    const retry = harness();
    expect(await runGate(inputs(), error.state, retry.deps)).toEqual(ready({ tested: { revision: 3, passedAt: '2026-01-01T12:00:00.000Z' } }));
    expect(retry.ran).toEqual([TEST_3]);
  });

  test('update: only what is due runs', async () => {
    const olds = ready({ checkedAt: 'earlier', tested: { revision: 3, passedAt: 'earlier' } });
    const run = async (news: GateInputs) => {
      const h = harness();
      const state = await runGate(news, olds, h.deps);
      return { ran: h.ran, checkedAt: state.checkedAt, tested: state.tested };
    };
    expect(await run(inputs())).toEqual({ ran: [], checkedAt: 'earlier', tested: { revision: 3, passedAt: 'earlier' } });
    expect(await run(inputs({ release: { revision: 3, status: 'failed' } }))).toEqual({ ran: ['wait'], checkedAt: '2026-01-01T12:00:00.000Z', tested: { revision: 3, passedAt: 'earlier' } });
    expect(await run(inputs({ runToken: 'run-2' }))).toEqual({ ran: ['wait'], checkedAt: '2026-01-01T12:00:00.000Z', tested: { revision: 3, passedAt: 'earlier' } });
    expect(await run(inputs({ release: { revision: 4, status: 'deployed' } }))).toEqual({
      ran: ['wait', `test 4 ${JSON.stringify(tests())} {"context":"ctx"}`],
      checkedAt: '2026-01-01T12:00:00.000Z',
      tested: { revision: 4, passedAt: '2026-01-01T12:00:00.000Z' },
    });
    expect(await run(inputs({ test: tests({ timeoutSeconds: 60 }) }))).toEqual({
      ran: [`test 3 ${JSON.stringify(tests({ timeoutSeconds: 60 }))} {"context":"ctx"}`],
      checkedAt: 'earlier',
      tested: { revision: 3, passedAt: '2026-01-01T12:00:00.000Z' },
    });
    const disabled = await runGate(inputs({ test: undefined }), olds, harness().deps);
    expect([disabled.test, disabled.tested, disabled.checkedAt]).toEqual([undefined, undefined, 'earlier']);
  });

  test("after a takeover: the new gate waits on the revision the import's upgrade made, sharing its deadline, then tests it; the next run re-waits on nothing", async () => {
    // Armada installed revision 2 long ago; the takeover upgraded it to 3 a minute ago, in this run.
    const h = harness({ deployStart: NOW - 60_000 });
    const takenOver = inputs({ helmDriver: 'configmap' });
    const state = await runGate(takenOver, undefined, h.deps);
    expect(h.reads).toEqual([[kubeConfig, 'ns', 'p-db', 3]]);
    expect(h.waits.map((w) => w.deadline)).toEqual([NOW - 60_000 + 600_000]);
    expect(h.ran).toEqual(['wait', TEST_3]);
    // The second `pulumi up`: same revision, so nothing is due, whatever the driver.
    expect([diffGate(state, takenOver), diffGate(state, inputs({ helmDriver: 'secret' }))]).toEqual([{ changes: false }, { changes: false }]);
    const again = harness();
    expect(await runGate(takenOver, state, again.deps)).toEqual(state);
    expect(again.ran).toEqual([]);
  });

  test("helm test gets the gate's helm driver", async () => {
    const seen: unknown[] = [];
    const h = harness();
    const deps = { ...h.deps, runHelmTest: async (i: { target: TestTarget; helmDriver?: string | undefined }) => (seen.push(i.helmDriver), { target: i.target, passedAt: 'now' }) };
    await runGate(inputs({ helmDriver: 'configmap' }), undefined, deps);
    await runGate(inputs(), undefined, deps);
    expect(seen).toEqual(['configmap', undefined]);
  });

  test('a gate state from before tests moved into the gate (no record of them) tests once, without waiting', async () => {
    const h = harness();
    const before = { target: target(), release: { revision: 3, status: 'deployed' }, checkedAt: 'earlier', waited: [] };
    expect(diffGate(before, inputs())).toEqual({ changes: true });
    const state = await runGate(inputs(), before, h.deps);
    expect(h.ran).toEqual([TEST_3]);
    expect(state.tested).toEqual({ revision: 3, passedAt: '2026-01-01T12:00:00.000Z' });
    // Without tests, such a state is unchanged.
    expect(diffGate(before, inputs({ test: undefined }))).toEqual({ changes: false });
  });
});

describe('the gate provider, called as Pulumi calls it', () => {
  let info: jest.SpyInstance;
  beforeEach(() => {
    info = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => info.mockRestore());

  test('create and update run the wait (nothing to wait on here, so no cluster); diff and delete', async () => {
    const inputs: GateInputs = { target: target({ resources: [] }), release: { revision: 1, status: 'deployed' } };
    const created = await readinessGateProvider.create(inputs);
    const outs = created.outs!;
    expect(created.id).toBe('ns/p-db');
    expect(created.outs).toMatchObject({ target: inputs.target, release: { revision: 1, status: 'deployed' }, waited: [] });
    const updated = await readinessGateProvider.update!(created.id, outs, { ...inputs, release: { revision: 2, status: 'deployed' } });
    expect(updated.outs).toMatchObject({ release: { revision: 2 } });
    expect(await readinessGateProvider.diff!(created.id, outs, { ...inputs, release: { revision: 2, status: 'deployed' } })).toEqual({ changes: true });
    await expect(readinessGateProvider.delete!(created.id, outs)).resolves.toBeUndefined();
  });

  test('failing tests after the wait: the "created but not initialised" error, whose state keeps the provider', async () => {
    // The dynamic provider passes every input, the serialized provider included.
    const inputs = { target: target({ resources: [] }), release: { revision: 1, status: 'deployed' }, test: tests({ waitLabels: {}, helmCommand: '/nonexistent/helm' }), __provider: 'exports.handler = ...' };
    const message = 'ns/p-db: test.enabled needs the helm CLI (Helm 3 or 4) on the machine running pulumi up, and "/nonexistent/helm" was not found; install helm, set ManifestDeployment\'s helmCommand, or disable the chart\'s tests';
    const failed = (await readinessGateProvider.create(inputs).catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(failed).toMatchObject({ message, id: 'ns/p-db', reasons: [message] });
    expect(failed.properties).toEqual({ target: inputs.target, release: inputs.release, checkedAt: expect.any(String), waited: [], test: inputs.test, __provider: 'exports.handler = ...' });
    // The engine then updates it on the next run: the same failure, with the resource's id.
    const again = (await readinessGateProvider.update!('ns/p-db', failed.properties as GateState, inputs).catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(again).toMatchObject({ message, id: 'ns/p-db', reasons: [message] });
    // A gate that is not ready is a plain failure: the resource keeps its previous state.
    const notReady = (await readinessGateProvider.create({ ...inputs, target: target({ resources: [{ ...pods }] }), cluster: { kubeconfig: '/nonexistent/kubeconfig' } }).catch((e: unknown) => e)) as Error & Record<string, unknown>;
    expect(notReady).toBeInstanceOf(Error);
    expect(notReady.id).toBeUndefined();
  });
});

describe('Helm release records', () => {
  const record = { name: 'p-db', version: 3, info: { status: 'deployed', first_deployed: '2026-01-01T10:00:00Z', last_deployed: '2026-01-01T11:58:20.123456789Z' } };

  test('decode: base64 (twice for a Secret) of gzipped JSON, and plain JSON as Helm also reads', () => {
    expect(releaseRecordName('p-db', 3)).toBe('sh.helm.release.v1.p-db.v3');
    expect(decodeReleaseRecord(encodeReleaseRecord(record, true), true)).toEqual(record);
    expect(decodeReleaseRecord(encodeReleaseRecord(record, false), false)).toEqual(record);
    expect(decodeReleaseRecord(Buffer.from(JSON.stringify(record)).toString('base64'), false)).toEqual(record);
  });

  /** `record` followed by `mib` MiB of spaces once gunzipped (valid JSON still), as concatenated gzip members of a few KiB. */
  const bomb = (mib: number) => {
    const spaces = gzipSync(Buffer.alloc(1024 * 1024, 0x20));
    return Buffer.concat([gzipSync(Buffer.from(JSON.stringify(record))), ...Array.from({ length: mib }, () => spaces)]);
  };

  test('decode stops gunzipping at the cap, with an error that says so', () => {
    const small = bomb(2);
    const encoded = small.toString('base64');
    expect(() => decodeReleaseRecord(encoded, false, 1024 * 1024)).toThrow(
      new ReleaseRecordTooLargeError(`the record is larger than 1048576 bytes once gunzipped (${small.length} bytes compressed); Helm loads no chart larger than 100 MiB, so it was not read`),
    );
    expect(decodeReleaseRecord(encoded, false, 3 * 1024 * 1024)).toEqual(record);
    expect(() => decodeReleaseRecord(Buffer.from(JSON.stringify(record) + ' '.repeat(100)).toString('base64'), false, 50)).toThrow(ReleaseRecordTooLargeError);
    expect(MAX_RELEASE_RECORD_BYTES).toBe(100 * 1024 * 1024);
  });

  describe('readDeployStart against an API server', () => {
    let kube: FakeKube;
    beforeEach(async () => {
      kube = await FakeKube.start();
    });
    afterEach(() => kube.close());

    test('from the Secret of the secrets driver', async () => {
      kube.add('/api/v1/namespaces/ns/secrets', { metadata: { name: 'sh.helm.release.v1.p-db.v3' }, data: { release: encodeReleaseRecord(record, true) } });
      expect(await readDeployStart(kube.kubeConfig(), 'ns', 'p-db', 3)).toBe(Date.parse('2026-01-01T11:58:20.123Z'));
      expect(kube.requests.map((r) => [r.method, r.path, r.authorization])).toEqual([['GET', '/api/v1/namespaces/ns/secrets/sh.helm.release.v1.p-db.v3', 'Bearer test-token']]);
    });

    test('from the ConfigMap of the configmap driver', async () => {
      kube.add('/api/v1/namespaces/ns/configmaps', { metadata: { name: 'sh.helm.release.v1.p-db.v3' }, data: { release: encodeReleaseRecord(record, false) } });
      expect(await readDeployStart(kube.kubeConfig(), 'ns', 'p-db', 3)).toBe(Date.parse('2026-01-01T11:58:20.123Z'));
    });

    test('says what it could not read', async () => {
      kube.fail('/api/v1/namespaces/ns/secrets/sh.helm.release.v1.p-db.v3', 403);
      await expect(readDeployStart(kube.kubeConfig(), 'ns', 'p-db', 3)).rejects.toThrow(
        'no Helm release record ns/sh.helm.release.v1.p-db.v3 (Secret: HTTP 403: scripted failure of /api/v1/namespaces/ns/secrets/sh.helm.release.v1.p-db.v3; ConfigMap: HTTP 404: sh.helm.release.v1.p-db.v3 not found)',
      );
    });

    test('a record that gunzips past 100 MiB is refused, not expanded (the repro: 2.8 MB became 1.5 GB)', async () => {
      const big = bomb(120);
      kube.add('/api/v1/namespaces/ns/secrets', { metadata: { name: 'sh.helm.release.v1.p-db.v3' }, data: { release: Buffer.from(big.toString('base64')).toString('base64') } });
      await expect(readDeployStart(kube.kubeConfig(), 'ns', 'p-db', 3)).rejects.toThrow(
        `Helm release record ns/sh.helm.release.v1.p-db.v3: the record is larger than 104857600 bytes once gunzipped (${big.length} bytes compressed); Helm loads no chart larger than 100 MiB, so it was not read`,
      );
    });

    test('the gate end to end: record read, then the real wait loop lists the pods and finds them ready', async () => {
      kube.add('/api/v1/namespaces/ns/secrets', { metadata: { name: 'sh.helm.release.v1.p-db.v1' }, data: { release: encodeReleaseRecord({ info: { last_deployed: new Date().toISOString() } }, true) } });
      kube.add('/api/v1/namespaces/ns/pods', {
        metadata: { name: 'db-0', namespace: 'ns', labels: { app: 'db' } },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      });
      const logs: string[] = [];
      const state = await checkReadiness(
        { target: target(), release: { revision: 1 } },
        { loadCluster: async () => kube.kubeConfig(), log: { info: (m) => logs.push(m), warn: (m) => logs.push(`warn ${m}`) } },
      );
      expect(state.waited).toEqual([{ type: 'pod', labelSelector: 'app=db', outcome: 'ready', count: 1 }]);
      expect(kube.requests.map((r) => r.path)).toEqual(['/api/v1/namespaces/ns/secrets/sh.helm.release.v1.p-db.v1', '/api/v1/namespaces/ns/pods']);
      expect(kube.requests[1].query.get('labelSelector')).toBe('app=db');
      expect(logs[0]).toMatch(/^ns\/p-db: Waiting for pods \(namespace=ns, labels=app=db, required=true\) for (599|600)s$/);
      expect(logs.at(-1)).toBe('ns/p-db: pod (namespace=ns, labels=app=db): 1/1 ready');
    });
  });
});
