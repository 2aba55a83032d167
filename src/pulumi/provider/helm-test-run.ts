/**
 * `helm test` as the readiness gate runs it once the release is ready, as plain functions:
 * Armada's `Test.test_release` (delete the previous test pods selected by `wait.labels`, then
 * `helm test`), through the helm CLI (Helm 3 or 4) as Armada does. When it runs is the gate's
 * `testsDue`.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readReleaseRecord } from './helm-record';
import { COLLECTIONS, describeFailure, kubeRequest, KubeRequest, KubeResponse } from './kube-rest';
import { deleteAndWait } from './pre-upgrade-delete-run';
import type { KubeConfigLike } from './readiness';
import { isHelmTestPod, labelSelector } from './readiness';
import { ClusterInputs, loadCluster, ProviderLog, pulumiLog, ReleaseState } from './provider-support';
import { printable } from '../../model/safe-text';

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
  /**
   * Helm's storage driver, as the Kubernetes provider uses it: helm gets it as `HELM_DRIVER`.
   * @default - helm's own (`HELM_DRIVER` of the environment, else `secret`)
   */
  readonly helmDriver?: string | undefined;
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
  /** Runs helm; `env` is added to the environment. */
  readonly runHelm: (command: string, args: readonly string[], timeoutMs: number, env: Readonly<Record<string, string>>) => Promise<HelmResult>;
  readonly log: ProviderLog;
  readonly now: () => number;
  readonly pollMs: number;
}

/** How long Armada gives the deletion of old test pods (its Kubernetes default). */
const TEST_POD_DELETE_SECONDS = 300;

/** The end of each failed test pod's log a failure shows, as `kubectl logs --tail` would. */
export const FAILED_TEST_LOG_LINES = 50;
/** The most bytes of one failed test pod's log read. */
const FAILED_TEST_LOG_BYTES = 16 * 1024;

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
      // Helm enforces the timeout itself; ours only catches a helm that hangs past it. The driver
      // is the provider's: with another one helm would look for the release where it is not.
      result = await deps.runHelm(target.helmCommand, args, (target.timeoutSeconds + 60) * 1000, inputs.helmDriver !== undefined ? { HELM_DRIVER: inputs.helmDriver } : {});
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error(`${id}: test.enabled needs the helm CLI (Helm 3 or 4) on the machine running pulumi up, and "${target.helmCommand}" was not found; install helm, set ManifestDeployment's helmCommand, or disable the chart's tests`);
      }
      throw e;
    }
    if (result.code !== 0) {
      const logs = await failedTestLogs(inputs, deps);
      throw new Error(`helm test of ${id} failed (exit code ${result.code}):\n${result.output.trim()}${logs}`);
    }
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

/**
 * The end of the logs of the release's test pods that did not succeed, read after `helm test`
 * failed, as `\n\nPOD LOGS: name\n...` sections; a note instead where they cannot be read.
 * Not helm's `--logs`: it reads every test pod's log after the run and turns a log it cannot read
 * (a pod its `hook-delete-policy` removed, a node that serves no logs) into a failure of tests
 * that passed. The pods are the test hooks of Helm's record of the revision, which `helm test`
 * updates with each hook's last phase.
 */
export async function failedTestLogs(inputs: TestInputs, deps: Pick<TestDependencies, 'loadCluster' | 'request'>): Promise<string> {
  const { target } = inputs;
  const revision = inputs.release?.revision;
  if (typeof revision !== 'number') return '';
  try {
    const kubeConfig = await deps.loadCluster(inputs.cluster);
    const record = await readReleaseRecord(kubeConfig, target.namespace, target.release, revision, deps.request);
    const failed = (record.hooks ?? []).filter((h) => h.kind === 'Pod' && typeof h.name === 'string' && (h.events ?? []).includes('test') && h.last_run?.phase !== 'Succeeded');
    let out = '';
    for (const hook of failed) {
      const name = hook.name!;
      const res = await deps.request(kubeConfig, {
        method: 'GET',
        path: `${COLLECTIONS.pod(target.namespace)}/${encodeURIComponent(name)}/log`,
        query: { tailLines: String(FAILED_TEST_LOG_LINES), limitBytes: String(FAILED_TEST_LOG_BYTES) },
        maxBodyBytes: FAILED_TEST_LOG_BYTES + 4096,
      });
      const text = res.status === 200 ? (res.text ?? '').trimEnd() : `(its log cannot be read: ${describeFailure(res)})`;
      // The pod's own output, which may carry terminal sequences: each line made printable.
      out += `\n\nPOD LOGS: ${printable(name)} (phase ${printable(hook.last_run?.phase ?? 'unknown')}, last ${FAILED_TEST_LOG_LINES} lines)\n${text.split('\n').map(printable).join('\n')}`;
    }
    return out;
  } catch (e) {
    return `\n\n(the test pods' logs cannot be read: ${printable(e instanceof Error ? e.message : String(e))})`;
  }
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

/** Runs helm (no shell), collecting stdout and stderr together as a user would see them; `env` is added to the environment. */
export function spawnHelm(command: string, args: readonly string[], timeoutMs: number, env: Readonly<Record<string, string>> = {}): Promise<HelmResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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
