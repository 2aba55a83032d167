import { SchemaVersion } from '../../src';
import type { EffectiveWaitResource } from '../../src/model/wait';
import { decodeReleaseRecord, encodeReleaseRecord, readDeployStart, releaseRecordName } from '../../src/pulumi/helm-record';
import { readinessGateProvider } from '../../src/pulumi/readiness-gate';
import { checkReadiness, diffGate, GateInputs, GateTarget, gateDeadline } from '../../src/pulumi/readiness-gate-run';
import { ReadinessTimeoutError, WaitForResourcesOptions } from '../../src/pulumi/readiness';
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

function harness(o: { deployStart?: number | Error; wait?: (opts: WaitForResourcesOptions) => Promise<any> } = {}) {
  const logs: string[] = [];
  const waits: WaitForResourcesOptions[] = [];
  const reads: unknown[][] = [];
  const deps = {
    loadCluster: jest.fn(async () => kubeConfig),
    waitForResources: async (opts: WaitForResourcesOptions) => {
      waits.push(opts);
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
  };
  return { deps, logs, waits, reads };
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
});

describe('the gate provider, called as Pulumi calls it', () => {
  test('create and update run the wait (nothing to wait on here, so no cluster); diff and delete', async () => {
    const info = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const inputs: GateInputs = { target: target({ resources: [] }), release: { revision: 1, status: 'deployed' } };
    const created = await readinessGateProvider.create(inputs);
    const outs = created.outs!;
    expect(created.id).toBe('ns/p-db');
    expect(created.outs).toMatchObject({ target: inputs.target, release: { revision: 1, status: 'deployed' }, waited: [] });
    const updated = await readinessGateProvider.update!(created.id, outs, { ...inputs, release: { revision: 2, status: 'deployed' } });
    expect(updated.outs).toMatchObject({ release: { revision: 2 } });
    expect(await readinessGateProvider.diff!(created.id, outs, { ...inputs, release: { revision: 2, status: 'deployed' } })).toEqual({ changes: true });
    await expect(readinessGateProvider.delete!(created.id, outs)).resolves.toBeUndefined();
    info.mockRestore();
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
