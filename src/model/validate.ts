/**
 * Every rule a manifest must satisfy before anything is synthesized or deployed. Rules never
 * throw and never stop at the first problem: the caller gets the whole list, each item with the
 * place it concerns and the value it received.
 */
import { Diagnostics, FieldPath, Origin, show, suggest } from './diagnostics';
import { Duration, GO_DURATION_MAX_SECONDS } from './duration';
import { findCycles } from './graph';
import {
  dns1123LabelProblem,
  dns1123SubdomainProblem,
  helmReleaseNameProblem,
  labelKeyProblem,
  labelValueProblem,
  releaseName,
} from './names';
import { buildPlan } from './plan';
import { firstByName, repeatedNameMessage } from './first-by-name';
import { SourceType } from './source';
import { ChartSpec, ManifestSpec, SchemaVersion, Labels, HookAction } from './spec';
import { findValueProblems, OpaqueLeafTest } from './values';
import { CONTROLLER_TYPES, parseMinReady, WAIT_RESOURCE_TYPES } from './wait';
import { chartVersion, effectiveWaitResources, groupVersion } from './effective';
import { checkFieldTypes } from './prop-types';

/** Options of {@link validateManifest}. */
export interface ValidateOptions {
  /**
   * Value leaves a backend resolves itself (Pulumi outputs); anything else that is not JSON is an error.
   * @default - none: every leaf must be JSON
   */
  readonly opaqueValues?: OpaqueLeafTest | undefined;
}

const PRE_DELETE_TYPES = ['job', 'cronjob', 'pod'];

/**
 * Documents of an imported site that failed Armada's schema check and are not in the spec. Their
 * data cannot be trusted, so the rules say nothing that depends on them: a reference to one of
 * their names is not "missing", and a chart that only they could deploy is judged on its own
 * content, not as deployed or as unused.
 */
export interface FailedDocuments {
  /**
   * The target manifest's own document failed: no manifest-level rule runs, and which groups it
   * deploys is not known (the spec lists none).
   */
  readonly manifest: boolean;
  /** Names of the chart groups whose documents failed. */
  readonly groups: ReadonlySet<string>;
  /** Names of the charts whose documents failed. */
  readonly charts: ReadonlySet<string>;
}

/** Validates a resolved manifest; returns every error and warning. */
export function validateManifest(spec: ManifestSpec, options: ValidateOptions = {}): Diagnostics {
  return validateManifestTyped(spec, options).diagnostics;
}

/**
 * {@link validateManifest}, also returning the spec the rules read: `raw` without the fields whose
 * runtime type is wrong (each one an error), so that later checks can read it safely.
 * @param failed - documents of an imported site left out of `raw` (see {@link FailedDocuments}); none by default
 */
export function validateManifestTyped(raw: ManifestSpec, options: ValidateOptions = {}, failed?: FailedDocuments): { diagnostics: Diagnostics; spec: ManifestSpec } {
  const d = new Diagnostics();
  const spec = checkFieldTypes(raw, d);
  if (!failed?.manifest) checkManifest(spec, d);
  checkGroups(spec, d);
  const { deployed, reachable, unsure } = checkReferences(spec, d, failed);
  const first = firstByName(spec.charts);
  for (const chart of spec.charts) {
    // Armada never looks at a chart that no group deploys and no deployed chart uses as a
    // subchart (not even its source), nor at a second chart of the same name, so such a chart
    // only has to have a valid name. One that a failed document may deploy is judged on its own
    // fields; what needs it deployed (its prefixed release name, the reach of its wait) is left out.
    if ((reachable.has(chart.name) || unsure) && first.get(chart.name) === chart) checkChart(spec, chart, deployed.has(chart.name), d, options);
    else checkName(chart, d);
  }
  checkDuplicates(spec, d);
  checkSubchartCycles(spec, reachable, d);
  checkOrdering(spec, d);
  return { diagnostics: d, spec };
}

function checkManifest(spec: ManifestSpec, d: Diagnostics): void {
  const nameProblem = dns1123SubdomainProblem(spec.name);
  if (nameProblem) d.error(spec.origin, ['name'], 'name', `manifest name ${show(spec.name)} ${nameProblem}`);
  if (typeof spec.releasePrefix !== 'string' || spec.releasePrefix === '') {
    d.error(spec.origin, ['releasePrefix'], 'release-prefix', `received ${show(spec.releasePrefix)}; releasePrefix must be a non-empty string (Helm releases are named "<releasePrefix>-<release>")`);
  } else if (dns1123SubdomainProblem(releaseName(spec.releasePrefix, 'x'))) {
    // Only the whole release name must be valid: Armada joins with one "-", so a prefix ending
    // in "-" gives "armada--blog", which Helm accepts.
    d.error(spec.origin, ['releasePrefix'], 'release-prefix', `received ${show(spec.releasePrefix)}; it starts every Helm release name ("<releasePrefix>-<release>"), so it must start with a lower-case letter or digit and contain only lower-case letters, digits, "-" and "." (not "." before the joining "-")`);
  }
  if (spec.chartGroups.length === 0) {
    d.error(spec.origin, ['chartGroups'], 'no-groups', 'the manifest lists no chart groups; Armada requires at least one ChartGroup and one Chart');
  }
}

function checkGroups(spec: ManifestSpec, d: Diagnostics): void {
  for (const g of spec.groups) {
    if (typeof g.name !== 'string' || g.name === '') d.error(g.origin, ['name'], 'name', `chart group name ${show(g.name)} must be a non-empty string`);
    if (g.testCharts !== undefined) {
      if (groupVersion(g, spec.schemaVersion) === SchemaVersion.V2) d.error(g.origin, ['testCharts'], 'v2-field', `testCharts is not part of armada/ChartGroup/v2${versionSource(g.schemaVersion)}`);
      else d.warn(g.origin, ['testCharts'], 'deprecated', 'testCharts is deprecated; set test.enabled on the charts');
    }
  }
}

/**
 * Resolves manifest -> groups -> charts -> dependencies; returns the charts Armada deploys, those
 * it reaches at all (deployed ones and their subcharts), and whether a failed document on the way
 * may reach others (`unsure`: then no chart is called unused).
 */
function checkReferences(spec: ManifestSpec, d: Diagnostics, failed?: FailedDocuments): { deployed: Set<string>; reachable: Set<string>; unsure: boolean } {
  const groups = firstByName(spec.groups);
  const charts = firstByName(spec.charts);
  const deployed = new Set<string>();
  const where = new Map<string, string[]>();
  const foreign = (name: string) => (spec.foreignDefinitions?.[name] ? ` (${spec.foreignDefinitions[name]})` : '');
  // A failed document's own references are unknown: whatever it lists may be deployed.
  let unsure = failed?.manifest === true;
  const hasFailed = (names: ReadonlySet<string> | undefined, name: string) => {
    if (names?.has(name) !== true) return false;
    unsure = true;
    return true;
  };
  const failedGroup = (name: string) => hasFailed(failed?.groups, name);
  const failedChart = (name: string) => hasFailed(failed?.charts, name);
  // A name misspelt may have meant a document that failed.
  const known = (names: Iterable<string>, failedNames: ReadonlySet<string> | undefined) => (failedNames?.size ? [...names, ...failedNames] : names);

  // A typo'd name most likely meant a chart that no group lists yet.
  const listedCharts = new Set(spec.groups.flatMap((g) => g.charts));
  const unlisted = [...charts.keys()].filter((c) => !listedCharts.has(c));
  const listedGroups = new Set<string>();
  spec.chartGroups.forEach((name, i) => {
    if (listedGroups.has(name)) {
      d.warn(spec.origin, ['chartGroups', i], 'group-listed-twice', `chart group ${show(name)} is listed more than once; Armada deploys it again each time`);
    }
    listedGroups.add(name);
    const group = groups.get(name);
    if (!group) {
      if (failedGroup(name)) return;
      const hint = suggest(name, known(groups.keys(), failed?.groups));
      d.error(spec.origin, ['chartGroups', i], 'ARM001', `chart group ${show(name)} is not in the manifest${foreign(name)}${hint ? `; did you mean ${show(hint)}?` : ''}`);
      return;
    }
    if (group.charts.length === 0) {
      if (group.sequenced) d.warn(group.origin, ['charts'], 'empty-group', `chart group ${show(name)} has no charts; it deploys nothing`);
      else d.error(group.origin, ['charts'], 'empty-group', `chart group ${show(name)} has no charts; Armada fails on an empty unsequenced group (a thread pool of 0 workers)`);
    }
    const inGroup = new Set<string>();
    group.charts.forEach((c, j) => {
      if (inGroup.has(c)) {
        d.warn(group.origin, ['charts', j], 'chart-listed-twice', `chart ${show(c)} is listed twice in group ${show(name)}; Armada deploys it twice${group.sequenced ? '' : ', at the same time'}`);
      }
      inGroup.add(c);
      if (!charts.has(c)) {
        if (failedChart(c)) return;
        const hint = suggest(c, unlisted) ?? suggest(c, known(charts.keys(), failed?.charts));
        d.error(group.origin, ['charts', j], 'ARM001', `chart ${show(c)} is not in the manifest${foreign(c)}${hint ? `; did you mean ${show(hint)}?` : ''}`);
        return;
      }
      deployed.add(c);
      const list = where.get(c) ?? [];
      if (!list.includes(name)) list.push(name);
      where.set(c, list);
    });
  });

  // forEach, not for...of: this runs once per chart before V8 optimizes it, and an unoptimized
  // for...of over a Map makes two objects per step.
  where.forEach((inGroups, chart) => {
    if (inGroups.length > 1) {
      const c = charts.get(chart)!;
      d.warn(c.origin, undefined, 'chart-in-two-groups', `chart ${show(chart)} is listed in ${inGroups.length} groups (${inGroups.map((g) => show(g)).join(', ')}); Armada deploys it once per group`);
    }
  });

  // Subchart dependencies: resolved recursively from every deployed chart, like build_chart_deps.
  const usedAsDependency = new Set<string>();
  const checkedTwice = new Set<ChartSpec>();
  const visit = (name: string, seen: Set<string>) => {
    const chart = charts.get(name);
    if (!chart || seen.has(name)) return;
    seen.add(name);
    if (!checkedTwice.has(chart)) {
      checkedTwice.add(chart);
      checkDependencyListedTwice(chart, d);
    }
    (chart.dependencies ?? []).forEach((dep, i) => {
      if (!charts.has(dep)) {
        if (failedChart(dep)) return;
        const hint = suggest(dep, known(charts.keys(), failed?.charts));
        d.error(chart.origin, ['dependencies', i], 'ARM001', `subchart dependency ${show(dep)} is not in the manifest${foreign(dep)}${hint ? `; did you mean ${show(hint)}?` : ''}`);
        return;
      }
      usedAsDependency.add(dep);
      visit(dep, seen);
    });
  };
  deployed.forEach((c) => visit(c, new Set()));

  for (const chart of unsure ? [] : spec.charts) {
    if (!deployed.has(chart.name) && !usedAsDependency.has(chart.name) && charts.get(chart.name) === chart) {
      d.warn(chart.origin, undefined, 'not-deployed', `chart ${show(chart.name)} is in no chart group of the manifest and no deployed chart uses it as a subchart; it is not deployed`);
    }
  }
  for (const g of failed?.manifest ? [] : spec.groups) {
    if (!listedGroups.has(g.name) && groups.get(g.name) === g) {
      d.warn(g.origin, undefined, 'not-deployed', `chart group ${show(g.name)} is not listed in the manifest's chartGroups; it is not deployed`);
    }
  }
  return { deployed, reachable: new Set([...deployed, ...usedAsDependency]), unsure };
}

/**
 * Armada's `ChartBuilder.from_chart_doc` (`chartbuilder.py`) links each dependency into the chart's
 * `charts/` directory under the name its Chart.yaml gives (`Path.symlink_to`): the same dependency
 * twice makes the second link fail with FileExistsError, when the chart is deployed.
 */
function checkDependencyListedTwice(chart: ChartSpec, d: Diagnostics): void {
  const deps = chart.dependencies;
  if (!Array.isArray(deps)) return;
  const first = new Map<string, number>();
  deps.forEach((dep, i) => {
    if (typeof dep !== 'string') return;
    const at = first.get(dep);
    if (at === undefined) {
      first.set(dep, i);
      return;
    }
    d.error(
      chart.origin,
      ['dependencies', i],
      'dependency-twice',
      `subchart dependency ${show(dep)} is listed twice (also at dependencies[${at}]); Armada fails when it builds chart ${show(chart.name)}: it links every dependency into the chart's charts/ directory under its Chart.yaml name, and the second link of the same chart raises FileExistsError ("[Errno 17] File exists: '.../charts/<name>'"); list it once`,
    );
  });
}

/**
 * Armada uses a chart's or group's `metadata.name` only to find the document (`chart_group` and
 * `dependencies` entries), never as a Kubernetes name, so any non-empty string will do
 * (treasuremap names helm-toolkit copies `prometheus_kube_state_metrics-htk`). A target that
 * makes Kubernetes objects named after it checks the name itself.
 */
function checkName(chart: ChartSpec, d: Diagnostics): void {
  if (typeof chart.name !== 'string' || chart.name === '') d.error(chart.origin, ['name'], 'name', `chart name ${show(chart.name)} must be a non-empty string`);
}

function checkDuplicates(spec: ManifestSpec, d: Diagnostics): void {
  const seen = (items: readonly { name: string; origin: Origin }[], kind: string) => {
    const first = new Map<string, Origin>();
    for (const i of items) {
      const prev = first.get(i.name);
      if (prev) {
        d.error(i.origin, ['name'], 'duplicate-name', repeatedNameMessage(kind, i.name, prev.locate().location));
      } else {
        first.set(i.name, i.origin);
      }
    }
  };
  seen(spec.groups, 'chart group');
  seen(spec.charts, 'chart');

  // Two different charts must not install the same Helm release (namespace + prefixed name).
  const plan = buildPlan(spec);
  const owner = new Map<string, string>();
  const firstSteps = new Map<string, number | undefined>();
  const charts = firstByName(spec.charts);
  for (const r of plan.releases) {
    const key = `${r.namespace}/${r.name}`;
    const prev = owner.get(key);
    if (prev !== undefined && prev !== r.chart) {
      const what = firstSteps.get(key) === plan.firstStepOf(r.chart)
        ? 'Armada would install both into that one release at the same time'
        : `Armada would install it for ${show(prev)} and then silently upgrade that same release to chart ${show(r.chart)}`;
      d.error(charts.get(r.chart)!.origin, ['release'], 'duplicate-release', `Helm release ${show(r.name)} in namespace ${show(r.namespace)} is already installed by chart ${show(prev)}; ${what}; give one of them another release`);
    }
    if (prev === undefined) firstSteps.set(key, plan.firstStepOf(r.chart));
    if (prev === undefined) owner.set(key, r.chart);
  }
}

/** Only where Armada builds: a cycle among charts no deployed chart reaches is never followed. */
function checkSubchartCycles(spec: ManifestSpec, reachable: ReadonlySet<string>, d: Diagnostics): void {
  const charts = firstByName(spec.charts);
  const cycles = findCycles([...charts.keys()].filter((n) => reachable.has(n)), (n) => (charts.get(n)?.dependencies ?? []).filter((x) => charts.has(x)));
  for (const loop of cycles) {
    const chart = charts.get(loop[0])!;
    d.error(chart.origin, ['dependencies'], 'dependency-cycle', `subchart dependencies form a cycle: ${loop.join(' -> ')}`);
  }
}

/** Explicit `addDependency` edges: both ends deployed, acyclic, and never against the step order. */
function checkOrdering(spec: ManifestSpec, d: Diagnostics): void {
  const charts = firstByName(spec.charts);
  const plan = buildPlan(spec);
  for (const chart of spec.charts) {
    chart.dependsOn.forEach((target, i) => {
      const field = ['dependsOn', i];
      if (!charts.has(target)) {
        d.error(chart.origin, field, 'order', `addDependency: chart ${show(target)} is not in the manifest${spec.foreignDefinitions?.[target] ? ` (${spec.foreignDefinitions[target]})` : ''}`);
        return;
      }
      const mine = plan.firstStepOf(chart.name);
      const theirs = plan.firstStepOf(target);
      if (mine === undefined) {
        d.error(chart.origin, field, 'order', `addDependency: chart ${show(chart.name)} is not deployed by any chart group, so it cannot wait for ${show(target)}`);
        return;
      }
      if (theirs === undefined) {
        d.error(chart.origin, field, 'order', `addDependency: chart ${show(target)} is not deployed by any chart group, so ${show(chart.name)} cannot wait for it`);
        return;
      }
      if (theirs > mine) {
        const ms = plan.steps[mine];
        const ts = plan.steps[theirs];
        d.error(chart.origin, field, 'order', `addDependency: ${show(chart.name)} deploys in step ${mine} (group ${show(ms.group)}) but ${show(target)} deploys later, in step ${theirs} (group ${show(ts.group)}); the dependency contradicts the manifest's order`);
      }
    });
  }
  const cycles = findCycles(
    spec.charts.map((c) => c.name),
    (n) => (charts.get(n)?.dependsOn ?? []).filter((x) => charts.has(x)),
  );
  for (const loop of cycles) {
    d.error(charts.get(loop[0])!.origin, ['dependsOn'], 'order-cycle', `addDependency edges form a cycle: ${loop.join(' -> ')}`);
  }
}

/** A deployed chart's namespace and its Helm release name (`<releasePrefix>-<release>`). */
function checkRelease(spec: ManifestSpec, chart: ChartSpec, d: Diagnostics): void {
  const o = chart.origin;
  const ns = dns1123LabelProblem(chart.namespace);
  if (ns) d.error(o, ['namespace'], 'namespace', `namespace ${show(chart.namespace)} ${ns}`);
  if (typeof chart.release !== 'string' || chart.release === '') {
    d.error(o, ['release'], 'release', `received ${show(chart.release)}; release must be a non-empty string`);
  } else if (typeof spec.releasePrefix === 'string' && spec.releasePrefix !== '') {
    const full = releaseName(spec.releasePrefix, chart.release);
    const rp = helmReleaseNameProblem(full);
    if (rp) d.error(o, ['release'], 'release', `Helm release ${show(full)} (releasePrefix + "-" + release) ${rp}`);
  }
}

function checkChart(spec: ManifestSpec, chart: ChartSpec, deployed: boolean, d: Diagnostics, options: ValidateOptions): void {
  const o = chart.origin;
  checkName(chart, d);
  // A chart that is only a subchart is fetched and copied into its parent: Armada never reads
  // its release or namespace (it deploys one with `namespace: Bad_NS`).
  if (deployed) checkRelease(spec, chart, d);
  checkSource(chart, d);
  checkTimeouts(chart, d);
  checkWait(spec, chart, deployed, d);
  checkUpgrade(spec, chart, d);
  checkVersionFields(spec, chart, d);
  if (chart.values !== undefined) {
    for (const problem of findValueProblems(chart.values, options.opaqueValues)) {
      d.error(o, ['values', ...problem.path], 'values', problem.message);
    }
  }
  if (chart.protected !== undefined && Object.values(chart.protected).every((v) => v === undefined)) {
    d.warn(o, ['protected'], 'protected-empty', 'an empty protected block counts as not protected in Armada; set continueProcessing to true or false');
  }
  if (typeof chart.test === 'object' && chart.test.cleanup !== undefined) {
    d.warn(o, ['test', 'cleanup'], 'ignored', 'test.cleanup is accepted but ignored by Armada since its move to Helm 3');
  }
}

function checkSource(chart: ChartSpec, d: Diagnostics): void {
  const s = chart.source;
  const o = chart.origin;
  // A source of the wrong type is reported with the field types.
  if (s === undefined) return;
  if (typeof s.location !== 'string' || s.location.trim() === '') {
    d.error(o, ['source', 'location'], 'source', `received ${show(s.location)}; source location must be a non-empty path or URL`);
    return;
  }
  if (s.type === SourceType.TAR && !/^https?:\/\//i.test(s.location)) {
    d.error(o, ['source', 'location'], 'source', `received ${show(s.location)}; a tar source is downloaded over HTTP(S), so its location must be an http:// or https:// URL`);
  }
  if (s.authMethod !== undefined && s.authMethod.toLowerCase() !== 'ssh') {
    d.warn(o, ['source', 'authMethod'], 'source', `received ${show(s.authMethod)}; Armada only knows "ssh" and clones anonymously for any other value`);
  }
  if (s.subpath !== undefined) checkSubpath(s.type, s.location, s.subpath, o, d);
}

/**
 * Armada takes the chart from `os.path.join(root, subpath)` (`chart_download.py`), root being the
 * local location or the download directory, so an empty subpath is the root itself, `..` climbs
 * out of it, and an absolute subpath replaces it. For a local source that is a real directory
 * (`../openstack-helm-infra/mariadb` deploys); for a download it is outside what was fetched.
 */
function checkSubpath(type: SourceType, location: string, subpath: string, o: Origin, d: Diagnostics): void {
  const absolute = subpath.startsWith('/');
  const climbs = subpath.split('/').includes('..');
  if (type === SourceType.LOCAL) {
    if (absolute) {
      d.warn(o, ['source', 'subpath'], 'source', `received ${show(subpath)}; Armada joins location and subpath as os.path.join does, so an absolute subpath is the chart directory itself and location ${show(location)} is not used; write the directory as location instead`);
    }
    return;
  }
  if (!absolute && !climbs) return;
  const fetched = type === SourceType.GIT ? 'the cloned repository' : 'the extracted tarball';
  const armada = absolute
    ? `Armada would take the chart from ${show(subpath)} on the machine it runs on, not from ${fetched}`
    : `Armada would take the chart from outside ${fetched} (os.path.join of its download directory and the subpath)`;
  d.error(o, ['source', 'subpath'], 'source', `received ${show(subpath)}; ${armada}; use a path inside ${fetched}, such as the chart's directory name`);
}

function checkTimeouts(chart: ChartSpec, d: Diagnostics): void {
  const check = (t: Duration | undefined, field: FieldPath) => {
    // A timeout that is no Duration is reported with the field types.
    if (t === undefined) return;
    const problem = t.problem();
    // Armada takes 0 as a timeout (it tests `is None`) and starts the wait with its deadline passed.
    const armada = t.toSeconds() <= 0 && field[field.length - 1] === 'timeout' && (field[0] === 'wait' || field.length === 1)
      ? '; Armada would accept it and fail the chart at its first wait ("Timed out waiting for resource"), its deadline having already passed'
      : '';
    if (problem) d.error(chart.origin, field, 'timeout', problem + armada);
    else if (t.toSeconds() > GO_DURATION_MAX_SECONDS) {
      d.error(chart.origin, field, 'timeout', `received ${t.toSeconds() > Number.MAX_SAFE_INTEGER ? 'more than 2^53' : t.toSeconds()} seconds; Helm reads a timeout as a Go duration, which ends at ${GO_DURATION_MAX_SECONDS} seconds (about 292 years), so Armada's helm call would fail on it`);
    }
  };
  check(chart.wait?.timeout, ['wait', 'timeout']);
  check(chart.timeout, ['timeout']);
  if (typeof chart.test === 'object') check(chart.test.timeout, ['test', 'timeout']);
  check(chart.delete?.timeout, ['delete', 'timeout']);
  if (chart.timeout !== undefined) {
    d.warn(chart.origin, ['timeout'], 'deprecated', chart.wait?.timeout !== undefined
      ? 'the chart timeout is deprecated and ignored here, because wait.timeout is set'
      : 'the chart timeout is deprecated; use wait.timeout');
  }
}

function checkLabels(chart: ChartSpec, labels: Labels | undefined, field: FieldPath, d: Diagnostics): void {
  if (labels === undefined) return;
  for (const k of Object.keys(labels)) {
    const kp = labelKeyProblem(k);
    if (kp) d.error(chart.origin, [...field, k], 'labels', kp);
    const vp = labelValueProblem(labels[k]);
    if (vp) d.error(chart.origin, [...field, k], 'labels', vp);
  }
}

function checkWait(spec: ManifestSpec, chart: ChartSpec, deployed: boolean, d: Diagnostics): void {
  const w = chart.wait;
  checkLabels(chart, w?.labels, ['wait', 'labels'], d);
  (w?.resources ?? []).forEach((r, i) => {
    const field = ['wait', 'resources', i];
    if (!WAIT_RESOURCE_TYPES.includes(r.type)) {
      const hint = suggest(r.type, WAIT_RESOURCE_TYPES);
      d.error(chart.origin, [...field, 'type'], 'wait-type', `received ${show(r.type)}; Armada waits only on ${WAIT_RESOURCE_TYPES.join(', ')}${hint ? ` (did you mean ${show(hint)}?)` : ''}`);
    }
    checkLabels(chart, r.options.labels, [...field, 'labels'], d);
    const mr = r.options.minReady;
    if (mr !== undefined) {
      if (!parseMinReady(mr)) {
        d.error(chart.origin, [...field, 'minReady'], 'min-ready', `received ${show(mr)}; minReady must be a whole number of pods (0 or more) or a percentage "N%" with N from 0 to 100${armadaMinReadyReading(mr)}`);
      } else if (WAIT_RESOURCE_TYPES.includes(r.type) && !CONTROLLER_TYPES.includes(r.type)) {
        d.error(chart.origin, [...field, 'minReady'], 'min-ready', `minReady applies to deployment, daemonset and statefulset only; Armada rejects it for ${r.type} ("invalid config for item in wait.resources")`);
      }
    }
    if (r.options.allowAsyncUpdates !== undefined && WAIT_RESOURCE_TYPES.includes(r.type) && r.type !== 'daemonset' && r.type !== 'statefulset') {
      d.error(chart.origin, [...field, 'allowAsyncUpdates'], 'wait-option', `allowAsyncUpdates applies to daemonset and statefulset only; Armada rejects it for ${r.type}`);
    }
  });
  const unlabelled = deployed ? effectiveWaitResources(chart, spec.schemaVersion).filter((r) => Object.keys(r.labels).length === 0) : [];
  if (unlabelled.length > 0) {
    d.warn(chart.origin, ['wait', 'labels'], 'wait-no-labels', `no wait labels select the ${unlabelled.map((r) => r.type).join(', ')} waited on, so Armada waits on every one in namespace ${show(chart.namespace)}; set wait.labels (e.g. { release_group: "${typeof spec.releasePrefix === 'string' ? spec.releasePrefix : ''}-${chart.release}" })`);
  }
}

function checkUpgrade(spec: ManifestSpec, chart: ChartSpec, d: Diagnostics): void {
  const u = chart.upgrade;
  if (!u) return;
  const version = chartVersion(chart, spec.schemaVersion);
  const hooks = (list: readonly HookAction[] | undefined, field: FieldPath, checkType: boolean) => {
    (list ?? []).forEach((h, i) => {
      if (h.labels !== undefined) checkLabels(chart, h.labels, [...field, i, 'labels'], d);
      if (checkType && !PRE_DELETE_TYPES.includes(h.type)) {
        const hint = suggest(h.type, PRE_DELETE_TYPES);
        d.warn(chart.origin, [...field, i, 'type'], 'pre-delete-type', `received ${show(h.type)}${hint ? ` (did you mean ${show(hint)}?)` : ''}; Armada deletes only ${PRE_DELETE_TYPES.join(', ')} before an upgrade and logs an error for anything else`);
      }
      if (h.name !== undefined && version === SchemaVersion.V2) {
        d.error(chart.origin, [...field, i, 'name'], 'v2-field', `hook action name is not part of armada/Chart/v2${versionSource(chart.schemaVersion)}`);
      }
    });
  };
  hooks(u.pre?.delete, ['upgrade', 'pre', 'delete'], true);
  hooks(u.pre?.update, ['upgrade', 'pre', 'update'], false);
  hooks(u.pre?.create, ['upgrade', 'pre', 'create'], false);
  hooks(u.post?.create, ['upgrade', 'post', 'create'], false);
  if (u.pre?.update !== undefined && version === SchemaVersion.V1) {
    d.warn(chart.origin, ['upgrade', 'pre', 'update'], 'deprecated', 'upgrade.pre.update is broken in Armada since Helm 3 (it needs the removed Tiller handler)');
  }
  if (u.pre?.create !== undefined && version === SchemaVersion.V1 && u.pre.create.length > 0) {
    d.warn(chart.origin, ['upgrade', 'pre', 'create'], 'ignored', 'upgrade.pre.create is accepted but never implemented by Armada');
  }
  if (u.post?.create !== undefined && version === SchemaVersion.V1 && u.post.create.length > 0) {
    d.warn(chart.origin, ['upgrade', 'post'], 'ignored', 'upgrade.post actions are ignored by Armada');
  }
}

/** Fields that exist only in armada/*\/v1, judged by the chart document's own version. */
function checkVersionFields(spec: ManifestSpec, chart: ChartSpec, d: Diagnostics): void {
  if (chartVersion(chart, spec.schemaVersion) !== SchemaVersion.V2) {
    if (typeof chart.test === 'boolean') d.warn(chart.origin, ['test'], 'deprecated', 'the boolean test form is deprecated; use test: { enabled }');
    return;
  }
  const v2 = (field: FieldPath, what: string) => d.error(chart.origin, field, 'v2-field', `${what} is not part of armada/Chart/v2${versionSource(chart.schemaVersion)}`);
  if (chart.chartName !== undefined) v2(['chartName'], 'chartName');
  if (chart.timeout !== undefined) v2(['timeout'], 'the deprecated chart timeout');
  if (chart.install !== undefined) v2(['install'], 'install');
  if (typeof chart.test === 'boolean') v2(['test'], 'the boolean test form');
  if (chart.upgrade?.pre?.update !== undefined) v2(['upgrade', 'pre', 'update'], 'upgrade.pre.update');
  if (chart.upgrade?.pre?.create !== undefined) v2(['upgrade', 'pre', 'create'], 'upgrade.pre.create');
  if (chart.upgrade?.post !== undefined) v2(['upgrade', 'post'], 'upgrade.post');
}

/** Says where a v2 verdict comes from: the definition's own version, or the manifest's. */
function versionSource(own: SchemaVersion | undefined): string {
  return own === undefined ? ' (the manifest uses schemaVersion 2; set schemaVersion: SchemaVersion.V1 on this definition to keep it a v1 document)' : '';
}

/**
 * What Armada makes of a `min_ready` armada-cdk refuses, and why armada-cdk refuses it
 * (`ControllerWait.__init__` and `_is_min_ready`, armada/handlers/wait.py). A string is matched
 * with `re.match('(.*)%$')` and the part before `%` read with Python's `int()` (signs, spaces and
 * underscores taken); anything else is a count compared with `ready >= min_ready`. Both happen
 * when Armada deploys the chart: the parse before it installs it, the comparison at each
 * controller it checks.
 */
function armadaMinReadyReading(value: unknown): string {
  const failsAtCheck = (what: string) =>
    `; Armada passes ${what} on as a count (only a missing min_ready gets the default 100%) and fails the chart with a TypeError ("'>=' not supported") at the first deployment, daemonset or statefulset it checks: leave min_ready out for the default`;
  if (value === null) return failsAtCheck('None');
  if (typeof value === 'boolean') {
    return `; Python's bool is an int, so Armada waits for ready >= ${value ? 'True, that is 1 pod' : 'False, that is 0 pods (met at once)'}; armada-cdk takes a count, not a boolean: write ${value ? 1 : 0}`;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    if (value <= 0) return `; Armada accepts it and counts the wait as met at once (any number of ready pods is at least ${value}); armada-cdk refuses a negative or fractional count: write 0 for that`;
    if (!Number.isInteger(value)) return `; Armada compares the ready pods with it (ready >= ${value}), so it waits for ${Math.ceil(value)}; armada-cdk takes whole counts only: write ${Math.ceil(value)}`;
    return '';
  }
  if (typeof value !== 'string') return typeof value === 'object' ? failsAtCheck('it') : '';
  // Python's `.` stops at a newline, and `$` also matches before a final newline.
  const m = /^([^\n]*)%\n?$/.exec(value);
  if (!m) return '; Armada rejects it too, when it deploys the chart and before it installs it (ManifestException: "`min_ready` as string must be formatted as a percent")';
  const n = pyInt(m[1]);
  if (n === undefined) return `; Armada fails on it when it deploys the chart, before it installs it (Python's int() cannot read ${show(m[1])}: ValueError)`;
  if (n > 100) return `; Armada reads it as ${n}% and waits for ceil(pods × ${n / 100}) ready pods, more than a controller has: the wait is never met while the controller has pods (it passes only with none), and the chart fails at its timeout`;
  if (n < 0) return `; Armada reads it as ${n}% and counts the wait as met at once; armada-cdk refuses it: write "0%" for that`;
  return `; Armada reads it with Python's int() as ${n}%, the same as ${show(`${n}%`)}; armada-cdk takes only that plain form, which every target reads alike: write ${show(`${n}%`)}`;
}

/** Python's `int(text)`: surrounding whitespace, one sign, digits with single underscores between them. */
function pyInt(text: string): number | undefined {
  const m = /^\s*([-+]?)(\d+(?:_\d+)*)\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[2].replace(/_/g, ''));
  return m[1] === '-' ? -n : n;
}
