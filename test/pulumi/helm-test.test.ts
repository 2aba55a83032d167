import { promises as fs } from 'node:fs';
import { encodeReleaseRecord, HelmReleaseRecord } from '../../src/pulumi/provider/helm-record';
import { HelmResult, runHelmTest, spawnHelm, TestTarget } from '../../src/pulumi/provider/helm-test-run';
import { FakeKube, named } from './fake-kube';

const SECRETS = '/api/v1/namespaces/ns/secrets';
/** Helm's record of a revision, as the secret driver stores it. */
const recordSecret = (revision: number, record: HelmReleaseRecord) => ({ metadata: { name: `sh.helm.release.v1.p-keystone.v${revision}` }, data: { release: encodeReleaseRecord(record, true) } });

const PODS = '/api/v1/namespaces/ns/pods';
const target = (o: Partial<TestTarget> = {}): TestTarget => ({
  release: 'p-keystone',
  namespace: 'ns',
  timeoutSeconds: 600,
  waitLabels: { release_group: 'p-keystone' },
  helmCommand: 'helm',
  ...o,
});

describe('helm test', () => {
  let kube: FakeKube;
  let logs: string[];
  let calls: { command: string; args: readonly string[]; timeoutMs: number; env?: Readonly<Record<string, string>>; kubeconfig?: string | undefined }[];
  const deps = (result: HelmResult | Error = { code: 0, output: 'TEST SUITE: keystone-test\nPhase: Succeeded\n' }) => ({
    loadCluster: async () => kube.kubeConfig(),
    runHelm: async (command: string, args: readonly string[], timeoutMs: number, env: Readonly<Record<string, string>>) => {
      const i = args.indexOf('--kubeconfig');
      calls.push({ command, args, timeoutMs, env, kubeconfig: i >= 0 ? await fs.readFile(args[i + 1], 'utf8').catch(() => '(no file)') : undefined });
      if (result instanceof Error) throw result;
      return result;
    },
    log: { info: (m: string) => logs.push(`info ${m}`), warn: (m: string) => logs.push(`warn ${m}`) },
    now: () => Date.parse('2026-01-01T12:00:00Z'),
    pollMs: 5,
  });
  beforeEach(async () => {
    kube = await FakeKube.start();
    logs = [];
    calls = [];
    kube.add(
      PODS,
      named('keystone-test', { release_group: 'p-keystone' }, { annotations: { 'helm.sh/hook': 'test' } }),
      named('keystone-api-1', { release_group: 'p-keystone' }),
    );
  });
  afterEach(() => kube.close());

  test('deletes the previous test pods selected by wait.labels, then runs helm test with the test timeout', async () => {
    const state = await runHelmTest({ target: target(), release: { revision: 4, status: 'deployed' } }, deps());
    expect(kube.deletes()).toEqual([`${PODS}/keystone-test`]);
    expect(kube.names(PODS)).toEqual(['keystone-api-1']);
    expect(calls).toEqual([{ command: 'helm', args: ['test', 'p-keystone', '--namespace', 'ns', '--timeout', '600s'], timeoutMs: 660_000, env: {}, kubeconfig: undefined }]);
    expect(state).toEqual({ target: target(), release: { revision: 4, status: 'deployed' }, passedAt: '2026-01-01T12:00:00.000Z' });
    expect(logs).toEqual(['info ns/p-keystone: deleting previous test pod keystone-test', 'info ns/p-keystone: running helm test with timeout=600s', 'info ns/p-keystone: tests passed']);
  });

  test("helm gets the provider's storage driver as HELM_DRIVER", async () => {
    await runHelmTest({ target: target({ waitLabels: {} }), helmDriver: 'configmap' }, deps());
    expect(calls.map((c) => c.env)).toEqual([{ HELM_DRIVER: 'configmap' }]);
  });

  test("a failed test shows the end of the log of each test pod that did not succeed, from the revision's record", async () => {
    kube.add(
      SECRETS,
      recordSecret(4, {
        name: 'p-keystone',
        version: 4,
        hooks: [
          { name: 'keystone-test', kind: 'Pod', events: ['test'], last_run: { phase: 'Failed' } },
          { name: 'keystone-test-ok', kind: 'Pod', events: ['test'], last_run: { phase: 'Succeeded' } },
          { name: 'keystone-db-sync', kind: 'Job', events: ['post-install'], last_run: { phase: 'Failed' } },
          { name: 'keystone-test-gone', kind: 'Pod', events: ['test'], last_run: { phase: 'Running' } },
        ],
      }),
    );
    kube.addText(`${PODS}/keystone-test/log`, 'connecting to keystone-api\n\u001b[31mERROR\u001b[0m 401 Unauthorized\n');
    const failed = runHelmTest({ target: target({ waitLabels: {} }), release: { revision: 4, status: 'deployed' } }, deps({ code: 1, output: 'Phase: Failed\nError: 1 error occurred\n' }));
    await expect(failed).rejects.toThrow(
      [
        'helm test of ns/p-keystone failed (exit code 1):',
        'Phase: Failed',
        'Error: 1 error occurred',
        '',
        'POD LOGS: keystone-test (phase Failed, last 50 lines)',
        'connecting to keystone-api',
        '\\x1b[31mERROR\\x1b[0m 401 Unauthorized',
        '',
        'POD LOGS: keystone-test-gone (phase Running, last 50 lines)',
        '(its log cannot be read: HTTP 404: log not found)',
      ].join('\n'),
    );
    const logRequest = kube.requests.find((r) => r.path === `${PODS}/keystone-test/log`)!;
    expect([logRequest.query.get('tailLines'), logRequest.query.get('limitBytes')]).toEqual(['50', '16384']);
  });

  test('a failed test without a readable record still fails with helm\'s output, saying the logs could not be read', async () => {
    const failed = runHelmTest({ target: target({ waitLabels: {} }), release: { revision: 7 } }, deps({ code: 1, output: 'Error: timed out\n' }));
    await expect(failed).rejects.toThrow(/^helm test of ns\/p-keystone failed \(exit code 1\):\nError: timed out\n\n\(the test pods' logs cannot be read: no Helm release record ns\/sh\.helm\.release\.v1\.p-keystone\.v7 \(Secret: HTTP 404: [^)]*; ConfigMap: HTTP 404: [^)]*\)\)$/);
  });

  test('without wait.labels no pod is deleted (Armada would otherwise delete other charts\' test pods)', async () => {
    await runHelmTest({ target: target({ waitLabels: {} }) }, deps());
    expect(kube.requests).toEqual([]);
  });

  test('the cluster: kubeconfig contents go to a private temp file that is removed afterwards; a path and a context pass through', async () => {
    await runHelmTest({ target: target({ waitLabels: {} }), cluster: { kubeconfig: 'apiVersion: v1\nkind: Config\n', context: 'admin' } }, deps());
    const args = calls[0].args;
    const file = args[args.indexOf('--kubeconfig') + 1];
    expect(calls[0].kubeconfig).toBe('apiVersion: v1\nkind: Config\n');
    expect(args.slice(-2)).toEqual(['--kube-context', 'admin']);
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    await runHelmTest({ target: target({ waitLabels: {} }), cluster: { kubeconfig: '/etc/kube/site.yaml' } }, deps());
    expect(calls[1].args.slice(-2)).toEqual(['--kubeconfig', '/etc/kube/site.yaml']);
  });

  test('a failing test fails with helm\'s output; a missing helm says what to do; deleting old pods may fail', async () => {
    kube.fail(PODS, 500);
    await expect(runHelmTest({ target: target() }, deps({ code: 1, output: 'Error: pod keystone-test failed\n' }))).rejects.toThrow('helm test of ns/p-keystone failed (exit code 1):\nError: pod keystone-test failed');
    expect(logs[0]).toBe('warn ns/p-keystone: could not delete the previous test pods: cannot list pods in namespace ns (labels: release_group=p-keystone): HTTP 500: scripted failure of /api/v1/namespaces/ns/pods');
    const missing = Object.assign(new Error('spawn helm ENOENT'), { code: 'ENOENT' });
    await expect(runHelmTest({ target: target({ waitLabels: {} }) }, deps(missing))).rejects.toThrow(
      'ns/p-keystone: test.enabled needs the helm CLI (Helm 3 or 4) on the machine running pulumi up, and "helm" was not found; install helm, set ManifestDeployment\'s helmCommand, or disable the chart\'s tests',
    );
  });

  test('spawnHelm runs the executable without a shell, with the extra environment, and reports ENOENT', async () => {
    expect(await spawnHelm(process.execPath, ['-e', 'console.log("out"); console.error("err"); process.exit(3)'], 10_000)).toEqual({ code: 3, output: 'out\nerr\n' });
    expect(await spawnHelm(process.execPath, ['-e', 'console.log(process.env.HELM_DRIVER, typeof process.env.PATH)'], 10_000, { HELM_DRIVER: 'configmap' })).toEqual({ code: 0, output: 'configmap string\n' });
    await expect(spawnHelm('/nonexistent/helm', ['test'], 10_000)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
