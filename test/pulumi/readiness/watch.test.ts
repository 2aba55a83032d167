import { SchemaVersion } from '../../../src/model/spec';
import type { EffectiveWaitResource } from '../../../src/model/wait';
import {
  InvalidWaitResourceError,
  KubernetesApiError,
  ReadinessTimeoutError,
  waitForResources,
  WaitForResourcesOptions,
} from '../../../src/pulumi/provider/readiness';
import { FakeApiServer, status } from './fake-api-server';
import { daemonSet, deployment, job, NS, owner, pod, statefulSet } from './fixtures';

const PODS = `/api/v1/namespaces/${NS}/pods`;
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const DAEMONSETS = `/apis/apps/v1/namespaces/${NS}/daemonsets`;
const STATEFULSETS = `/apis/apps/v1/namespaces/${NS}/statefulsets`;

function resource(type: string, labels: Record<string, string>, o: Partial<EffectiveWaitResource> = {}): EffectiveWaitResource {
  return { type, labels, minReady: '100%', required: true, allowAsyncUpdates: false, ...o };
}

let api: FakeApiServer;
beforeEach(async () => {
  api = await FakeApiServer.start();
});
afterEach(async () => {
  await api.close();
});

function wait(o: Partial<WaitForResourcesOptions> & Pick<WaitForResourcesOptions, 'resources'>, messages: string[] = []) {
  return waitForResources({
    kubeconfig: api.kubeConfig(),
    namespace: NS,
    schemaVersion: SchemaVersion.V2,
    deadline: Date.now() + 3000,
    retryDelayMs: 50,
    waitAttemptSleepMs: 50,
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

describe('waitForResources: list then watch', () => {
  it('is done after the list when everything is already ready, without watching', async () => {
    api.script(DEPLOYMENTS, { lists: [{ items: [deployment('keystone-api', { replicas: 2 })], resourceVersion: '40' }] });
    const results = await wait({ resources: [resource('deployment', { application: 'keystone' })] });
    expect(results).toEqual([{ type: 'deployment', labelSelector: 'application=keystone', outcome: 'ready', count: 1, passes: 1 }]);
    expect(api.watches(DEPLOYMENTS)).toHaveLength(0);
  });

  it('watches from the list resourceVersion until the rollout finishes', async () => {
    const rolling = deployment('keystone-api', { replicas: 3, generation: 2, observedGeneration: 1, rv: '100' });
    api.script(DEPLOYMENTS, {
      lists: [{ items: [rolling], resourceVersion: '100' }],
      watches: [
        {
          steps: [
            { type: 'MODIFIED', object: deployment('keystone-api', { replicas: 3, generation: 2, updated: 1, available: 1, rv: '101' }) },
            { delayMs: 30 },
            { type: 'MODIFIED', object: deployment('keystone-api', { replicas: 3, generation: 2, updated: 3, available: 2, rv: '102' }) },
            { delayMs: 30 },
            { type: 'MODIFIED', object: deployment('keystone-api', { replicas: 3, generation: 2, rv: '103' }) },
          ],
          end: 'hang',
        },
      ],
    });
    const messages: string[] = [];
    const results = await wait(
      { resources: [resource('deployment', { component: 'api', application: 'keystone' }, { minReady: '100%' })] },
      messages,
    );
    expect(results[0].outcome).toBe('ready');
    const [list] = api.lists(DEPLOYMENTS);
    expect(list.query.get('labelSelector')).toBe('application=keystone,component=api');
    const [watch] = api.watches(DEPLOYMENTS);
    expect(watch.query.get('resourceVersion')).toBe('100');
    expect(watch.query.get('labelSelector')).toBe('application=keystone,component=api');
    expect(watch.headers.authorization).toBe('Bearer test-token');
    expect(messages[0]).toMatch(
      /^Waiting for deployments \(namespace=openstack, labels=application=keystone,component=api, required=true, min_ready=100%\) for \ds$/,
    );
    expect(messages).toContain('deployment (namespace=openstack, labels=application=keystone,component=api): 0/1 ready');
    expect(messages[messages.length - 1]).toBe('deployment (namespace=openstack, labels=application=keystone,component=api): 1/1 ready');
  });

  it('tracks ADDED objects and stops tracking DELETED ones', async () => {
    api.script(PODS, {
      lists: [{ items: [pod('memcached-0', { ready: false, rv: '5' })], resourceVersion: '5' }],
      watches: [
        {
          steps: [
            { type: 'ADDED', object: pod('memcached-1', { rv: '6' }) },
            { type: 'DELETED', object: pod('memcached-0', { ready: false, rv: '7' }) },
          ],
          end: 'hang',
        },
      ],
    });
    const results = await wait({ resources: [resource('pod', { application: 'memcached' })] });
    expect(results[0]).toMatchObject({ outcome: 'ready', count: 1 });
  });

  it('ignores excluded objects in events and BOOKMARKs', async () => {
    api.script(PODS, {
      lists: [{ items: [pod('bare', { ready: false, rv: '5' })], resourceVersion: '5' }],
      watches: [
        {
          steps: [
            { type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: '6' } } },
            { type: 'ADDED', object: pod('api-abc', { ready: false, owners: [owner('ReplicaSet')], rv: '7' }) },
            { type: 'MODIFIED', object: pod('bare', { rv: '8' }) },
          ],
          end: 'hang',
        },
      ],
    });
    const results = await wait({ resources: [resource('pod', {})] });
    expect(results[0]).toMatchObject({ outcome: 'ready', count: 1, labelSelector: '' });
  });
});

describe('waitForResources: deadline', () => {
  it('fails at the deadline listing every resource not ready, with its last message', async () => {
    api.script(STATEFULSETS, {
      lists: [
        {
          items: [
            statefulSet('mariadb-server', { replicas: 2, ready: 1, rv: '7' }),
            statefulSet('mariadb-arbiter', { replicas: 1, rv: '8' }),
          ],
          resourceVersion: '9',
        },
      ],
      watches: [{ steps: [{ delayMs: 200 }, { type: 'MODIFIED', object: statefulSet('mariadb-server', { replicas: 2, ready: 1, rv: '10' }) }], end: 'hang' }],
    });
    const messages: string[] = [];
    const started = Date.now();
    const error = await rejection(
      wait(
        {
          deadline: started + 1200,
          resources: [resource('statefulset', { release_group: 'airship-mariadb' }), resource('pod', { release_group: 'airship-mariadb' })],
        },
        messages,
      ),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1150);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(ReadinessTimeoutError);
    expect(error.message.split('\n')).toEqual([
      "Timed out waiting for statefulsets (namespace=openstack, labels=(release_group=airship-mariadb)). These statefulsets were not ready=['mariadb-server']",
      '  statefulset mariadb-server: Waiting for statefulset mariadb-server rollout to finish: 1 of 2 pods are ready, with min_ready=100%',
      'Not waited for, the deadline passed first: pod (labels=release_group=airship-mariadb)',
    ]);
    const timeout = error as ReadinessTimeoutError;
    expect(timeout.notReady).toEqual([
      { name: 'mariadb-server', message: 'Waiting for statefulset mariadb-server rollout to finish: 1 of 2 pods are ready, with min_ready=100%' },
    ]);
    expect(timeout.noneFound).toBe(false);
    expect(messages).toContain('statefulset (namespace=openstack, labels=release_group=airship-mariadb): 1/2 ready');
    expect(api.lists(PODS)).toHaveLength(0);
  });

  it('keeps waiting on an update Armada judges unlikely to finish, and says so at the deadline', async () => {
    api.script(DAEMONSETS, {
      lists: [{ items: [daemonSet('ceph-osd', { strategy: 'OnDelete', generation: 2, rv: '3' })], resourceVersion: '3' }],
    });
    const error = await rejection(wait({ deadline: Date.now() + 1000, resources: [resource('daemonset', { application: 'ceph' })] }));
    expect(error.message).toContain(
      '  daemonset ceph-osd: daemonset ceph-osd unlikely to become ready: Async update not allowed: update strategy type = OnDelete ' +
        '(unlikely to become ready: Async update not allowed: update strategy type = OnDelete)',
    );
    expect((error as ReadinessTimeoutError).notReady[0].unlikely).toBe('Async update not allowed: update strategy type = OnDelete');
  });

  it('fails at once, without listing, when the deadline has already passed', async () => {
    const error = await rejection(wait({ deadline: Date.now() - 1, resources: [resource('pod', { application: 'nova' })] }));
    expect(error.message).toBe('Timed out waiting for resource type=pod, namespace=openstack, labels=application=nova');
    expect((error as ReadinessTimeoutError).expiredBeforeStart).toBe(true);
    expect(api.requests).toHaveLength(0);
  });
});

describe('waitForResources: nothing found', () => {
  it('fails a required wait at the deadline with Armada\'s "None found!"', async () => {
    const messages: string[] = [];
    const error = await rejection(wait({ deadline: Date.now() + 1000, resources: [resource('pod', { application: 'nova' })] }, messages));
    expect(error.message).toBe(
      'Timed out waiting for pods (namespace=openstack, labels=(application=nova)). ' +
        'None found! Are `wait.labels` correct? Does `wait.resources` need to exclude `type: pod`?',
    );
    expect((error as ReadinessTimeoutError).noneFound).toBe(true);
    expect(api.watches(PODS)).toHaveLength(1);
    expect(messages).toContain('pod (namespace=openstack, labels=application=nova): none found yet');
  });

  it('waits for a required resource that appears during the watch', async () => {
    api.script(JOBS, {
      watches: [{ steps: [{ delayMs: 100 }, { type: 'ADDED', object: job('nova-db-sync', { active: 1, rv: '2' }) }, { type: 'MODIFIED', object: job('nova-db-sync', { succeeded: 1, rv: '3' }) }], end: 'hang' }],
    });
    const results = await wait({ resources: [resource('job', { application: 'nova' })] });
    expect(results[0]).toMatchObject({ outcome: 'ready', count: 1 });
  });

  it('skips a wait that is not required, without watching', async () => {
    const messages: string[] = [];
    const started = Date.now();
    const results = await wait({ resources: [resource('daemonset', { application: 'nova' }, { required: false })] }, messages);
    expect(Date.now() - started).toBeLessThan(500);
    expect(results).toEqual([{ type: 'daemonset', labelSelector: 'application=nova', outcome: 'skipped', count: 0, passes: 1 }]);
    expect(api.watches(DAEMONSETS)).toHaveLength(0);
    expect(messages[messages.length - 1]).toBe('daemonset (namespace=openstack, labels=application=nova): none found, skipped (not required)');
  });

  it('passes at once when the list has only excluded objects, as in Armada', async () => {
    api.script(PODS, { lists: [{ items: [pod('nova-db-sync-x2f4', { phase: 'Running', ready: false, owners: [owner('Job')] })], resourceVersion: '4' }] });
    const results = await wait({ schemaVersion: SchemaVersion.V1, resources: [resource('pod', { application: 'nova' })] });
    expect(results[0]).toMatchObject({ outcome: 'ready', count: 0 });
    expect(api.watches(PODS)).toHaveLength(0);
  });
});

describe('waitForResources: connection trouble', () => {
  it('resumes a dropped watch from the last resourceVersion seen, without relisting', async () => {
    api.script(PODS, {
      lists: [{ items: [pod('rabbitmq-0', { ready: false, rv: '100' })], resourceVersion: '100' }],
      watches: [
        { steps: [{ type: 'MODIFIED', object: pod('rabbitmq-0', { ready: false, rv: '101' }) }], end: 'drop' },
        { steps: [{ type: 'MODIFIED', object: pod('rabbitmq-0', { rv: '102' }) }], end: 'hang' },
      ],
    });
    const results = await wait({ resources: [resource('pod', { application: 'rabbitmq' })] });
    expect(results[0].outcome).toBe('ready');
    expect(api.watches(PODS).map((w) => w.query.get('resourceVersion'))).toEqual(['100', '101']);
    expect(api.lists(PODS)).toHaveLength(1);
  });

  it('resumes a cleanly closed watch from the last BOOKMARK', async () => {
    api.script(PODS, {
      lists: [{ items: [pod('rabbitmq-0', { ready: false, rv: '100' })], resourceVersion: '100' }],
      watches: [
        { steps: [{ type: 'BOOKMARK', object: { kind: 'Pod', metadata: { resourceVersion: '150' } } }], end: 'close' },
        { steps: [{ type: 'MODIFIED', object: pod('rabbitmq-0', { rv: '151' }) }], end: 'hang' },
      ],
    });
    await wait({ resources: [resource('pod', { application: 'rabbitmq' })] });
    const watches = api.watches(PODS);
    expect(watches.map((w) => w.query.get('resourceVersion'))).toEqual(['100', '150']);
    expect(watches[0].query.get('allowWatchBookmarks')).toBe('true');
  });

  it('relists after HTTP 410 Gone', async () => {
    api.script(STATEFULSETS, {
      lists: [
        { items: [statefulSet('etcd', { replicas: 3, ready: 2, rv: '10' })], resourceVersion: '10' },
        { items: [statefulSet('etcd', { replicas: 3, rv: '900' })], resourceVersion: '900' },
      ],
      watches: [{ status: 410, body: status(410, 'too old resource version: 10 (800)', 'Expired') }],
    });
    const results = await wait({ resources: [resource('statefulset', { application: 'etcd' })] });
    expect(results[0].outcome).toBe('ready');
    expect(api.lists(STATEFULSETS)).toHaveLength(2);
  });

  it('relists after an ERROR event with code 410, then watches from the new list', async () => {
    api.script(STATEFULSETS, {
      lists: [
        { items: [statefulSet('etcd', { replicas: 3, ready: 1, rv: '10' })], resourceVersion: '10' },
        { items: [statefulSet('etcd', { replicas: 3, ready: 2, rv: '300' })], resourceVersion: '300' },
      ],
      watches: [
        { steps: [{ type: 'ERROR', object: status(410, 'too old resource version: 10 (250)', 'Expired') }], end: 'close' },
        { steps: [{ type: 'MODIFIED', object: statefulSet('etcd', { replicas: 3, rv: '301' }) }], end: 'hang' },
      ],
    });
    await wait({ resources: [resource('statefulset', { application: 'etcd' })] });
    expect(api.watches(STATEFULSETS).map((w) => w.query.get('resourceVersion'))).toEqual(['10', '300']);
  });

  it('retries a LIST answered with 500', async () => {
    api.script(JOBS, { lists: [{ status: 500 }, { items: [job('db-init', { succeeded: 1 })], resourceVersion: '3' }] });
    const results = await wait({ resources: [resource('job', { application: 'glance' })] });
    expect(results[0].outcome).toBe('ready');
    expect(api.lists(JOBS)).toHaveLength(2);
  });

  it('reports the last API error when the API server never answers a LIST before the deadline', async () => {
    api.script(JOBS, { lists: [{ status: 503, body: status(503, 'etcdserver: leader changed') }] });
    const error = await rejection(wait({ deadline: Date.now() + 800, resources: [resource('job', { application: 'glance' })] }));
    expect(error.message).toBe(
      'Timed out waiting for jobs (namespace=openstack, labels=(application=glance)). Could not list them: ' +
        `GET ${JOBS}: HTTP 503: etcdserver: leader changed`,
    );
  });

  it('resumes after an ERROR event for a server-side failure', async () => {
    api.script(PODS, {
      lists: [{ items: [pod('p', { ready: false, rv: '3' })], resourceVersion: '3' }],
      watches: [
        { steps: [{ type: 'MODIFIED', object: pod('p', { ready: false, rv: '4' }) }, { type: 'ERROR', object: status(500, 'etcd hiccup') }], end: 'close' },
        { steps: [{ type: 'MODIFIED', object: pod('p', { rv: '5' }) }], end: 'hang' },
      ],
    });
    await wait({ resources: [resource('pod', { application: 'nova' })] });
    expect(api.watches(PODS).map((w) => w.query.get('resourceVersion'))).toEqual(['3', '4']);
  });

  it('fails at once on a refused request', async () => {
    api.script(PODS, { lists: [{ status: 403, body: status(403, 'pods is forbidden: User "ci" cannot list resource "pods"', 'Forbidden') }] });
    const error = await rejection(wait({ resources: [resource('pod', { application: 'nova' })] }));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error).toMatchObject({ statusCode: 403, reason: 'Forbidden' });
    expect(error.message).toContain('pods is forbidden');
  });

  it('fails on an ERROR event that is not about an expired resourceVersion', async () => {
    api.script(PODS, {
      lists: [{ items: [pod('p', { ready: false })], resourceVersion: '3' }],
      watches: [{ steps: [{ type: 'ERROR', object: status(403, 'watch forbidden', 'Forbidden') }], end: 'close' }],
    });
    const error = await rejection(wait({ resources: [resource('pod', { application: 'nova' })] }));
    expect(error).toBeInstanceOf(KubernetesApiError);
    expect(error.message).toBe('Got error event for pods (namespace=openstack): watch forbidden');
  });
});

describe('waitForResources: several waits', () => {
  it('runs the waits in order and returns how each ended', async () => {
    api.script(JOBS, {
      lists: [{ items: [job('keystone-db-sync', { active: 1, rv: '20' })], resourceVersion: '20' }],
      watches: [{ steps: [{ delayMs: 150 }, { type: 'MODIFIED', object: job('keystone-db-sync', { succeeded: 1, rv: '21' }) }], end: 'hang' }],
    });
    api.script(DEPLOYMENTS, { lists: [{ items: [deployment('keystone-api', { replicas: 2 })], resourceVersion: '30' }] });
    const results = await wait({
      resources: [
        resource('job', { application: 'keystone' }, { required: false }),
        resource('daemonset', { application: 'keystone' }, { required: false }),
        resource('deployment', { application: 'keystone' }),
      ],
    });
    expect(results.map((r) => [r.type, r.outcome])).toEqual([
      ['job', 'ready'],
      ['daemonset', 'skipped'],
      ['deployment', 'ready'],
    ]);
    const order = api.requests.filter((r) => !r.watch).map((r) => r.path);
    expect(order).toEqual([JOBS, DAEMONSETS, DEPLOYMENTS]);
    // The job was ready before the deployments were listed.
    expect(api.lists(DEPLOYMENTS)[0].at - api.lists(JOBS)[0].at).toBeGreaterThanOrEqual(140);
  });

  it('shares one deadline: a later wait gets only what the earlier ones left', async () => {
    api.script(JOBS, {
      lists: [{ items: [job('keystone-db-sync', { active: 1, rv: '20' })], resourceVersion: '20' }],
      watches: [{ steps: [{ delayMs: 700 }, { type: 'MODIFIED', object: job('keystone-db-sync', { succeeded: 1, rv: '21' }) }], end: 'hang' }],
    });
    api.script(DEPLOYMENTS, { lists: [{ items: [deployment('keystone-api', { replicas: 2, available: 1 })], resourceVersion: '30' }] });
    const started = Date.now();
    const error = await rejection(
      wait({
        deadline: started + 1500,
        resources: [resource('job', { application: 'keystone' }), resource('deployment', { application: 'keystone' })],
      }),
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1450);
    expect(elapsed).toBeLessThan(2000);
    expect((error as ReadinessTimeoutError).resourceType).toBe('deployment');
    expect(error.message).toContain('keystone-api: Waiting for deployment keystone-api rollout to finish: 1 of 2 updated replicas are available');
  });
});

describe('waitForResources: v1 repeated waits', () => {
  function rollingPods(): void {
    api.script(PODS, {
      lists: [
        { items: [pod('nova-api-0', { ready: false, rv: '10' })], resourceVersion: '10' },
        { items: [pod('nova-api-0', { rv: '11' })], resourceVersion: '11' },
      ],
      watches: [{ steps: [{ type: 'MODIFIED', object: pod('nova-api-0', { rv: '11' }) }], end: 'hang' }],
    });
  }

  it('v1 waits again after a pass that saw MODIFIED events, until a pass sees none', async () => {
    rollingPods();
    const messages: string[] = [];
    const results = await wait({ schemaVersion: SchemaVersion.V1, resources: [resource('pod', { application: 'nova' })] }, messages);
    expect(results[0]).toMatchObject({ outcome: 'ready', passes: 2 });
    expect(api.lists(PODS)).toHaveLength(2);
    expect(messages).toContain('pod (namespace=openstack, labels=application=nova): ready, but 1 modified during the wait; checking again');
  });

  it('v1 honours waitAttempts: that many consecutive unmodified passes', async () => {
    rollingPods();
    const results = await wait({ schemaVersion: SchemaVersion.V1, waitAttempts: 3, resources: [resource('pod', { application: 'nova' })] });
    expect(results[0].passes).toBe(4);
  });

  it('v2 makes a single pass', async () => {
    rollingPods();
    const results = await wait({ schemaVersion: SchemaVersion.V2, resources: [resource('pod', { application: 'nova' })] });
    expect(results[0].passes).toBe(1);
    expect(api.lists(PODS)).toHaveLength(1);
  });
});

describe('waitForResources: options', () => {
  it('throttles status messages but always reports the end', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `ovs-agent-${i}`);
    api.script(PODS, {
      lists: [{ items: names.map((n) => pod(n, { ready: false, rv: '1' })), resourceVersion: '1' }],
      watches: [
        {
          steps: names.flatMap((n, i) => [{ delayMs: 10 }, { type: 'MODIFIED' as const, object: pod(n, { rv: String(i + 2) }) }]),
          end: 'hang',
        },
      ],
    });
    const messages: string[] = [];
    await wait({ progressIntervalMs: 5000, resources: [resource('pod', { application: 'neutron' })] }, messages);
    const statuses = messages.filter((m) => m.includes(' ready') && m.startsWith('pod '));
    expect(statuses.length).toBeLessThanOrEqual(3);
    expect(statuses[0]).toBe('pod (namespace=openstack, labels=application=neutron): 0/10 ready');
    expect(statuses[statuses.length - 1]).toBe('pod (namespace=openstack, labels=application=neutron): 10/10 ready');
  });

  it('warns when a wait has no labels', async () => {
    const messages: string[] = [];
    await wait({ resources: [resource('job', {}, { required: false })] }, messages);
    expect(messages).toContain('No labels for the job wait: it waits on every job in namespace openstack');
  });

  it('can be cancelled with an AbortSignal', async () => {
    api.script(PODS, { lists: [{ items: [pod('p', { ready: false })], resourceVersion: '3' }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('deployment cancelled')), 150);
    const started = Date.now();
    const error = await rejection(wait({ signal: controller.signal, resources: [resource('pod', { application: 'nova' })] }));
    expect(error.message).toBe('deployment cancelled');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits on nothing, without a cluster, for an empty resource list', async () => {
    const results = await waitForResources({ namespace: NS, schemaVersion: SchemaVersion.V1, deadline: Date.now() + 1000, resources: [] });
    expect(results).toEqual([]);
  });

  it('rejects an invalid wait resource before any request', async () => {
    const error = await rejection(
      wait({ resources: [resource('pod', { application: 'nova' }), resource('service', { application: 'nova' })] }),
    );
    expect(error).toBeInstanceOf(InvalidWaitResourceError);
    expect(error.message).toBe('invalid `type` for item in `wait.resources`: service');
    expect(api.requests).toHaveLength(0);
  });
});

describe('waitForResources: pods the kubelet evicted', () => {
  // A kubelet eviction writes phase Failed and reason Evicted; Armada's check matches phase Evicted
  // only, so such a pod counts and is never ready, in Armada as here.
  const evicted = pod('nova-compute-x1', { phase: 'Failed', reason: 'Evicted', rv: '3' });

  it('a bare evicted pod blocks the wait until the deadline, as in Armada', async () => {
    api.script(PODS, { lists: [{ items: [evicted, pod('nova-api', { rv: '4' })], resourceVersion: '4' }] });
    const error = await rejection(wait({ deadline: Date.now() + 500, resources: [resource('pod', { application: 'nova' })] }));
    expect(error.message.split('\n')).toEqual([
      "Timed out waiting for pods (namespace=openstack, labels=(application=nova)). These pods were not ready=['nova-compute-x1']",
      '  pod nova-compute-x1: Waiting for pod nova-compute-x1 to be ready...',
    ]);
  });

  it('v2 leaves out an evicted pod that a controller owns, as it leaves out every owned pod', async () => {
    const owned = pod('nova-api-7d9-x2', { phase: 'Failed', reason: 'Evicted', owners: [owner('ReplicaSet')], rv: '3' });
    api.script(PODS, { lists: [{ items: [owned, pod('nova-api', { rv: '4' })], resourceVersion: '4' }] });
    const results = await wait({ schemaVersion: SchemaVersion.V2, resources: [resource('pod', { application: 'nova' })] });
    expect(results[0]).toMatchObject({ outcome: 'ready', count: 1 });
  });
});
