/**
 * Helm 3 and Helm 4 install the fixture charts from the stack's chart repository: the smoke test
 * of the stack itself (kwok's lifecycles, the hook Jobs, the init container's wait), which the
 * engines' tests build on.
 */
import * as path from 'node:path';
import { createNamespace, endpoint, kubeOk, runTool, stack } from './stack';
import { poll } from './workloads';

const ep = () => endpoint();

describe.each(['helm3', 'helm4'] as const)('%s against the stack', (helm) => {
  let ns: string;
  // Each Helm keeps its own repositories and cache: their formats need not agree.
  const env = () => {
    const home = path.join(stack().dir, `${helm}-home`);
    return { HELM_CACHE_HOME: path.join(home, 'cache'), HELM_CONFIG_HOME: path.join(home, 'config'), HELM_DATA_HOME: path.join(home, 'data') };
  };
  const run = (...args: string[]) => runTool(helm, [...args, '--namespace', ns], { env: env() });
  const repo = () => ['--repo', stack().helmRepository.url, '--version', '0.1.0'];

  beforeAll(async () => {
    ns = await createNamespace(helm);
  });

  test('the StatefulSet chart installs and --wait sees every replica ready', async () => {
    await run('install', 'db', 'e2e-db', ...repo(), '--wait', '--timeout', '2m');
    const sts = await kubeOk(ep(), 'GET', `/apis/apps/v1/namespaces/${ns}/statefulsets/db-server`);
    expect(sts.status.readyReplicas).toBe(3);
  });

  test('the DaemonSet chart runs one pod per fake node', async () => {
    await run('install', 'agent', 'e2e-agent', ...repo(), '--wait', '--timeout', '2m');
    const ds = await kubeOk(ep(), 'GET', `/apis/apps/v1/namespaces/${ns}/daemonsets/agent-agent`);
    expect(ds.status.numberAvailable).toBe(stack().nodes.length);
    const role = await kubeOk(ep(), 'GET', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/agent-agent`);
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
  });

  test('the API chart runs db-init then db-sync after install, and its pods start only after db-sync', async () => {
    const { stdout } = await run('install', 'api', 'e2e-api', ...repo(), '--timeout', '2m', '-o', 'json');
    expect(JSON.parse(stdout).info.status).toBe('deployed');
    const init = await kubeOk(ep(), 'GET', `/apis/batch/v1/namespaces/${ns}/jobs/api-db-init`);
    const sync = await kubeOk(ep(), 'GET', `/apis/batch/v1/namespaces/${ns}/jobs/api-db-sync`);
    expect(init.status.succeeded).toBe(1);
    expect(sync.status.succeeded).toBe(1);
    // Hook weights order them: db-init (1) completed before db-sync (2) was created.
    expect(Date.parse(init.status.completionTime)).toBeLessThanOrEqual(Date.parse(sync.metadata.creationTimestamp));

    const d = await poll('the API deployment to be available', () => kubeOk(ep(), 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/api-api`), (x) => x.status?.availableReplicas === 2);
    expect(d.status.availableReplicas).toBe(2);
    const pods = await kubeOk(ep(), 'GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent('release_group=api,component=api')}`);
    for (const p of pods.items) {
      // The init container held each pod until db-sync completed.
      const ready = p.status.conditions.find((c: any) => c.type === 'Ready');
      expect(Date.parse(ready.lastTransitionTime)).toBeGreaterThanOrEqual(Date.parse(sync.status.completionTime) - 1000);
    }
  });

  test('helm test runs the test pod to success', async () => {
    const { stdout } = await run('test', 'api', '--timeout', '2m');
    expect(stdout).toMatch(/api-test/);
    expect(stdout).toMatch(/Succeeded/);
  });

  test('an upgrade runs the post-upgrade hooks again and rolls the pods', async () => {
    await run('upgrade', 'api', 'e2e-api', ...repo(), '--set', 'conf.revision=2', '--timeout', '2m');
    const sync = await kubeOk(ep(), 'GET', `/apis/batch/v1/namespaces/${ns}/jobs/api-db-sync`);
    expect(sync.status.succeeded).toBe(1);
    const d = await poll(
      'the upgraded deployment to roll out',
      () => kubeOk(ep(), 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/api-api`),
      (x) => x.status?.updatedReplicas === 2 && x.status?.availableReplicas === 2 && x.status?.replicas === 2,
    );
    expect(d.spec.template.metadata.annotations['conf-revision']).toBe('2');
    const { stdout } = await run('history', 'api', '-o', 'json');
    expect(JSON.parse(stdout).map((r: any) => [r.revision, r.status])).toEqual([
      [1, 'superseded'],
      [2, 'deployed'],
    ]);
  });

  test('uninstall removes the releases', async () => {
    for (const r of ['api', 'agent', 'db']) await run('uninstall', r, '--wait', '--timeout', '2m');
    const { stdout } = await run('list', '-o', 'json');
    expect(JSON.parse(stdout)).toEqual([]);
  });
});

test('Helm 3: --wait before post-install hooks deadlocks a chart whose pods wait for a hook Job', async () => {
  const ns = await createNamespace('deadlock');
  const started = Date.now();
  const args = ['install', 'api', 'e2e-api', '--repo', stack().helmRepository.url, '--version', '0.1.0', '--namespace', ns, '--wait', '--timeout', '15s'];
  const result = await runTool('helm3', args, { allowFailure: true });
  // Helm waits for the Deployment first; its pods wait for db-sync, a post-install hook that
  // Helm runs only after the wait: nothing moves until the timeout.
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(/context deadline exceeded|timed out/);
  expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
  const jobs = await kubeOk(ep(), 'GET', `/apis/batch/v1/namespaces/${ns}/jobs`);
  expect(jobs.items.map((j: any) => j.metadata.name)).toEqual([]);
});

