/**
 * `helm test` as the readiness gate runs it once the release is ready, as plain functions:
 * Armada's `Test.test_release` (delete the previous test pods selected by `wait.labels`, then
 * `helm test`), through the helm CLI as Armada does. When it runs is the gate's `testsDue`.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { COLLECTIONS, describeFailure, kubeRequest, KubeRequest, KubeResponse } from './kube-rest';
import { deleteAndWait } from './pre-upgrade-delete-run';
import type { KubeConfigLike } from './readiness';
import { isHelmTestPod, labelSelector } from './readiness';
import { ClusterInputs, loadCluster, ProviderLog, pulumiLog, ReleaseState } from './provider-support';

/** What is tested: fixed at program time. */
export interface TestTarget {
  readonly release: string;
  readonly namespace: string;
  /** `test.timeout` in seconds. */
  readonly timeoutSeconds: number;
  /** `wait.labels`: they select the old test pods to delete first (none are deleted without labels). */
  readonly waitLabels: Readonly<Record<string, string>>;
  /** The helm executable. */
  readonly helmCommand: string;
}

/** What a test run is given. */
export interface TestInputs {
  readonly target: TestTarget;
  /** The Release's `status` output. */
  readonly release?: ReleaseState | undefined;
  readonly cluster?: ClusterInputs | undefined;
}

/** How a test run ended, when it passed. */
export interface TestState {
  readonly target: TestTarget;
  readonly release?: ReleaseState | undefined;
  /** When the tests passed (ISO 8601). */
  readonly passedAt: string;
}

/** What `helm test` printed and how it ended. */
export interface HelmResult {
  readonly code: number;
  readonly output: string;
}

/** What the test run needs from the world; tests replace any of them. */
export interface TestDependencies {
  readonly loadCluster: (cluster: ClusterInputs | undefined) => Promise<KubeConfigLike>;
  readonly request: (kubeConfig: KubeConfigLike, request: KubeRequest) => Promise<KubeResponse>;
  readonly runHelm: (command: string, args: readonly string[], timeoutMs: number) => Promise<HelmResult>;
  readonly log: ProviderLog;
  readonly now: () => number;
  readonly pollMs: number;
}

/** How long Armada gives the deletion of old test pods (its Kubernetes default). */
const TEST_POD_DELETE_SECONDS = 300;

/**
 * Runs the release's tests.
 * @throws Error with helm's output when a test fails, or saying how to get helm when it is missing
 */
export async function runHelmTest(inputs: TestInputs, dependencies: Partial<TestDependencies> = {}): Promise<TestState> {
  const deps = withDefaults(dependencies);
  const { target } = inputs;
  const id = `${target.namespace}/${target.release}`;
  if (Object.keys(target.waitLabels).length > 0) {
    // Armada logs a failure here and tests anyway: a leftover pod only matters if its name clashes.
    try {
      await deleteOldTestPods(target, await deps.loadCluster(inputs.cluster), deps);
    } catch (e) {
      deps.log.warn(`${id}: could not delete the previous test pods: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  deps.log.info(`${id}: running helm test with timeout=${target.timeoutSeconds}s`);
  const kubeconfig = await kubeconfigFile(inputs.cluster);
  try {
    const args = ['test', target.release, '--namespace', target.namespace, '--timeout', `${target.timeoutSeconds}s`, ...kubeconfig.args];
    let result: HelmResult;
    try {
      // Helm enforces the timeout itself; ours only catches a helm that hangs past it.
      result = await deps.runHelm(target.helmCommand, args, (target.timeoutSeconds + 60) * 1000);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error(`${id}: test.enabled needs the helm CLI (Helm 3) on the machine running pulumi up, and "${target.helmCommand}" was not found; install helm, set ManifestDeployment's helmCommand, or disable the chart's tests`);
      }
      throw e;
    }
    if (result.code !== 0) throw new Error(`helm test of ${id} failed (exit code ${result.code}):\n${result.output.trim()}`);
    deps.log.info(`${id}: tests passed`);
    return { target, ...(inputs.release !== undefined ? { release: inputs.release } : {}), passedAt: new Date(deps.now()).toISOString() };
  } finally {
    await kubeconfig.cleanup();
  }
}

/** Deletes the pods that are Helm test pods among those matching `wait.labels` (Armada's `delete_test_pods`). */
export async function deleteOldTestPods(target: TestTarget, kubeConfig: KubeConfigLike, deps: Pick<TestDependencies, 'request' | 'now' | 'pollMs' | 'log'>): Promise<string[]> {
  const selector = labelSelector(target.waitLabels);
  const res = await deps.request(kubeConfig, { method: 'GET', path: COLLECTIONS.pod(target.namespace), query: { labelSelector: selector } });
  if (res.status !== 200) throw new Error(`cannot list pods in namespace ${target.namespace} (labels: ${selector}): ${describeFailure(res)}`);
  const pods = ((res.body?.items ?? []) as { metadata?: { name?: string | undefined; annotations?: Record<string, string> | undefined } }[]).filter((p) => isHelmTestPod(p as never));
  const deadline = deps.now() + TEST_POD_DELETE_SECONDS * 1000;
  const names: string[] = [];
  for (const pod of pods) {
    const name = pod.metadata?.name;
    if (!name) continue;
    deps.log.info(`${target.namespace}/${target.release}: deleting previous test pod ${name}`);
    await deleteAndWait(kubeConfig, 'pod', target.namespace, name, deadline, deps);
    names.push(name);
  }
  return names;
}

/** helm's `--kubeconfig`/`--kube-context` for the cluster inputs; contents are written to a private temp file. */
async function kubeconfigFile(cluster: ClusterInputs | undefined): Promise<{ args: string[]; cleanup: () => Promise<void> }> {
  const args: string[] = [];
  let cleanup: () => Promise<void> = async () => undefined;
  const config = cluster?.kubeconfig;
  if (config) {
    if (config.includes('\n') || config.trimStart().startsWith('{')) {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'armada-cdk-helm-'));
      const file = path.join(dir, 'kubeconfig');
      await fs.writeFile(file, config, { mode: 0o600 });
      args.push('--kubeconfig', file);
      cleanup = () => fs.rm(dir, { recursive: true, force: true });
    } else {
      args.push('--kubeconfig', config.startsWith('~/') ? path.join(os.homedir(), config.slice(2)) : config);
    }
  }
  if (cluster?.context) args.push('--kube-context', cluster.context);
  return { args, cleanup };
}

/** Runs helm (no shell), collecting stdout and stderr together as a user would see them. */
export function spawnHelm(command: string, args: readonly string[], timeoutMs: number): Promise<HelmResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let timedOut = false;
    // Our own timer rather than spawn's `timeout`, which outlives a helm that failed to start.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const note = timedOut ? `\n(helm was stopped after ${timeoutMs / 1000}s)` : signal ? `\n(helm was stopped by ${signal})` : '';
      resolve({ code: code ?? 128, output: output + note });
    });
  });
}

function withDefaults(d: Partial<TestDependencies>): TestDependencies {
  return {
    loadCluster: d.loadCluster ?? loadCluster,
    request: d.request ?? kubeRequest,
    runHelm: d.runHelm ?? spawnHelm,
    log: d.log ?? pulumiLog(),
    now: d.now ?? Date.now,
    pollMs: d.pollMs ?? 1000,
  };
}
