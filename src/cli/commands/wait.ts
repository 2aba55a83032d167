/**
 * `armada-cdk wait`: one chart's (or one group's) Armada wait against a cluster, as a command any
 * pipeline can run (Helmfile's postsync hook, a CI step). The wait is the Pulumi readiness gate's
 * own (`checkReadiness`: Armada's resource waits, the deadline shared with the release), and the
 * tests and pre-upgrade deletes are the gate's and the pre-delete resource's own functions.
 */
import { suggest } from '../../model/diagnostics';
import { buildPlan, Plan, PlannedRelease } from '../../model/plan';
import { safeText } from '../../model/safe-text';
import type { ChartSpec } from '../../model/spec';
import type { KubeConfigLike } from '../../pulumi/provider/readiness';
import type { ProviderLog } from '../../pulumi/provider/provider-support';
import { flag, parse, str } from '../args';
import { finishReport, INPUT_HELP, INPUT_OPTIONS, SITE_HELP, SITE_OPTIONS, inputFailed, readManifest, REPORT_HELP, REPORT_OPTIONS, reportOptions } from '../common';
import { CliIo, EXIT, UsageError } from '../io';

/** The exit code when Armada would not proceed: something is not ready, or a test or delete failed. */
export const EXIT_NOT_READY = 3;

export const HELP = `Usage: armada-cdk wait (FILE... | --site NAME [--repo DIR]) (--chart NAME | --group NAME) [options]

Runs Armada's wait for a chart that is deployed: the resources of its wait.resources (Armada's
defaults when absent), selected by their labels, each ready by Armada's rule for its type
(min_ready, pods of jobs and Helm tests skipped, allowAsyncUpdates), within wait.timeout. The
wait shares its deadline with the release's last install or upgrade (Helm's record of it), as
Armada's does: when the release has just used up the timeout, the wait fails at once; a release
deployed earlier gets the whole timeout from now. It is the same code as the readiness gate of
the Pulumi target. Exits 0 when Armada would go on, ${EXIT_NOT_READY} with what is not ready when it would
fail. Progress goes to stderr.

Options:
  --chart NAME          the chart to wait for (its armada/Chart metadata.name)
  --group NAME          every chart of the chart group, as Armada waits for them: one after
                        another for a sequenced group, all at once otherwise
  --kubeconfig FILE     the kubeconfig (default: KUBECONFIG, then ~/.kube/config)
  --context NAME        the kubeconfig context (default: its current context)
  --timeout SECONDS     wait this long from now, instead of sharing the release's deadline
  --test                then run helm test for each chart with test.enabled, as Armada does
                        (the previous test pods selected by wait.labels deleted first)
  --helm COMMAND        the helm executable of --test (default: helm)
  --pre-upgrade         instead of waiting: run the chart's upgrade.pre.delete when its release
                        is installed already (Armada's upgrade path), and nothing on a first
                        install; each object is deleted in the foreground and waited for
  --sync-status ok|failed
                        how the release's install or upgrade ended (Helmfile's postsync hooks
                        say it): failed exits ${EXIT_NOT_READY} at once, as Armada does not wait for a
                        release that failed
${INPUT_HELP}
${SITE_HELP}
${REPORT_HELP}

Exit codes: 0 ready (or nothing to do), 1 invalid input, 2 usage error, ${EXIT_NOT_READY} not ready (or a
test or a delete failed).

Examples:
  armada-cdk wait site.yaml --chart mariadb
  armada-cdk wait --site airskiff --repo treasuremap --group openstack-keystone --test
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('wait', argv, {
    ...INPUT_OPTIONS,
    ...SITE_OPTIONS,
    chart: { type: 'string' },
    group: { type: 'string' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    timeout: { type: 'string' },
    test: { type: 'boolean' },
    helm: { type: 'string' },
    'pre-upgrade': { type: 'boolean' },
    'sync-status': { type: 'string', choices: ['ok', 'failed'] },
    ...REPORT_OPTIONS,
  });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const chart = str(args, 'chart');
  const group = str(args, 'group');
  if ((chart === undefined) === (group === undefined)) throw new UsageError(chart === undefined ? 'give --chart NAME or --group NAME' : 'give --chart or --group, not both', 'wait');
  const timeout = str(args, 'timeout');
  if (timeout !== undefined && !/^[1-9]\d{0,6}$/.test(timeout)) throw new UsageError(`--timeout must be a whole number of seconds, 1 or more; received ${JSON.stringify(timeout)}`, 'wait');
  const preUpgrade = flag(args, 'pre-upgrade');
  if (preUpgrade && (flag(args, 'test') || timeout !== undefined)) throw new UsageError(`--pre-upgrade deletes and does not wait; it takes no --${flag(args, 'test') ? 'test' : 'timeout'}`, 'wait');
  if (str(args, 'helm') !== undefined && !flag(args, 'test')) throw new UsageError('--helm goes with --test', 'wait');
  const report = reportOptions(args, 'wait');
  if (str(args, 'sync-status') === 'failed') {
    io.stderr.write(`armada-cdk wait: the release of ${chart !== undefined ? `chart ${JSON.stringify(chart)}` : `group ${JSON.stringify(group)}`} failed to install or upgrade; not waiting\n`);
    return EXIT_NOT_READY;
  }
  const r = await readManifest(args, io, 'wait');
  if ((await inputFailed(io, r, report)) || !(await finishReport(io, r.diagnostics, report))) return EXIT.INVALID;
  const spec = r.spec!;
  const plan = buildPlan(spec);
  const selected = select(plan, chart, group);
  if ('problem' in selected) return io.stderr.write(`armada-cdk wait: ${selected.problem}\n`), EXIT.INVALID;

  const charts = new Map<string, ChartSpec>();
  for (const c of spec.charts) if (!charts.has(c.name)) charts.set(c.name, c);
  const log: ProviderLog = {
    info: (m) => void io.stderr.write(`${safeText(m)}\n`),
    warn: (m) => void io.stderr.write(`warning: ${safeText(m)}\n`),
  };
  const cluster = { kubeconfig: str(args, 'kubeconfig'), context: str(args, 'context') };
  let kube: Promise<KubeConfigLike> | undefined;
  const kubeConfig = () => {
    if (kube === undefined) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the cluster client loads for a run that needs it
      const { resolveKubeConfig } = require('../../pulumi/provider/readiness') as typeof import('../../pulumi/provider/readiness');
      kube = resolveKubeConfig(cluster.kubeconfig, cluster.context);
    }
    return kube;
  };
  const options: ChartWaitOptions = { log, kubeConfig, cluster, timeoutSeconds: timeout === undefined ? undefined : Number(timeout), test: flag(args, 'test'), helm: str(args, 'helm') ?? 'helm' };
  const one = (rel: PlannedRelease) => (preUpgrade ? preUpgradeDelete(rel, charts.get(rel.chart)!, options) : waitChart(rel, charts.get(rel.chart)!, options));
  let failures: string[];
  if (selected.parallel) {
    failures = (await Promise.all(selected.releases.map(one))).filter((f): f is string => f !== undefined);
  } else {
    failures = [];
    for (const rel of selected.releases) {
      const f = await one(rel);
      // A sequenced group stops at the first chart that is not ready, as Armada does.
      if (f !== undefined) {
        failures.push(f);
        break;
      }
    }
  }
  if (failures.length > 0) {
    for (const f of failures) io.stderr.write(`armada-cdk wait: ${safeText(f)}\n`);
    return EXIT_NOT_READY;
  }
  return EXIT.OK;
}

/** The releases to wait for, in the plan's order, and whether they are waited on at once. */
function select(plan: Plan, chart: string | undefined, group: string | undefined): { releases: PlannedRelease[]; parallel: boolean } | { problem: string } {
  if (chart !== undefined) {
    const release = plan.releases.find((r) => r.chart === chart);
    if (release !== undefined) return { releases: [release], parallel: false };
    const hint = suggest(chart, new Set(plan.releases.map((r) => r.chart)));
    return { problem: `--chart ${JSON.stringify(chart)}: manifest ${JSON.stringify(plan.manifest)} deploys no chart of that name${hint ? ` (did you mean ${hint}?)` : ''}` };
  }
  const steps = plan.steps.filter((s) => s.group === group);
  if (steps.length === 0) {
    const hint = suggest(group!, new Set(plan.steps.map((s) => s.group)));
    return { problem: `--group ${JSON.stringify(group)}: manifest ${JSON.stringify(plan.manifest)} deploys no chart group of that name${hint ? ` (did you mean ${hint}?)` : ''}` };
  }
  // A group listed twice by the manifest is deployed twice; its charts are waited for once.
  const seen = new Set<string>();
  const releases = steps.flatMap((s) => s.releases).filter((r) => !seen.has(r.chart) && seen.add(r.chart));
  return { releases, parallel: !steps[0].sequenced };
}

interface ChartWaitOptions {
  readonly log: ProviderLog;
  readonly kubeConfig: () => Promise<KubeConfigLike>;
  readonly cluster: { readonly kubeconfig?: string | undefined; readonly context?: string | undefined };
  /** A fresh budget of this many seconds, instead of the release's deadline. */
  readonly timeoutSeconds?: number | undefined;
  readonly test: boolean;
  readonly helm: string;
}

/** Waits for one release (then tests it); undefined when Armada would go on, else why not. */
async function waitChart(rel: PlannedRelease, chart: ChartSpec, o: ChartWaitOptions): Promise<string | undefined> {
  /* eslint-disable @typescript-eslint/no-require-imports -- the cluster code loads for a run that needs it */
  const { checkReadiness } = require('../../pulumi/provider/readiness-gate-run') as typeof import('../../pulumi/provider/readiness-gate-run');
  const { latestRevision } = require('./wait-release') as typeof import('./wait-release');
  const { KubeconfigRefusedError } = require('../../pulumi/provider/readiness/errors') as typeof import('../../pulumi/provider/readiness/errors');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const id = `${rel.namespace}/${rel.name}`;
  const fresh = o.timeoutSeconds !== undefined;
  let revision: number | undefined;
  if (!fresh && rel.waitResources.length > 0) {
    try {
      revision = (await latestRevision(await o.kubeConfig(), rel.namespace, rel.name))?.revision;
      if (revision === undefined) o.log.warn(`${id}: no Helm release of that name in namespace ${rel.namespace}; the wait gets its whole ${rel.waitTimeout}s from now`);
    } catch (e) {
      // Nothing can be read from the cluster: no wait either, and no word of its budget.
      if (e instanceof KubeconfigRefusedError) return e.cannot(`wait for Helm release ${id}`);
      // As the gate does when it cannot read the release: the wait gets its whole budget.
      o.log.warn(`${id}: cannot read the release's revision (${messageOf(e)}); the wait gets its whole ${rel.waitTimeout}s from now instead of sharing the deadline with the release`);
    }
  }
  try {
    await checkReadiness(
      {
        target: { release: rel.name, namespace: rel.namespace, resources: rel.waitResources, schemaVersion: rel.schemaVersion, timeoutSeconds: o.timeoutSeconds ?? rel.waitTimeout, sharesDeadline: !fresh },
        ...(revision !== undefined ? { release: { revision } } : {}),
      },
      { loadCluster: o.kubeConfig, log: o.log },
    );
  } catch (e) {
    return messageOf(e);
  }
  o.log.info(`${id}: ready`);
  if (!o.test || !rel.test.enabled) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runHelmTest } = require('../../pulumi/provider/helm-test-run') as typeof import('../../pulumi/provider/helm-test-run');
  try {
    await runHelmTest(
      { target: { release: rel.name, namespace: rel.namespace, timeoutSeconds: rel.test.timeoutSeconds, waitLabels: { ...(chart.wait?.labels ?? {}) }, helmCommand: o.helm }, cluster: o.cluster },
      { loadCluster: o.kubeConfig, log: o.log },
    );
  } catch (e) {
    return messageOf(e);
  }
  return undefined;
}

/** Armada's pre-upgrade deletes of one release, on its upgrade path only. */
async function preUpgradeDelete(rel: PlannedRelease, chart: ChartSpec, o: ChartWaitOptions): Promise<string | undefined> {
  const actions = chart.upgrade?.pre?.delete ?? [];
  const id = `${rel.namespace}/${rel.name}`;
  if (actions.length === 0) return o.log.info(`${id}: upgrade.pre.delete is empty, nothing to delete`), undefined;
  /* eslint-disable @typescript-eslint/no-require-imports -- the cluster code loads for a run that needs it */
  const { deleteBeforeUpgrade } = require('../../pulumi/provider/pre-upgrade-delete-run') as typeof import('../../pulumi/provider/pre-upgrade-delete-run');
  const { latestRevision } = require('./wait-release') as typeof import('./wait-release');
  const { KubeconfigRefusedError } = require('../../pulumi/provider/readiness/errors') as typeof import('../../pulumi/provider/readiness/errors');
  /* eslint-enable @typescript-eslint/no-require-imports */
  try {
    const kube = await o.kubeConfig();
    const installed = await latestRevision(kube, rel.namespace, rel.name);
    if (installed?.status !== 'deployed') {
      o.log.info(`${id}: the release is not deployed (${installed === undefined ? 'not installed' : `last revision ${installed.status}`}): Armada installs it without pre-upgrade actions`);
      return undefined;
    }
    const deleted = await deleteBeforeUpgrade(
      { release: rel.name, namespace: rel.namespace, actions: actions.map((a) => ({ type: a.type, ...(a.labels !== undefined ? { labels: { ...a.labels } } : {}) })), schemaVersion: rel.schemaVersion, timeoutSeconds: rel.waitTimeout },
      kube,
      { log: o.log },
    );
    o.log.info(`${id}: ${deleted.length === 0 ? 'nothing to delete before the upgrade' : `deleted ${deleted.join(', ')}`}`);
  } catch (e) {
    return e instanceof KubeconfigRefusedError ? e.cannot(`run the pre-upgrade deletes of Helm release ${id}`) : messageOf(e);
  }
  return undefined;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
