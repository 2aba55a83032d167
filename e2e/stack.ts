/**
 * The running end-to-end stack, as the tests see it: the kubeconfig, the Helm and kubectl binaries,
 * the chart sources served on 127.0.0.1, and helpers to run the tools against the stack. `npm run
 * e2e` starts the stack and passes its description to jest in `ARMADA_CDK_E2E_STACK`.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { endpointFromKubeconfig, KubeEndpoint, kubeOk, kubeRequest } from './kube-http';

/** What the harness writes for the tests (`stack.json` in the run's directory). */
export interface StackDescription {
  /** The run's temporary directory; tests may write below `work/`. */
  readonly dir: string;
  readonly kubeconfig: string;
  readonly server: string;
  readonly nodes: readonly string[];
  readonly binaries: {
    readonly helm3: string;
    readonly helm4: string;
    readonly kubectl: string;
    readonly etcd: string;
    readonly kubeApiserver: string;
    readonly kubeControllerManager: string;
    readonly kubeScheduler: string;
    readonly kwok: string;
  };
  /** The static Helm repository of the fixture charts: its URL and each chart's version. */
  readonly helmRepository: { readonly url: string; readonly charts: Readonly<Record<string, string>> };
  /** The git server: its base URL and the clone URL of each fixture repository. */
  readonly git: { readonly url: string; readonly repositories: Readonly<Record<string, string>> };
  /** The fixture charts as directories (a packed-ready copy, dependencies vendored). */
  readonly chartsDir: string;
  /** The harness's control endpoint (restart the API server). */
  readonly control: { readonly url: string; readonly token: string };
}

export const STACK_ENV = 'ARMADA_CDK_E2E_STACK';

let cached: StackDescription | undefined;

/** The running stack; throws when the tests were not started by `npm run e2e`. */
export function stack(): StackDescription {
  if (cached) return cached;
  const file = process.env[STACK_ENV];
  if (!file) throw new Error(`${STACK_ENV} is not set: run the end-to-end suite with \`npm run e2e\`, which starts the stack first.`);
  cached = JSON.parse(fs.readFileSync(file, 'utf8')) as StackDescription;
  return cached;
}

/** The API server with the admin's credentials, for {@link kubeRequest} and {@link kubeOk}. */
export function endpoint(): KubeEndpoint {
  return endpointFromKubeconfig(stack().kubeconfig);
}

export { kubeOk, kubeRequest };

/** How a tool run ended. */
export interface ToolResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runTool}. */
export interface ToolOptions {
  /** Written to the tool's standard input. @default - nothing */
  readonly input?: string | undefined;
  /** Resolve with a failing result instead of rejecting. @default false */
  readonly allowFailure?: boolean | undefined;
  /** Killed after this long. @default 300000 */
  readonly timeoutMs?: number | undefined;
  readonly cwd?: string | undefined;
  /** Added to the environment (which has KUBECONFIG and Helm's homes set). @default - none */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

/** The environment every tool gets: the stack's kubeconfig, and Helm's state inside the run's directory. */
export function toolEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const s = stack();
  const home = path.join(s.dir, 'helm-home');
  return {
    ...process.env,
    KUBECONFIG: s.kubeconfig,
    HELM_CACHE_HOME: path.join(home, 'cache'),
    HELM_CONFIG_HOME: path.join(home, 'config'),
    HELM_DATA_HOME: path.join(home, 'data'),
    ...extra,
  };
}

/** Runs a binary (a path, or `helm3`, `helm4`, `kubectl`) against the stack. */
export function runTool(tool: 'helm3' | 'helm4' | 'kubectl' | string, args: readonly string[], options: ToolOptions = {}): Promise<ToolResult> {
  const s = stack();
  const file = tool === 'helm3' || tool === 'helm4' || tool === 'kubectl' ? s.binaries[tool] : tool;
  return new Promise((resolve, reject) => {
    const child = spawn(file, [...args], { cwd: options.cwd ?? s.dir, env: toolEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`Cannot run ${file}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const result = { code: code ?? (signal ? 128 : 1), stdout, stderr };
      if (result.code !== 0 && !options.allowFailure) {
        reject(new Error(`${path.basename(file)} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${stderr || stdout}`));
      } else resolve(result);
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Stops the API server and starts it again (same port and data); resolves once it serves again. */
export async function restartApiServer(downMs = 0): Promise<void> {
  const { control } = stack();
  const res = await fetch(`${control.url}restart-apiserver?downMs=${downMs}`, { method: 'POST', headers: { 'x-e2e-token': control.token } });
  if (!res.ok) throw new Error(`restarting the API server failed: ${res.status} ${await res.text()}`);
}

/**
 * Creates a namespace named `<prefix>-<random>` and returns its name once its `default`
 * ServiceAccount exists (the API server refuses pods without one until the controller made it).
 */
export async function createNamespace(prefix: string): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  const ep = endpoint();
  await kubeOk(ep, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  const end = Date.now() + 30_000;
  while ((await kubeRequest(ep, 'GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status !== 200) {
    if (Date.now() > end) throw new Error(`namespace ${name}: its default ServiceAccount did not appear in 30 s (is kube-controller-manager running?)`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return name;
}
