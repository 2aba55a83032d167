/**
 * `armada-cdk wait`: the Pulumi gate's wait, tests and pre-upgrade deletes as a command. Against a
 * stand-in API server, in a child process (see wait-cli.script.ts), with a real kubeconfig file.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { encodeReleaseRecord } from '../../src/pulumi/provider/helm-record';
import { cli, tmpdir, write } from '../helpers/cli';
import { REGISTER_TS } from '../helpers/ts-child';
import { FakeApiServer } from '../pulumi/readiness/fake-api-server';
import { FakeKube, named } from '../pulumi/fake-kube';
import { pod } from '../pulumi/readiness/fixtures';

const NS = 'openstack';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;

function chart(name: string, wait: string, extra = ''): string {
  return `---
schema: armada/Chart/v1
metadata: {schema: metadata/Document/v1, name: ${name}}
data:
  chart_name: ${name}
  release: ${name}
  namespace: ${NS}
  source: {type: local, location: /charts, subpath: ${name}}
  wait: ${wait}
  test: {enabled: false}
  values: {}
${extra}`;
}

const SITE = [
  chart('db', '{timeout: 5, labels: {application: db}, resources: [{type: pod}]}', '  upgrade:\n    no_hooks: false\n    pre:\n      delete:\n        - {type: job, labels: {component: init}}\n'),
  chart('api', '{timeout: 5, labels: {application: api}, resources: [{type: pod}]}'),
  chart('none', '{resources: []}'),
  `---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: infra}
data: {description: infra, sequenced: true, chart_group: [db, api, none]}
---
schema: armada/Manifest/v1
metadata: {schema: metadata/Document/v1, name: site}
data: {release_prefix: airship, chart_groups: [infra]}
`,
].join('');

function kubeconfig(dir: string, server: string, skipTlsVerify = true): string {
  return write(dir, 'kubeconfig', ['apiVersion: v1', 'kind: Config', 'current-context: fake', 'clusters:', '- name: fake', '  cluster:', `    server: ${server}`, ...(skipTlsVerify ? ['    insecure-skip-tls-verify: true'] : []), 'users:', '- name: ci', '  user:', '    token: t0ken', 'contexts:', '- name: fake', '  context: {cluster: fake, user: ci}', ''].join('\n'));
}

/** Runs the CLI in a child process; resolves with its exit code and output. */
function child(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['-r', REGISTER_TS, path.join(__dirname, 'wait-cli.script.ts'), ...args], { cwd, env: { ...process.env, ...env }, timeout: 60_000 }, (e, stdout, stderr) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function helmRecord(release: string, revision: number, status: string, lastDeployed: Date): any {
  const record = encodeReleaseRecord({ name: release, version: revision, info: { last_deployed: lastDeployed.toISOString(), status } }, true);
  return { metadata: { name: `sh.helm.release.v1.${release}.v${revision}`, namespace: NS, labels: { owner: 'helm', name: release, status, version: String(revision) } }, type: 'helm.sh/release.v1', data: { release: record } };
}

describe('armada-cdk wait: the command line', () => {
  let dir: string;
  beforeEach(() => {
    dir = tmpdir();
    write(dir, 'site.yaml', SITE);
  });

  test('--chart or --group, one of them; --timeout a whole number', async () => {
    expect(await cli(['wait', 'site.yaml'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining('armada-cdk wait: give --chart NAME or --group NAME') });
    expect((await cli(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--group', 'infra'], { cwd: dir })).stderr).toContain('give --chart or --group, not both');
    expect((await cli(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--timeout', '1.5'], { cwd: dir })).stderr).toContain('--timeout must be a whole number of seconds, 1 or more; received "1.5"');
    expect((await cli(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--pre-upgrade', '--test'], { cwd: dir })).stderr).toContain('--pre-upgrade deletes and does not wait; it takes no --test');
  });

  test('a chart or group the manifest does not deploy: exit 1, with a suggestion', async () => {
    const r = await cli(['wait', path.join(dir, 'site.yaml'), '--chart', 'dbb'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('armada-cdk wait: --chart "dbb": manifest "site" deploys no chart of that name (did you mean db?)');
    expect((await cli(['wait', path.join(dir, 'site.yaml'), '--group', 'infa'], { cwd: dir })).stderr).toContain('--group "infa": manifest "site" deploys no chart group of that name (did you mean infra?)');
  });

  test('--sync-status failed (a Helmfile postsync hook after a failed sync): exit 3 at once, nothing waited for', async () => {
    const r = await cli(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--sync-status=failed'], { cwd: dir });
    expect(r).toMatchObject({ code: 3, stdout: '', stderr: 'armada-cdk wait: the release of chart "db" failed to install or upgrade; not waiting\n' });
    expect((await cli(['wait', path.join(dir, 'site.yaml'), '--chart', 'none', '--sync-status=ok'], { cwd: dir })).code).toBe(0);
  });

  test('wait.resources: [] waits on nothing and needs no cluster', async () => {
    const r = await cli(['wait', path.join(dir, 'site.yaml'), '--chart', 'none'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('openstack/airship-none: wait.resources is empty, nothing to wait on');
    expect(r.stdout).toBe('');
  });
});

describe('armada-cdk wait against a cluster', () => {
  let api: FakeApiServer;
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    api = await FakeApiServer.start();
    dir = tmpdir();
    write(dir, 'site.yaml', SITE);
    env = { KUBECONFIG: kubeconfig(dir, api.url) };
  });
  afterEach(async () => {
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('ready pods: exit 0, progress on stderr, the labels of the chart selected, the kubeconfig used', async () => {
    api.script(PODS, { lists: [{ items: [pod('db-0', { labels: { application: 'db' } })], resourceVersion: '5' }] });
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db'], dir, env);
    expect(r.stderr).toContain('openstack/airship-db: ready');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(api.lists(PODS).map((q) => [q.query.get('labelSelector'), q.headers.authorization])).toEqual([['application=db', 'Bearer t0ken']]);
  });

  test('a plain-HTTP server without insecure-skip-tls-verify (client-node refuses it): exit 3 at once, saying nothing was asked of the cluster, why and what to do', async () => {
    const env = { KUBECONFIG: kubeconfig(dir, api.url, false) };
    const host = new URL(api.url).host;
    const why = `the kubeconfig's cluster 'fake' has a plain-HTTP server (http://${host}), which @kubernetes/client-node refuses unless the cluster sets insecure-skip-tls-verify: true. Give the server's https:// address, or, for a server without TLS, set it: kubectl config set-cluster fake --insecure-skip-tls-verify=true`;
    const cannot = (what: string) => `armada-cdk wait: cannot ${what}: no request can be sent to the cluster, because ${why}\n`;
    // Stopped at the release's revision: no warning about a wait that never starts, no "not ready".
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db'], dir, env);
    expect(r).toEqual({ code: 3, stdout: '', stderr: cannot('wait for Helm release openstack/airship-db') });
    // With --timeout the revision is not read: the wait starts, and its first request says the same.
    expect(await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--timeout', '5'], dir, env)).toEqual({
      code: 3,
      stdout: '',
      stderr: `openstack/airship-db: Waiting for pods (namespace=openstack, labels=application=db, required=true) for 5s\n${cannot('wait for Helm release openstack/airship-db')}`,
    });
    // A sequenced group stops at its first chart; the pre-upgrade deletes say what they could not do.
    expect(await child(['wait', path.join(dir, 'site.yaml'), '--group', 'infra'], dir, env)).toEqual({ code: 3, stdout: '', stderr: cannot('wait for Helm release openstack/airship-db') });
    expect(await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--pre-upgrade'], dir, env)).toEqual({ code: 3, stdout: '', stderr: cannot('run the pre-upgrade deletes of Helm release openstack/airship-db') });
    expect(api.requests).toHaveLength(0);
  });

  test('a pod not ready within a fresh --timeout: exit 3 naming it', async () => {
    api.script(PODS, { lists: [{ items: [pod('db-0', { labels: { application: 'db' }, ready: false })], resourceVersion: '5' }] });
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--timeout', '2'], dir, env);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('armada-cdk wait: Helm release openstack/airship-db is not ready');
    expect(r.stderr).toContain('db-0');
  });

  test('the deadline is shared with the release just deployed: a release that used the timeout fails at once', async () => {
    const deployed = helmRecord('airship-db', 2, 'deployed', new Date(Date.now() - 10_000));
    api.script(SECRETS, { lists: [{ items: [helmRecord('airship-db', 1, 'superseded', new Date(Date.now() - 100_000)), deployed], resourceVersion: '3' }] });
    api.script(`${SECRETS}/sh.helm.release.v1.airship-db.v2`, { lists: [{ status: 200, body: deployed }] });
    api.script(PODS, { lists: [{ items: [pod('db-0', { labels: { application: 'db' }, ready: false })], resourceVersion: '5' }] });
    const started = Date.now();
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db'], dir, env);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Timed out waiting for resource type=pod, namespace=openstack, labels=application=db');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(api.lists(SECRETS).map((q) => q.query.get('labelSelector'))).toEqual(['owner=helm,name=airship-db']);
  });

  test('no Helm release: the wait gets its whole timeout, and says so', async () => {
    api.script(PODS, { lists: [{ items: [pod('db-0', { labels: { application: 'db' } })], resourceVersion: '5' }] });
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db'], dir, env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: openstack/airship-db: no Helm release of that name in namespace openstack; the wait gets its whole 5s from now');
  });

  test('--group of a sequenced group: each chart in order, stopping at the first not ready', async () => {
    api.script(PODS, {
      lists: [
        { items: [pod('db-0', { labels: { application: 'db' }, ready: false })], resourceVersion: '5' },
      ],
    });
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--group', 'infra', '--timeout', '1'], dir, env);
    expect(r.code).toBe(3);
    // api was never waited for: the group stopped at db.
    expect(api.lists(PODS).every((q) => q.query.get('labelSelector') === 'application=db')).toBe(true);
  });
});

describe('armada-cdk wait --pre-upgrade', () => {
  let kube: FakeKube;
  let dir: string;
  beforeEach(async () => {
    kube = await FakeKube.start();
    dir = tmpdir();
    write(dir, 'site.yaml', SITE);
  });
  afterEach(async () => {
    await kube.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an installed release: deletes the jobs upgrade.pre.delete selects, and nothing else', async () => {
    kube.add(SECRETS, named('sh.helm.release.v1.airship-db.v1', { owner: 'helm', name: 'airship-db', status: 'deployed', version: '1' }));
    kube.add(JOBS, named('db-init', { component: 'init' }), named('db-sync', { component: 'sync' }));
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--pre-upgrade'], dir, { KUBECONFIG: kubeconfig(dir, kube.url) });
    expect(r.code).toBe(0);
    expect(kube.names(JOBS)).toEqual(['db-sync']);
    expect(r.stderr).toContain('openstack/airship-db: deleted job openstack/db-init');
  });

  test('a first install: deletes nothing, as Armada', async () => {
    kube.add(JOBS, named('db-init', { component: 'init' }));
    const r = await child(['wait', path.join(dir, 'site.yaml'), '--chart', 'db', '--pre-upgrade'], dir, { KUBECONFIG: kubeconfig(dir, kube.url) });
    expect(r.code).toBe(0);
    expect(kube.names(JOBS)).toEqual(['db-init']);
    expect(r.stderr).toContain('openstack/airship-db: the release is not deployed (not installed): Armada installs it without pre-upgrade actions');
  });
});
