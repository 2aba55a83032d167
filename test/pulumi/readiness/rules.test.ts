import { SchemaVersion } from '../../../src/model/spec';
import {
  checkWaitResource,
  daemonSetReadiness,
  deploymentReadiness,
  excludeReason,
  InvalidWaitResourceError,
  isHelmTestPod,
  jobExcludeReason,
  jobReadiness,
  labelSelector,
  podExcludeReason,
  podReadiness,
  resourceReadiness,
  statefulSetReadiness,
} from '../../../src/pulumi/provider/readiness';
import { daemonSet, deployment, job, owner, pod, statefulSet } from './fixtures';

describe('labelSelector', () => {
  it('joins k=v pairs with commas, keys sorted', () => {
    expect(labelSelector({ release_group: 'airship-mariadb', application: 'mariadb' })).toBe(
      'application=mariadb,release_group=airship-mariadb',
    );
  });
  it('is empty for no labels (Armada then waits on everything in the namespace)', () => {
    expect(labelSelector({})).toBe('');
  });
});

describe('pod exclusion', () => {
  it.each([
    ['test', true],
    ['test-success', true],
    ['test-failure', true],
    ['pre-install,test-success', true],
    ['pre-install', false],
    ['post-upgrade,pre-upgrade', false],
    // Armada splits on commas without trimming.
    ['pre-install, test', false],
  ])('helm.sh/hook=%j is a test pod: %s', (hook, expected) => {
    expect(isHelmTestPod(pod('p', { annotations: { 'helm.sh/hook': hook } }))).toBe(expected);
  });

  it('skips Helm test pods in v1 and v2', () => {
    const p = pod('keystone-test', { annotations: { 'helm.sh/hook': 'test' } });
    expect(podExcludeReason(p, SchemaVersion.V1)).toBe('helm test pod');
    expect(podExcludeReason(p, SchemaVersion.V2)).toBe('helm test pod');
  });

  it('skips pods whose phase is Evicted, as Armada checks it', () => {
    expect(podExcludeReason(pod('p', { phase: 'Evicted' }), SchemaVersion.V1)).toBe('pod was evicted');
    // What a kubelet eviction really writes: Armada's phase check does not match it.
    expect(podExcludeReason(pod('p', { phase: 'Failed', reason: 'Evicted' }), SchemaVersion.V1)).toBeUndefined();
  });

  it('v1 skips only Job-owned pods', () => {
    expect(podExcludeReason(pod('db-init-x7k2p', { owners: [owner('Job', 'db-init')] }), SchemaVersion.V1)).toBe('owned by job');
    expect(podExcludeReason(pod('api-5d8f-abcde', { owners: [owner('ReplicaSet', 'api-5d8f')] }), SchemaVersion.V1)).toBeUndefined();
    expect(podExcludeReason(pod('bare'), SchemaVersion.V1)).toBeUndefined();
  });

  it('v2 skips every pod with an owner, keeping bare pods', () => {
    expect(podExcludeReason(pod('api-5d8f-abcde', { owners: [owner('ReplicaSet', 'api-5d8f')] }), SchemaVersion.V2)).toBe(
      'owned by another resource',
    );
    expect(podExcludeReason(pod('db-init-x7k2p', { owners: [owner('Job')] }), SchemaVersion.V2)).toBe('owned by another resource');
    expect(podExcludeReason(pod('bare'), SchemaVersion.V2)).toBeUndefined();
  });

  it('dispatches by type; controllers are never excluded', () => {
    expect(excludeReason('pod', pod('p', { owners: [owner('Job')] }), SchemaVersion.V1)).toBe('owned by job');
    expect(excludeReason('deployment', deployment('d', { owners: [owner('Job')] }), SchemaVersion.V2)).toBeUndefined();
  });
});

describe('job exclusion', () => {
  it('skips jobs created by a CronJob', () => {
    expect(jobExcludeReason(job('backup-28751230', { owners: [owner('CronJob', 'backup')] }))).toBe(
      'owned by cronjob (not part of release)',
    );
    expect(excludeReason('job', job('backup-28751230', { owners: [owner('CronJob')] }), SchemaVersion.V1)).toBeDefined();
  });
  it('keeps jobs of the release and jobs with other owners', () => {
    expect(jobExcludeReason(job('db-sync'))).toBeUndefined();
    expect(jobExcludeReason(job('db-sync', { owners: [owner('ArmadaChart')] }))).toBeUndefined();
  });
});

describe('podReadiness', () => {
  it('is ready when Running with Ready=True', () => {
    expect(podReadiness(pod('keystone-api-0'))).toEqual({ ready: true, message: 'Pod keystone-api-0 ready' });
  });
  it('is ready when Succeeded', () => {
    expect(podReadiness(pod('bootstrap', { phase: 'Succeeded', ready: false }))).toEqual({ ready: true, message: 'Pod bootstrap succeeded' });
  });
  it.each([
    ['Running, not Ready', pod('p', { ready: false })],
    ['Pending', pod('p', { phase: 'Pending' })],
    ['Failed', pod('p', { phase: 'Failed', ready: false })],
    ['no conditions', { metadata: { name: 'p' }, status: { phase: 'Running' } }],
  ])('is not ready when %s', (_, p) => {
    expect(podReadiness(p)).toEqual({ ready: false, message: 'Waiting for pod p to be ready...' });
  });
});

describe('jobReadiness', () => {
  it('is ready when succeeded equals completions', () => {
    expect(jobReadiness(job('keystone-db-sync', { succeeded: 1 }))).toEqual({ ready: true, message: 'job keystone-db-sync successfully completed' });
    expect(jobReadiness(job('shards', { completions: 3, succeeded: 3 })).ready).toBe(true);
  });
  it('is not ready while running (succeeded unset) or partly done', () => {
    expect(jobReadiness(job('keystone-db-sync', { active: 1 }))).toEqual({
      ready: false,
      message: 'Waiting for job keystone-db-sync to be successfully completed...',
    });
    expect(jobReadiness(job('shards', { completions: 3, succeeded: 2 })).ready).toBe(false);
  });
  it('compares unset values as Armada compares None: no completions and no successes is complete', () => {
    expect(jobReadiness(job('queue', { completions: null })).ready).toBe(true);
    expect(jobReadiness(job('queue', { completions: null, succeeded: 1 })).ready).toBe(false);
  });
});

describe('deploymentReadiness', () => {
  it('is ready when rolled out', () => {
    expect(deploymentReadiness(deployment('keystone-api', { replicas: 3 }))).toEqual({
      ready: true,
      message: 'deployment keystone-api successfully rolled out',
    });
  });
  it('waits for the spec to be observed (generation lag)', () => {
    expect(deploymentReadiness(deployment('keystone-api', { generation: 3, observedGeneration: 2 }))).toEqual({
      ready: false,
      message: 'Waiting for deployment spec update to be observed...',
    });
  });
  it('waits while replicas are being updated', () => {
    expect(deploymentReadiness(deployment('keystone-api', { replicas: 3, updated: 1, available: 1 })).message).toBe(
      'Waiting for deployment keystone-api rollout to finish: 1 out of 3 new replicas have been updated...',
    );
  });
  it('waits for min_ready of the updated replicas to be available', () => {
    const d = deployment('keystone-api', { replicas: 3, updated: 3, available: 1 });
    expect(deploymentReadiness(d)).toEqual({
      ready: false,
      message: 'Waiting for deployment keystone-api rollout to finish: 1 of 3 updated replicas are available, with min_ready=100%',
    });
    expect(deploymentReadiness(d, { minReady: 2 }).message).toMatch(/1 of 3 updated replicas are available, with min_ready=2$/);
    expect(deploymentReadiness(d, { minReady: 1 }).ready).toBe(true);
  });
  it('fails on ProgressDeadlineExceeded even when counts would pass', () => {
    const d = deployment('keystone-api', { replicas: 3, updated: 3, available: 3, progressDeadlineExceeded: true });
    expect(deploymentReadiness(d)).toEqual({ ready: false, message: 'deployment keystone-api exceeded its progress deadline' });
  });
  it('ignores the progress deadline while the spec is not observed yet', () => {
    const d = deployment('keystone-api', { generation: 2, observedGeneration: 1, progressDeadlineExceeded: true });
    expect(deploymentReadiness(d).message).toBe('Waiting for deployment spec update to be observed...');
  });
  it('is ready with 0 replicas under a percentage, never under a count above 0', () => {
    const d = deployment('scaled-down', { replicas: 0 });
    expect(deploymentReadiness(d).ready).toBe(true);
    expect(deploymentReadiness(d, { minReady: 1 }).ready).toBe(false);
  });
  it.each([
    // total, percent, available, ready: ceil(total * n / 100) in floating point, as Armada
    [3, '33%', 0, false],
    [3, '33%', 1, true],
    [3, '34%', 1, false],
    [3, '34%', 2, true],
    [100, '7%', 7, false],
    [100, '7%', 8, true],
    [10, '50%', 5, true],
    [10, '0%', 0, true],
  ] as const)('%i replicas at min_ready=%s: %i available is ready=%s', (total, minReady, available, ready) => {
    const d = deployment('api', { replicas: total, updated: total, available });
    expect(deploymentReadiness(d, { minReady }).ready).toBe(ready);
  });
});

describe('daemonSetReadiness', () => {
  it('is ready when every node runs an updated, available pod', () => {
    expect(daemonSetReadiness(daemonSet('calico-node', { desired: 3 }))).toEqual({
      ready: true,
      message: 'daemon set calico-node successfully rolled out',
    });
  });
  it('waits for the spec to be observed', () => {
    expect(daemonSetReadiness(daemonSet('calico-node', { generation: 4, observedGeneration: 3 })).message).toBe(
      'Waiting for daemon set spec update to be observed...',
    );
  });
  it('waits for pods to be updated, then for min_ready of desired to be available', () => {
    expect(daemonSetReadiness(daemonSet('calico-node', { desired: 3, updated: 2 })).message).toBe(
      'Waiting for daemon set calico-node rollout to finish: 2 out of 3 new pods have been updated...',
    );
    const partlyAvailable = daemonSet('calico-node', { desired: 3, updated: 3, available: 1 });
    expect(daemonSetReadiness(partlyAvailable).message).toBe(
      'Waiting for daemon set calico-node rollout to finish: 1 of 3 updated pods are available, with min_ready=100%',
    );
    // ceil(3 * 0.5) = 2
    expect(daemonSetReadiness(partlyAvailable, { minReady: '50%' }).ready).toBe(false);
    expect(daemonSetReadiness(daemonSet('calico-node', { desired: 3, available: 2 }), { minReady: '50%' }).ready).toBe(true);
  });
  it('is ready when scheduled nowhere', () => {
    expect(daemonSetReadiness(daemonSet('gpu-plugin', { desired: 0 })).ready).toBe(true);
  });
  it('judges an OnDelete update unlikely to become ready without allowAsyncUpdates', () => {
    const ds = daemonSet('ceph-osd', { strategy: 'OnDelete', generation: 2, observedGeneration: 2 });
    expect(daemonSetReadiness(ds)).toEqual({
      ready: false,
      message: 'daemonset ceph-osd unlikely to become ready: Async update not allowed: update strategy type = OnDelete',
      unlikely: 'Async update not allowed: update strategy type = OnDelete',
    });
    expect(daemonSetReadiness(ds, { allowAsyncUpdates: true })).toEqual({ ready: true, message: 'daemon set ceph-osd successfully rolled out' });
  });
  it('treats OnDelete normally on the first rollout (observedGeneration 1 is not an update)', () => {
    expect(daemonSetReadiness(daemonSet('ceph-osd', { strategy: 'OnDelete' })).ready).toBe(true);
    // generation 2 not yet observed: still not an update by Armada's test
    expect(daemonSetReadiness(daemonSet('ceph-osd', { strategy: 'OnDelete', generation: 2, observedGeneration: 1 })).message).toBe(
      'Waiting for daemon set spec update to be observed...',
    );
  });
});

describe('statefulSetReadiness', () => {
  it('is ready with every replica ready and the update revision current', () => {
    expect(statefulSetReadiness(statefulSet('mariadb-server', { replicas: 2, currentRevision: 'mariadb-server-6d4b' }))).toEqual({
      ready: true,
      message: 'statefulset rolling update complete 2 pods at revision mariadb-server-6d4b...',
    });
  });
  it('waits while nothing is observed, and on generation lag', () => {
    const fresh: Parameters<typeof statefulSetReadiness>[0] = { metadata: { name: 'db', generation: 1 }, spec: { replicas: 1 }, status: {} };
    expect(statefulSetReadiness(fresh).message).toBe('Waiting for statefulset spec update to be observed...');
    expect(statefulSetReadiness(statefulSet('db', { generation: 3, observedGeneration: 2 })).message).toBe(
      'Waiting for statefulset spec update to be observed...',
    );
  });
  it('waits for min_ready of spec.replicas to be ready', () => {
    const sts = statefulSet('mariadb-server', { replicas: 3, ready: 1 });
    expect(statefulSetReadiness(sts)).toEqual({
      ready: false,
      message: 'Waiting for statefulset mariadb-server rollout to finish: 1 of 3 pods are ready, with min_ready=100%',
    });
    expect(statefulSetReadiness(sts, { minReady: '33%' }).ready).toBe(true);
    expect(statefulSetReadiness(sts, { minReady: '34%' }).ready).toBe(false);
  });
  it('waits for the rolling update to reach every pod', () => {
    const sts = statefulSet('mariadb-server', {
      replicas: 3,
      generation: 2,
      currentRevision: 'mariadb-server-6d4b',
      updateRevision: 'mariadb-server-8f2a',
    });
    expect(statefulSetReadiness(sts)).toEqual({
      ready: false,
      message: 'waiting for statefulset rolling update to complete 1 pods at revision mariadb-server-8f2a...',
    });
  });
  it('judges OnDelete and partitioned updates unlikely without allowAsyncUpdates', () => {
    const onDelete = statefulSet('rabbitmq', { strategy: 'OnDelete', generation: 3 });
    expect(statefulSetReadiness(onDelete).unlikely).toBe('Async update not allowed: update strategy type = OnDelete');
    expect(statefulSetReadiness(onDelete, { allowAsyncUpdates: true }).ready).toBe(true);

    const partitioned = statefulSet('mariadb-server', {
      replicas: 3,
      partition: 2,
      generation: 2,
      currentRevision: 'mariadb-server-6d4b',
      updateRevision: 'mariadb-server-8f2a',
    });
    expect(statefulSetReadiness(partitioned)).toEqual({
      ready: false,
      message: 'statefulset mariadb-server unlikely to become ready: Async update not allowed: partitioned rollout',
      unlikely: 'Async update not allowed: partitioned rollout',
    });
    // Allowed: the partitioned rollout is judged by its revisions, which differ until the partition drops.
    const allowed = statefulSetReadiness(partitioned, { allowAsyncUpdates: true });
    expect(allowed.ready).toBe(false);
    expect(allowed.unlikely).toBeUndefined();
    expect(allowed.message).toMatch(/^waiting for statefulset rolling update to complete/);
  });
  it('does not count a partition on the first rollout or with 0 replicas', () => {
    expect(statefulSetReadiness(statefulSet('db', { partition: 2 })).ready).toBe(true);
    expect(statefulSetReadiness(statefulSet('db', { replicas: 0, partition: 2, generation: 2 })).ready).toBe(true);
  });
});

describe('resourceReadiness and checkWaitResource', () => {
  it('applies the rule of the type, with its options', () => {
    const d = deployment('api', { replicas: 4, available: 2 });
    expect(resourceReadiness('deployment', d, { minReady: '50%' }).ready).toBe(true);
    expect(resourceReadiness('pod', pod('p')).ready).toBe(true);
    expect(() => resourceReadiness('service', d)).toThrow(InvalidWaitResourceError);
  });
  it('rejects what Armada rejects when building its waits', () => {
    expect(() => checkWaitResource({ type: 'cronjob' })).toThrow('invalid `type` for item in `wait.resources`: cronjob');
    expect(() => checkWaitResource({ type: 'deployment', minReady: '80' as never })).toThrow(InvalidWaitResourceError);
    expect(() => checkWaitResource({ type: 'deployment', allowAsyncUpdates: true })).toThrow(/allow_async_updates/);
    expect(() => checkWaitResource({ type: 'statefulset', minReady: '80%', allowAsyncUpdates: true })).not.toThrow();
  });
});
