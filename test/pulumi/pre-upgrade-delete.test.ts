import { SchemaVersion } from '../../src';
import { preUpgradeDeleteProvider } from '../../src/pulumi/resources/pre-upgrade-delete';
import { createPreDelete, deleteBeforeUpgrade, diffPreDelete, PreDeleteTarget, updatePreDelete } from '../../src/pulumi/provider/pre-upgrade-delete-run';
import { FakeKube, named } from './fake-kube';

const JOBS = '/apis/batch/v1/namespaces/ns/jobs';
const CRONJOBS = '/apis/batch/v1/namespaces/ns/cronjobs';
const PODS = '/api/v1/namespaces/ns/pods';
const target = (o: Partial<PreDeleteTarget> = {}): PreDeleteTarget => ({
  release: 'p-keystone',
  namespace: 'ns',
  actions: [{ type: 'job', labels: { release_group: 'p-keystone' } }],
  schemaVersion: SchemaVersion.V1,
  timeoutSeconds: 30,
  ...o,
});

describe('pre-upgrade deletes', () => {
  let kube: FakeKube;
  let logs: string[];
  const deps = () => ({ loadCluster: async () => kube.kubeConfig(), log: { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`) }, pollMs: 5 });
  beforeEach(async () => {
    kube = await FakeKube.start();
    logs = [];
    kube.add(JOBS, named('keystone-db-init', { release_group: 'p-keystone' }), named('keystone-bootstrap', { release_group: 'p-keystone' }), named('other', { release_group: 'p-glance' }));
    kube.add(CRONJOBS, named('keystone-fernet-rotate', { release_group: 'p-keystone', component: 'fernet-rotate' }));
    kube.add(PODS, named('keystone-api-1', { release_group: 'p-keystone' }));
  });
  afterEach(() => kube.close());

  test('create (a first install) deletes nothing and needs no cluster', async () => {
    const created = await preUpgradeDeleteProvider.create({ target: target(), fingerprint: 'a' });
    expect(created).toEqual({ id: 'ns/p-keystone', outs: { target: target(), fingerprint: 'a', deleted: [] } });
    expect((await createPreDelete({ target: target(), fingerprint: 'a' }, deps())).deleted).toEqual([]);
    expect(kube.requests).toEqual([]);
  });

  test('create of a takeover (the imported release is upgraded next) deletes, as before any upgrade', async () => {
    const state = await createPreDelete({ target: target(), fingerprint: 'a', takeover: true }, deps());
    expect(state).toEqual({ target: target(), fingerprint: 'a', deleted: ['job ns/keystone-db-init', 'job ns/keystone-bootstrap', 'cronjob ns/keystone-fernet-rotate'] });
    expect(kube.names(JOBS)).toEqual(['other']);
    // The flag is no change of the resource: removing it after the takeover updates nothing.
    expect(diffPreDelete({ ...state, takeover: true }, { target: target(), fingerprint: 'a' })).toEqual({ changes: false });
  });

  test('update with an unchanged fingerprint (no upgrade) deletes nothing', async () => {
    const state = await updatePreDelete({ target: target(), fingerprint: 'a', deleted: [] }, { target: target({ timeoutSeconds: 60 }), fingerprint: 'a' }, deps());
    expect(state).toEqual({ target: target({ timeoutSeconds: 60 }), fingerprint: 'a', deleted: [] });
    expect(kube.requests).toEqual([]);
  });

  test('before an upgrade, v1 `job` deletes the matching Jobs and CronJobs, foreground, waiting until they are gone', async () => {
    kube.lingerAfterDelete(`${JOBS}/keystone-db-init`, 2);
    const state = await updatePreDelete({ target: target(), fingerprint: 'a', deleted: [] }, { target: target(), fingerprint: 'b' }, deps());
    expect(state.deleted).toEqual(['job ns/keystone-db-init', 'job ns/keystone-bootstrap', 'cronjob ns/keystone-fernet-rotate']);
    expect(kube.names(JOBS)).toEqual(['other']);
    expect(kube.names(CRONJOBS)).toEqual([]);
    expect(kube.names(PODS)).toEqual(['keystone-api-1']);
    const del = kube.requests.filter((r) => r.method === 'DELETE');
    expect(del.map((r) => r.body)).toEqual(Array(3).fill({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' }));
    // Terminating for two reads, then gone.
    expect(kube.requests.filter((r) => r.method === 'GET' && r.path === `${JOBS}/keystone-db-init`)).toHaveLength(3);
    expect(kube.requests.find((r) => r.path === JOBS)!.query.get('labelSelector')).toBe('release_group=p-keystone');
    expect(logs).toContain('warn ns/p-keystone: deleting cronjobs via `type: job` is deprecated, use `type: cronjob` instead');
  });

  test('v2: `job` deletes Jobs only; cronjob and pod types; no labels selects everything; unknown types are skipped', async () => {
    const deleted = await deleteBeforeUpgrade(
      target({ schemaVersion: SchemaVersion.V2, actions: [{ type: 'job', labels: { release_group: 'p-keystone' } }, { type: 'cronjob', labels: { component: 'fernet-rotate' } }, { type: 'pod' }, { type: 'daemonset' }] }),
      kube.kubeConfig(),
      deps(),
    );
    expect(deleted).toEqual(['job ns/keystone-db-init', 'job ns/keystone-bootstrap', 'cronjob ns/keystone-fernet-rotate', 'pod ns/keystone-api-1']);
    expect(kube.requests.find((r) => r.path === PODS)!.query.has('labelSelector')).toBe(false);
    expect(logs).toContain('warn ns/p-keystone: upgrade.pre.delete type "daemonset" is not one Armada deletes (job, cronjob, pod); nothing deleted for it');
  });

  test('failures stop the upgrade with the API server message; an object still there at the deadline times out', async () => {
    kube.fail(JOBS, 403);
    await expect(deleteBeforeUpgrade(target(), kube.kubeConfig(), deps())).rejects.toThrow(
      'cannot list jobs in namespace ns (labels: release_group=p-keystone): HTTP 403: scripted failure of /apis/batch/v1/namespaces/ns/jobs',
    );
    const kube2 = await FakeKube.start();
    kube2.add(JOBS, named('stuck', { release_group: 'p-keystone' }));
    kube2.lingerAfterDelete(`${JOBS}/stuck`, 1_000_000);
    let clock = 0;
    await expect(
      deleteBeforeUpgrade(target({ schemaVersion: SchemaVersion.V2 }), kube2.kubeConfig(), { ...deps(), now: () => (clock += 10_000) }),
    ).rejects.toThrow('Reached timeout while waiting to delete job: name=stuck, namespace=ns');
    await kube2.close();
  });

  test('diff: the fingerprint or the actions changed; a new release name or namespace replaces', () => {
    const olds = { target: target(), fingerprint: 'a', deleted: [] };
    expect(diffPreDelete(olds, { target: target(), fingerprint: 'a', cluster: { kubeconfig: 'x' } })).toEqual({ changes: false });
    expect(diffPreDelete(olds, { target: target(), fingerprint: 'b' })).toEqual({ changes: true });
    expect(diffPreDelete(olds, { target: target({ actions: [] }), fingerprint: 'a' })).toEqual({ changes: true });
    expect(diffPreDelete(olds, { target: target({ namespace: 'other' }), fingerprint: 'a' })).toEqual({ changes: true, replaces: ['target'] });
  });
});
