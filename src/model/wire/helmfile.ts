/**
 * The site as a Helmfile state file (`helmfile.yaml`, Helmfile v1 syntax): one release per
 * deployed chart, with Armada's order as `needs`.
 *
 * Ordering: every release of plan step N needs every release of step N-1 (plus the chart's
 * `addDependency` edges); Helmfile runs a level of its `needs` graph concurrently and starts a
 * release only when everything it needs has been synced and its `postsync` hooks have passed.
 * The `postsync` hook runs `armada-cdk wait` for the chart (Armada's resource wait, then its tests
 * when enabled), so a step starts when the releases of the step before are ready, as in Armada.
 *
 * Releases are taken over, not reinstalled: the release name and namespace are the Helm release
 * Armada installed, and Helm 3 keeps a release in its namespace, where Helmfile looks for it.
 */
import { Diagnostics, FieldPath, formatFieldPath, MessageWriterOf, show } from '../diagnostics';
import { firstByName } from '../first-by-name';
import { hasOwnKey } from '../own-keys';
import { Plan, PlannedRelease } from '../plan';
import { ChartSpec, ManifestSpec } from '../spec';
import { ordered, valuesOut } from './emit';
import { helmfileChart } from './helmfile-sources';
import { SecretReference, valsReferences, valuesWithSecretRefs } from './helmfile-values';

/** The release labels that carry the plan, for `helmfile --selector` (`-l group=infra`). */
export const HELMFILE_LABELS = { manifest: 'manifest', group: 'group', step: 'step' } as const;

/** Options of {@link toHelmfile}. */
export interface HelmfileOptions {
  /**
   * The arguments that make `armada-cdk wait` read this site again, from the helmfile's
   * directory: the manifest files (and `--values`, `--set`, `--target-manifest`), or `--site NAME
   * --repo DIR`. The `postsync` hook of each release runs `armada-cdk wait ARGS --chart NAME`, and
   * the `presync` hook of a chart with `upgrade.pre.delete` runs `armada-cdk wait ARGS --chart NAME
   * --pre-upgrade`.
   * @default - no hooks: releases are not waited on beyond Helm's own wait, nor tested (a warning)
   */
  readonly waitInput?: readonly string[] | undefined;
  /**
   * The armada-cdk executable the hooks run.
   * @default 'armada-cdk'
   */
  readonly armadaCdkCommand?: string | undefined;
  /**
   * The kubeconfig context to deploy to: written as `helmDefaults.kubeContext` and passed to the
   * hooks, which do not see helmfile's `--kube-context`.
   * @default - the current context of the kubeconfig (`KUBECONFIG` or `~/.kube/config`)
   */
  readonly kubeContext?: string | undefined;
  /**
   * The helm executable `armada-cdk wait --test` runs `helm test` with.
   * @default - `helm`
   */
  readonly helmCommand?: string | undefined;
  /**
   * Charts (by name) already assembled into a local directory, as Armada would have them (its
   * source fetched, subchart `dependencies` injected): the release installs that directory
   * instead of fetching the source.
   * @default - none: each chart is fetched from its source by Helmfile
   */
  readonly chartPaths?: Readonly<Record<string, string>> | undefined;
  /**
   * Secret values by chart: the paths inside each chart's values (a Pegleg site's secrets).
   * Each is written as `ref+envsubst://$ARMADA_SECRET_...`, a vals reference Helmfile reads from
   * its environment, never as its value; a warning names each variable. A path to a mapping or a
   * list (`[]`: all the values) covers every value under it: each gets its own reference, and the
   * mapping or list keeps its shape (an empty one is written as it is).
   * @default - none: every value is written as it is
   */
  readonly secretValues?: ReadonlyMap<string, readonly FieldPath[]> | undefined;
}

/** What {@link toHelmfile} gives. */
export interface HelmfileResult {
  /** The state file's content as data, key order as written (see `toYamlDocument`). */
  readonly helmfile: Record<string, unknown>;
  /** Every finding; the helmfile must not be used when one is an error. */
  readonly diagnostics: Diagnostics;
  /** The environment variables that carry the secret values, in order of appearance. */
  readonly secretVariables: readonly string[];
  /** Each secret value written as a reference, in the same order: its variable, release and place. */
  readonly secrets: readonly HelmfileSecret[];
}

/** A secret value written as a reference, and the release (`NAMESPACE/NAME`) whose values held it. */
export interface HelmfileSecret extends SecretReference {
  readonly release: string;
}

/** Helmfile's reference to a release in `needs`: `NAMESPACE/NAME`. */
export function releaseId(r: { readonly name: string; readonly namespace: string }): string {
  return `${r.namespace}/${r.name}`;
}

/**
 * Converts a resolved site. The releases come in plan order; a chart deployed by several steps
 * is one release, at its first step (a warning).
 */
export function toHelmfile(spec: ManifestSpec, plan: Plan, options: HelmfileOptions = {}): HelmfileResult {
  const d = new Diagnostics();
  const charts = firstByName(spec.charts);
  const firsts: { release: PlannedRelease; step: number; group: string }[] = [];
  const seen = new Set<string>();
  const ids = new Map<string, string>();
  for (const step of plan.steps) {
    for (const r of step.releases) {
      const chart = charts.get(r.chart)!;
      if (seen.has(r.chart)) {
        d.warn(chart.origin, undefined, 'not-expressible', `${LOST}: the chart is deployed again in step ${step.index} (group ${show(step.group)}), but a helmfile has one release per release name; it is deployed once, in step ${r.firstStep}, and the steps after ${step.index} need that one and every release of the steps before ${step.index}`);
        continue;
      }
      seen.add(r.chart);
      const id = releaseId(r);
      const clash = ids.get(id);
      if (clash !== undefined) d.error(chart.origin, ['release'], 'helmfile-name', `the Helm release ${show(id)} would be written twice: chart ${show(clash)} has the same release name in the same namespace; give one of them another release`);
      ids.set(id, r.chart);
      firsts.push({ release: r, step: step.index, group: step.group });
    }
  }

  if (options.waitInput === undefined && firsts.some((f) => f.release.waitResources.length > 0 || f.release.test.enabled || hasPreDelete(charts.get(f.release.chart)!))) {
    d.warn(spec.origin, undefined, 'not-expressible', `${LOST}: no hooks are written (no waitInput), so Armada's resource waits, tests and pre-upgrade deletes do not run and a release is ready for the next step when Helm returns; give waitInput (the CLI does)`);
  }

  const byChart = new Map(firsts.map((f) => [f.release.chart, f.release]));
  for (const name of Object.keys(options.chartPaths ?? {}).sort()) {
    if (!byChart.has(name)) d.error(spec.origin, undefined, 'helmfile-source', `chartPaths names chart ${show(name)}, which manifest ${show(spec.name)} does not deploy; name one of its charts`);
  }
  const needs = stepNeeds(plan, new Set(byChart.keys()));
  const taken = new Set<string>();
  const written: HelmfileSecret[] = [];
  const releases = firsts.map(({ release, step, group }) => {
    const chart = charts.get(release.chart)!;
    const m = new ReleaseMapping(spec, chart, release, d, options);
    const secrets: SecretReference[] = [];
    const out = m.release(group, step, needs.of(chart, step).map((c) => releaseId(byChart.get(c)!)), taken, secrets);
    for (const s of secrets) written.push({ ...s, release: releaseId(release) });
    return out;
  });

  return {
    helmfile: ordered([
      ['helmDefaults', options.kubeContext !== undefined ? { kubeContext: options.kubeContext } : undefined],
      ['releases', releases],
    ]),
    diagnostics: d,
    secretVariables: written.map((s) => s.variable),
    secrets: written,
  };
}

function hasPreDelete(c: ChartSpec): boolean {
  return (c.upgrade?.pre?.delete?.length ?? 0) > 0;
}

/**
 * What the release of a chart at a step needs, as chart names: every chart first deployed in the
 * step before (going further back past steps that deploy only charts deployed earlier), then its
 * own `addDependency` edges; never itself.
 */
export function stepNeeds(plan: Plan, written: ReadonlySet<string>): { of(chart: ChartSpec, step: number): readonly string[] } {
  const before = new Map<number, { readonly charts: readonly string[]; readonly has: ReadonlySet<string> }>();
  const releasesBefore = (step: number) => {
    let out = before.get(step);
    if (out !== undefined) return out;
    const charts: string[] = [];
    const has = new Set<string>();
    for (let s = step - 1; s >= 0; s--) {
      const rs = plan.steps[s].releases;
      for (const r of rs) {
        if (!written.has(r.chart) || has.has(r.chart)) continue;
        has.add(r.chart);
        charts.push(r.chart);
      }
      if (rs.some((r) => r.firstStep === plan.steps[s].index)) break;
    }
    out = { charts, has };
    before.set(step, out);
    return out;
  };
  return {
    of(chart: ChartSpec, step: number): readonly string[] {
      const b = releasesBefore(step);
      // Most charts add no edge of their own: they share the step's list.
      if (chart.dependsOn.length === 0 && !b.has.has(chart.name)) return b.charts;
      const out: string[] = [];
      const seen = new Set<string>([chart.name]);
      for (const n of [...b.charts, ...chart.dependsOn]) {
        if (!written.has(n) || seen.has(n)) continue;
        seen.add(n);
        out.push(n);
      }
      return out;
    },
  };
}

const LOST = 'cannot be expressed for Helmfile';
const lostText = (message: string) => `${LOST}: ${message}`;

const NO_HOOKS_LOST = lostText('upgrade.noHooks: a Helmfile release has no per-release --no-hooks; the chart\'s Helm hooks run on every upgrade');
const PRE_UPDATE_LOST = lostText('upgrade.pre.update (Armada has ignored it since Helm 3, and Helmfile has no equivalent)');
const PRE_CREATE_LOST = lostText('upgrade.pre.create (never implemented by Armada, and Helmfile has no equivalent)');
const POST_LOST = lostText('upgrade.post (ignored by Armada, and Helmfile has no equivalent)');
const SUBCHARTS_LOST: MessageWriterOf<readonly string[]> = (deps) =>
  lostText(`subchart dependencies ${show(deps)}: Helmfile installs the chart as its source has it; assemble the chart with them (chartPaths, or --chart-path with the CLI) or declare them in its Chart.yaml`);
const NO_SUBCHARTS_LOST = lostText("dependencies [] (Armada removes the chart's own charts/ directory): Helmfile installs the chart with its subcharts; assemble the chart without them (chartPaths, or --chart-path with the CLI)");
const CONTINUE_PROCESSING_LOST = lostText('protected.continueProcessing=true: when the release fails, Helmfile stops the releases that need it, where Armada carried on with the group');
const PRE_DELETE_ASSUMED = 'for Helmfile: upgrade.pre.delete runs in a presync hook (armada-cdk wait --pre-upgrade), which deletes only when the release is installed already, as Armada does; its time is not taken from the release\'s wait.timeout';
const SECRET_WRITTEN: MessageWriterOf<SecretReference> = (s) =>
  `for Helmfile: a secret value, written as ref+envsubst://$${s.variable}; set ${s.variable} in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...)${s.typeChanged ? '; vals gives back a string, where the value was not one' : ''}`;
const VALS_REF_ERROR: MessageWriterOf<FieldPath> = (p) =>
  `the value at ${formatFieldPath(['values', ...p])} holds a vals reference (ref+BACKEND://...): Helmfile evaluates every release value with vals and would put what it refers to in its place; change the value`;

/** One release of the helmfile, and the findings about what Helmfile cannot carry. */
class ReleaseMapping {
  constructor(
    private readonly spec: ManifestSpec,
    private readonly c: ChartSpec,
    private readonly r: PlannedRelease,
    private readonly d: Diagnostics,
    private readonly options: HelmfileOptions,
  ) {}

  private lost<T>(field: FieldPath, message: string | MessageWriterOf<T>, value?: T): void {
    if (typeof message === 'string') this.d.warn(this.c.origin, field, 'not-expressible', message);
    else this.d.warnOf(this.c.origin, field, 'not-expressible', message, value as T);
  }

  public release(group: string, step: number, needs: readonly string[], taken: Set<string>, secrets: SecretReference[]): Record<string, unknown> {
    const c = this.c;
    const r = this.r;
    const paths = this.options.chartPaths;
    const assembled = paths !== undefined && Object.prototype.hasOwnProperty.call(paths, c.name) ? paths[c.name] : undefined;
    const source = helmfileChart(c.source, assembled);
    for (const f of source.findings) {
      if (f.severity === 'error') this.d.error(c.origin, f.field, f.code, f.message);
      else this.d.warn(c.origin, f.field, f.code, f.message);
    }
    this.report(assembled !== undefined);
    return ordered([
      ['name', r.name],
      ['namespace', r.namespace],
      ['chart', source.chart ?? ''],
      ['labels', { [HELMFILE_LABELS.manifest]: this.spec.name, [HELMFILE_LABELS.group]: group, [HELMFILE_LABELS.step]: String(step) }],
      ['needs', needs.length > 0 ? [...needs] : undefined],
      // Armada runs helm with --disable-openapi-validation, always.
      ['disableOpenAPIValidation', true],
      // Armada's native wait is Helm's --wait (which does not wait for Jobs); its resource waits
      // run in the postsync hook.
      ['wait', r.nativeWait],
      ['timeout', r.waitTimeout],
      ['force', c.upgrade?.options?.force === true ? true : undefined],
      ['hooks', this.hooks()],
      ['values', this.values(taken, secrets)],
    ]);
  }

  private hooks(): Record<string, unknown>[] | undefined {
    const input = this.options.waitInput;
    if (input === undefined) return undefined;
    const command = hookArg(this.options.armadaCdkCommand ?? 'armada-cdk');
    const context = this.options.kubeContext !== undefined ? ['--context', this.options.kubeContext] : [];
    const helm = this.options.helmCommand !== undefined ? ['--helm', this.options.helmCommand] : [];
    const base = ['wait', ...input, '--chart', this.c.name, ...context];
    const hooks: Record<string, unknown>[] = [];
    if (hasPreDelete(this.c)) hooks.push({ events: ['presync'], showlogs: true, command, args: [...base, '--pre-upgrade'].map(hookArg) });
    if (this.r.waitResources.length > 0 || this.r.test.enabled) {
      // Helmfile runs postsync hooks after a failed sync too; the template (ours, not the site's)
      // tells the wait, which then fails at once instead of waiting out the timeout.
      hooks.push({ events: ['postsync'], showlogs: true, command, args: [...[...base, ...(this.r.test.enabled ? ['--test', ...helm] : [])].map(hookArg), SYNC_STATUS_ARG] });
    }
    return hooks.length > 0 ? hooks : undefined;
  }

  private values(taken: Set<string>, secrets: SecretReference[]): unknown[] | undefined {
    const values = this.c.values;
    if (values === undefined || !hasOwnKey(values)) return undefined;
    const paths = this.options.secretValues?.get(this.c.name) ?? [];
    if (paths.length === 0) {
      // No secret to take out: the sorted copy every writer writes.
      for (const p of valsReferences(values)) this.d.error(this.c.origin, ['values', ...p], 'helmfile-values', VALS_REF_ERROR(p, []));
      return [valuesOut(values)];
    }
    const out = valuesWithSecretRefs(values, this.c.name, paths, taken);
    for (const s of out.secrets) {
      secrets.push(s);
      this.d.warnOf(this.c.origin, ['values', ...s.path], 'helmfile-secret', SECRET_WRITTEN, s);
    }
    for (const p of valsReferences(out.values).filter((p) => !out.secrets.some((s) => samePath(s.path, p)))) {
      this.d.error(this.c.origin, ['values', ...p], 'helmfile-values', VALS_REF_ERROR(p, []));
    }
    return [out.values];
  }

  private report(assembled: boolean): void {
    const c = this.c;
    const u = c.upgrade;
    if (u?.noHooks === true) this.lost(['upgrade', 'noHooks'], NO_HOOKS_LOST);
    if (hasPreDelete(c) && this.options.waitInput !== undefined) this.d.warn(c.origin, ['upgrade', 'pre', 'delete'], 'helmfile-assumption', PRE_DELETE_ASSUMED);
    if (u?.pre?.update !== undefined && u.pre.update.length > 0) this.lost(['upgrade', 'pre', 'update'], PRE_UPDATE_LOST);
    if (u?.pre?.create !== undefined && u.pre.create.length > 0) this.lost(['upgrade', 'pre', 'create'], PRE_CREATE_LOST);
    if (u?.post?.create !== undefined && u.post.create.length > 0) this.lost(['upgrade', 'post'], POST_LOST);
    if (c.dependencies !== undefined && !assembled) {
      if (c.dependencies.length > 0) this.lost(['dependencies'], SUBCHARTS_LOST, c.dependencies);
      else this.lost(['dependencies'], NO_SUBCHARTS_LOST);
    }
    if (this.r.protected.continueProcessing) this.lost(['protected', 'continueProcessing'], CONTINUE_PROCESSING_LOST);
  }
}

/** The postsync hook's last argument: a Go template Helmfile renders to `--sync-status=ok` or `=failed`. */
export const SYNC_STATUS_ARG = '--sync-status={{ if .Event.Error }}failed{{ else }}ok{{ end }}';

function samePath(a: FieldPath, b: FieldPath): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/**
 * A hook argument as Helmfile reads it: every hook argument is a Go template, so `{{` of an input
 * (a file name) is written as a template printing it, and never runs as one.
 */
export function hookArg(text: string): string {
  return text.replace(/\{\{/g, '{{"{{"}}');
}
