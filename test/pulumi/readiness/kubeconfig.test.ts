import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { engineProblem } from '../../../src/pulumi/provider/readiness/kubeconfig';
import { FakeApiServer } from './fake-api-server';
import { NS, pod } from './fixtures';
import { REGISTER_TS } from '../../helpers/ts-child';

const PODS = `/api/v1/namespaces/${NS}/pods`;

let api: FakeApiServer;
let dir: string;
beforeEach(async () => {
  api = await FakeApiServer.start();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readiness-kubeconfig-'));
});
afterEach(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function kubeconfigYaml(server: string): string {
  // The current context points nowhere: the gate must use the `context` it is given.
  return [
    'apiVersion: v1',
    'kind: Config',
    'current-context: elsewhere',
    'clusters:',
    '- name: fake',
    '  cluster:',
    `    server: ${server}`,
    '    insecure-skip-tls-verify: true',
    '- name: elsewhere',
    '  cluster:',
    '    server: https://192.0.2.1:6443',
    'users:',
    '- name: ci',
    '  user:',
    '    token: real-token',
    'contexts:',
    '- name: fake',
    '  context: {cluster: fake, user: ci}',
    '- name: elsewhere',
    '  context: {cluster: elsewhere, user: ci}',
    '',
  ].join('\n');
}

it('talks to the cluster of a real KubeConfig given as YAML, as a path, or as an object', async () => {
  api.script(PODS, { lists: [{ items: [pod('bare-0')], resourceVersion: '7' }] });
  const file = path.join(dir, 'config');
  fs.writeFileSync(file, kubeconfigYaml(api.url));

  const script = path.join(__dirname, 'real-kubeconfig.script.ts');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', REGISTER_TS, script, file, NS],
    { cwd: path.resolve(__dirname, '../../..'), timeout: 30_000 },
  );

  const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as { way: string; results: { outcome: string }[] });
  expect(lines.map((l) => [l.way, l.results[0].outcome])).toEqual([
    ['yaml', 'ready'],
    ['path', 'ready'],
    ['object', 'ready'],
  ]);
  const lists = api.lists(PODS);
  expect(lists.map((r) => r.query.get('labelSelector'))).toEqual(['application=yaml', 'application=path', 'application=object']);
  expect(lists.map((r) => r.headers.authorization)).toEqual(['Bearer real-token', 'Bearer real-token', 'Bearer real-token']);
});

it('never quotes a malformed kubeconfig in its error, whether given as contents or as a file', async () => {
  const secret = 'eyJhbGciOiJSUzI1NiJ9.s3cr3t-token';
  const badIndent = ['apiVersion: v1', 'users:', '- name: ci', '  user:', `    token: ${secret}: oops`, '  : x', ''].join('\n');
  const unclosed = `{"users": [{"name": "ci", "user": {"token": "${secret}"}}], \n`;
  const noName = ['users:', '- user:', `    token: ${secret}`, ''].join('\n');
  const file = path.join(dir, 'broken');
  fs.writeFileSync(file, badIndent);
  const missing = path.join(dir, 'absent');

  const script = path.join(__dirname, 'malformed-kubeconfig.script.ts');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', REGISTER_TS, script, badIndent, unclosed, noName, file, missing],
    { cwd: path.resolve(__dirname, '../../..'), timeout: 30_000 },
  );
  const results = stdout.trim().split('\n').map((l) => JSON.parse(l) as { message: string; stack: string; cause: string | null });
  expect(results.map((r) => r.message)).toEqual([
    'The kubeconfig contents cannot be read: invalid YAML (bad indentation of a mapping entry) at line 5, column 45; its contents are not shown, as they may hold credentials.',
    'The kubeconfig contents cannot be read: invalid YAML (unexpected end of the stream within a flow collection) at line 2, column 1; its contents are not shown, as they may hold credentials.',
    'The kubeconfig contents cannot be read: users[0].name is missing; its contents are not shown, as they may hold credentials.',
    `The kubeconfig file ${file} cannot be read: invalid YAML (bad indentation of a mapping entry) at line 5, column 45; its contents are not shown, as they may hold credentials.`,
    `The kubeconfig file ${missing} cannot be read: cannot open it (ENOENT); its contents are not shown, as they may hold credentials.`,
  ]);
  for (const r of results) {
    expect(r.cause).toBeNull();
    expect(r.stack).not.toContain('s3cr3t');
  }
});

describe('a client-node that cannot run on this Node.js', () => {
  test('2.x before Node.js 22.19: says which version needs which Node.js, and what to install', () => {
    expect(engineProblem('2.0.1', '20.20.2')).toBe(
      '@kubernetes/client-node 2.0.1 needs Node.js 22.19.0 or later and this is Node.js 20.20.2; install @kubernetes/client-node@1 (Node.js 20 and later) or run on a newer Node.js',
    );
    expect(engineProblem('2.0.1', '22.18.9')).toMatch(/^@kubernetes\/client-node 2\.0\.1 needs Node\.js 22\.19\.0 or later and this is Node\.js 22\.18\.9;/);
  });

  test('2.x on a Node.js it runs on, 1.x anywhere, or nothing installed: no hint (the load error stands alone)', () => {
    for (const node of ['22.19.0', '22.20.1', '24.0.0']) expect(engineProblem('2.0.1', node)).toBeUndefined();
    expect(engineProblem('1.4.0', '20.0.0')).toBeUndefined();
    expect(engineProblem(undefined, '20.0.0')).toBeUndefined();
  });
});
