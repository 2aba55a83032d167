/**
 * What the pre-upgrade delete's dynamic provider does, as plain functions: Armada's
 * `PreUpdateActions.delete_resources` before `helm upgrade`, and nothing on a first install
 * (except when the deployment takes the release over, which upgrades it).
 */
import { SchemaVersion } from '../../model/spec';
import { COLLECTIONS, describeFailure, kubeRequest, KubeRequest, KubeResponse } from './kube-rest';
import type { KubeConfigLike } from './readiness';
import { labelSelector } from './readiness';
import { ClusterInputs, changedKeys, loadCluster, ProviderLog, pulumiLog } from './provider-support';

/** One `upgrade.pre.delete` item. */
export interface DeleteAction {
  readonly type: string;
  readonly labels?: Readonly<Record<string, string>> | undefined;
}

/** What is deleted before an upgrade of one release: fixed at program time. */
export interface PreDeleteTarget {
  readonly release: string;
  readonly namespace: string;
  readonly actions: readonly DeleteAction[];
  /** v1: `type: job` also deletes CronJobs. */
  readonly schemaVersion: SchemaVersion;
  /** How long the deletes may take, in seconds (the chart's wait timeout, as Armada passes it). */
  readonly timeoutSeconds: number;
}

/** The resource's inputs. */
export interface PreDeleteInputs {
  readonly target: PreDeleteTarget;
  /**
   * Digest of every input of the Release (chart contents, values, flags). It changes exactly when
   * the Release is upgraded, which is when Armada runs its pre-upgrade actions.
   */
  readonly fingerprint: string;
  readonly cluster?: ClusterInputs | undefined;
  /**
   * The Release takes over a release installed outside Pulumi (`ManifestDeploymentArgs.takeover`):
   * the create comes right before the upgrade the takeover is, so it deletes. Not compared.
   */
  readonly takeover?: boolean | undefined;
}

/** The resource's state. */
export interface PreDeleteState {
  readonly target: PreDeleteTarget;
  readonly fingerprint: string;
  /** `kind namespace/name` of what the last upgrade deleted. */
  readonly deleted: readonly string[];
}

/** What the deletes need from the world; tests replace any of them. */
export interface PreDeleteDependencies {
  readonly loadCluster: (cluster: ClusterInputs | undefined) => Promise<KubeConfigLike>;
  readonly request: (kubeConfig: KubeConfigLike, request: KubeRequest) => Promise<KubeResponse>;
  readonly log: ProviderLog;
  readonly now: () => number;
  /** Pause between two checks that a deleted object is gone. */
  readonly pollMs: number;
}

/**
 * Create: the release is being installed, and Armada runs pre-upgrade actions on upgrades only;
 * or it is being taken over, which upgrades it: then delete, as before any upgrade.
 */
export async function createPreDelete(inputs: PreDeleteInputs, dependencies: Partial<PreDeleteDependencies> = {}): Promise<PreDeleteState> {
  if (inputs.takeover !== true) return { target: inputs.target, fingerprint: inputs.fingerprint, deleted: [] };
  const deps = withDefaults(dependencies);
  const deleted = await deleteBeforeUpgrade(inputs.target, await deps.loadCluster(inputs.cluster), deps);
  return { target: inputs.target, fingerprint: inputs.fingerprint, deleted };
}

/** Update: delete when the Release is about to be upgraded (its fingerprint changed), else only record the new inputs. */
export async function updatePreDelete(olds: Partial<PreDeleteState>, news: PreDeleteInputs, dependencies: Partial<PreDeleteDependencies> = {}): Promise<PreDeleteState> {
  if (olds.fingerprint === news.fingerprint) return { target: news.target, fingerprint: news.fingerprint, deleted: olds.deleted ?? [] };
  const deps = withDefaults(dependencies);
  const kubeConfig = await deps.loadCluster(news.cluster);
  const deleted = await deleteBeforeUpgrade(news.target, kubeConfig, deps);
  return { target: news.target, fingerprint: news.fingerprint, deleted };
}

/**
 * The resource's `diff`. A new release name or namespace is a new Release, installed rather than
 * upgraded: replace (the replacement's create deletes nothing).
 */
export function diffPreDelete(olds: Readonly<Record<string, any>>, news: Readonly<Record<string, any>>): { changes: boolean; replaces?: string[] | undefined } {
  const changed = changedKeys(olds, news, ['target', 'fingerprint']);
  if (changed.length === 0) return { changes: false };
  const moved = olds.target?.release !== news.target?.release || olds.target?.namespace !== news.target?.namespace;
  return moved ? { changes: true, replaces: ['target'] } : { changes: true };
}

const KIND_NAMES: Readonly<Record<string, string>> = { job: 'job', cronjob: 'cron job', pod: 'pod' };

/**
 * Deletes, for each action in order, every object of its kind that matches its labels in the
 * namespace (no labels: all of them), with foreground propagation, and waits until each is gone,
 * as Armada does. `job` also deletes CronJobs for v1 charts. Unknown types are logged and skipped.
 * @returns `kind namespace/name` of each deleted object
 * @throws Error when a list or delete is refused, or an object is still there at the deadline
 */
export async function deleteBeforeUpgrade(target: PreDeleteTarget, kubeConfig: KubeConfigLike, dependencies: Partial<PreDeleteDependencies> = {}): Promise<string[]> {
  const deps = withDefaults(dependencies);
  const deadline = deps.now() + target.timeoutSeconds * 1000;
  const id = `${target.namespace}/${target.release}`;
  const deleted: string[] = [];
  for (const action of target.actions) {
    const selector = labelSelector(action.labels ?? {});
    const kinds = action.type === 'job' ? (target.schemaVersion < SchemaVersion.V2 ? ['job', 'cronjob'] : ['job']) : KIND_NAMES[action.type] ? [action.type] : [];
    if (kinds.length === 0) {
      deps.log.warn(`${id}: upgrade.pre.delete type "${action.type}" is not one Armada deletes (job, cronjob, pod); nothing deleted for it`);
      continue;
    }
    for (const kind of kinds) {
      const names = await listNames(kubeConfig, kind, target.namespace, selector, deps);
      if (kind === 'cronjob' && action.type === 'job' && names.length > 0) {
        deps.log.warn(`${id}: deleting cronjobs via \`type: job\` is deprecated, use \`type: cronjob\` instead`);
      }
      for (const name of names) {
        deps.log.info(`${id}: deleting ${KIND_NAMES[kind]} ${name} before the upgrade`);
        await deleteAndWait(kubeConfig, kind, target.namespace, name, deadline, deps);
        deleted.push(`${kind} ${target.namespace}/${name}`);
      }
    }
  }
  return deleted;
}

/** Names of the objects of `kind` matching `selector` in `namespace`. */
export async function listNames(kubeConfig: KubeConfigLike, kind: string, namespace: string, selector: string, deps: Pick<PreDeleteDependencies, 'request'>): Promise<string[]> {
  const path = COLLECTIONS[kind as keyof typeof COLLECTIONS](namespace);
  const res = await deps.request(kubeConfig, { method: 'GET', path, query: { labelSelector: selector || undefined } });
  if (res.status !== 200) throw new Error(`cannot list ${kind}s in namespace ${namespace} (labels: ${selector || 'none'}): ${describeFailure(res)}`);
  return ((res.body?.items ?? []) as { metadata?: { name?: string | undefined } }[]).map((i) => i.metadata?.name).filter((n): n is string => typeof n === 'string');
}

/** DELETE with foreground propagation, then wait until the object is gone (Armada's `_delete_item_action`). */
export async function deleteAndWait(
  kubeConfig: KubeConfigLike,
  kind: string,
  namespace: string,
  name: string,
  deadline: number,
  deps: Pick<PreDeleteDependencies, 'request' | 'now' | 'pollMs'>,
): Promise<void> {
  const path = `${COLLECTIONS[kind as keyof typeof COLLECTIONS](namespace)}/${encodeURIComponent(name)}`;
  const res = await deps.request(kubeConfig, {
    method: 'DELETE',
    path,
    body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' },
  });
  if (res.status === 404) return;
  if (res.status < 200 || res.status >= 300) throw new Error(`cannot delete ${KIND_NAMES[kind] ?? kind} ${namespace}/${name}: ${describeFailure(res)}`);
  for (;;) {
    const check = await deps.request(kubeConfig, { method: 'GET', path });
    if (check.status === 404) return;
    if (check.status !== 200) throw new Error(`cannot check that ${KIND_NAMES[kind] ?? kind} ${namespace}/${name} is deleted: ${describeFailure(check)}`);
    if (deps.now() >= deadline) {
      throw new Error(`Reached timeout while waiting to delete ${KIND_NAMES[kind] ?? kind}: name=${name}, namespace=${namespace}`);
    }
    await new Promise((r) => setTimeout(r, Math.min(deps.pollMs, Math.max(0, deadline - deps.now()))));
  }
}

function withDefaults(d: Partial<PreDeleteDependencies>): PreDeleteDependencies {
  return {
    loadCluster: d.loadCluster ?? loadCluster,
    request: d.request ?? kubeRequest,
    log: d.log ?? pulumiLog(),
    now: d.now ?? Date.now,
    pollMs: d.pollMs ?? 1000,
  };
}
