/**
 * How a plan becomes Pulumi resources, as plain data: which group listings and chart occurrences
 * there are, their stable names, and what each one waits for. The components only turn this into
 * resources, so the ordering can be tested without Pulumi.
 */
import type { ChartGroupSpec, ChartSpec, ManifestSpec } from '../model/spec';
import { type Diagnostic, editDistance, show, suggest } from '../model/diagnostics';
import { Plan, PlannedRelease } from '../model/plan';
import { firstByName } from '../model/first-by-name';
import { DiagnosticCodes } from '../model/codes';

/** One chart in one step. The first occurrence of a release installs it; later ones wait for it again. */
export interface ChartUnit {
  /** Position in {@link DeploymentLayout.units}. */
  readonly index: number;
  /** Stable name: the chart's construct path inside the manifest, plus `@<group>` for a repeat. */
  readonly key: string;
  readonly step: number;
  /** Position of the group listing in {@link DeploymentLayout.groups}. */
  readonly group: number;
  readonly release: PlannedRelease;
  readonly chart: ChartSpec;
  /** The chart's construct path relative to the manifest (`infra/mariadb`). */
  readonly path: string;
  /** True for the first deployment of the release: it creates the Helm Release. */
  readonly installs: boolean;
  /** The unit that installs this release (itself when `installs`). */
  readonly installer: number;
  /** Units of the previous step: this one starts when they are ready (and tested, where enabled). */
  readonly after: readonly number[];
  /** Installing units of the charts named by `addDependency`: this one starts when they are ready. */
  readonly explicit: readonly number[];
}

/** One listing of a chart group in the manifest's `chartGroups`. */
export interface GroupListing {
  readonly index: number;
  /** Stable name: the group's construct path inside the manifest, plus `#n` for a repeated listing. */
  readonly key: string;
  readonly path: string;
  readonly group: ChartGroupSpec;
  readonly units: readonly number[];
}

/** Everything the deployment creates, in plan order. */
export interface DeploymentLayout {
  readonly groups: readonly GroupListing[];
  readonly units: readonly ChartUnit[];
  /**
   * Unit indexes in an order where every `explicit` target comes before the units that wait for
   * it (they may share a step), so that each unit's dependencies exist when it is created.
   */
  readonly creationOrder: readonly number[];
  /** Warnings about what Pulumi does differently from Armada (a release deployed twice). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Lays out the plan's steps as group listings and chart units. Assumes a plan without errors.
 * A release deployed in several steps (a chart in two groups) is installed at its first step; the
 * later steps only wait for its readiness again, because Pulumi holds one Release per name.
 */
export function layoutDeployment(spec: ManifestSpec, plan: Plan, manifestPath: string): DeploymentLayout {
  const groups = firstByName(spec.groups);
  const charts = firstByName(spec.charts);
  const diagnostics: Diagnostic[] = [];
  const listings: GroupListing[] = [];
  const units: ChartUnit[] = [];
  const usedKeys = new Set<string>();
  const unique = (base: string) => {
    let key = base;
    for (let n = 2; usedKeys.has(key); n++) key = `${base}#${n}`;
    usedKeys.add(key);
    return key;
  };
  const installer = new Map<string, number>();
  let stepCursor = 0;
  let previous: number[] = [];

  for (const name of spec.chartGroups) {
    const group = groups.get(name);
    if (!group) continue;
    // The same count buildPlan uses, so that listings and steps line up.
    const members = group.charts.filter((c) => charts.has(c)).length;
    const stepCount = group.sequenced === true ? members : members > 0 ? 1 : 0;
    const path = relativePath(group.origin.locate().location, manifestPath);
    const listing = { index: listings.length, key: unique(path), path, group, units: [] as number[] };
    listings.push(listing);

    for (let s = 0; s < stepCount; s++, stepCursor++) {
      const step = plan.steps[stepCursor];
      if (!step) break;
      const current: number[] = [];
      const inStep = new Set<string>();
      for (const release of step.releases) {
        const chart = charts.get(release.chart)!;
        const chartPath = relativePath(chart.origin.locate().location, manifestPath);
        if (inStep.has(release.chart)) {
          diagnostics.push(warning(chart, `chart ${JSON.stringify(release.chart)} is listed twice in step ${step.index} (group ${JSON.stringify(step.group)}); Armada deploys it twice at once, the Pulumi backend once`));
          continue;
        }
        inStep.add(release.chart);
        const first = installer.get(release.chart);
        const index = units.length;
        if (first === undefined) installer.set(release.chart, index);
        else {
          const firstUnit = units[first];
          diagnostics.push(warning(chart, `chart ${JSON.stringify(release.chart)} is deployed again in step ${step.index} (group ${JSON.stringify(step.group)}); Pulumi holds one Release per name, so Helm release ${JSON.stringify(release.name)} is installed or upgraded in step ${firstUnit.step} (group ${JSON.stringify(listings[firstUnit.group].group.name)}) and step ${step.index} only waits for its readiness again`));
        }
        units.push({
          index,
          key: unique(first === undefined ? chartPath : `${chartPath}@${listing.key}`),
          step: step.index,
          group: listing.index,
          release,
          chart,
          path: chartPath,
          installs: first === undefined,
          installer: first ?? index,
          after: previous,
          explicit: [],
        });
        current.push(index);
        listing.units.push(index);
      }
      previous = current;
    }
  }

  // Explicit edges point at installing units, which may come later in the same step: resolve them last.
  const resolved = units.map((u) => ({
    ...u,
    explicit: u.release.dependsOn.map((c) => installer.get(c)).filter((i): i is number => i !== undefined && i !== u.installer),
  }));
  return { groups: listings, units: resolved, creationOrder: creationOrder(resolved), diagnostics };
}

/** Plan order, except that explicit targets are moved before the units that wait for them (the edges are acyclic). */
function creationOrder(units: readonly ChartUnit[]): number[] {
  const order: number[] = [];
  const placed = new Set<number>();
  const place = (i: number, visiting: Set<number>) => {
    if (placed.has(i) || visiting.has(i)) return;
    visiting.add(i);
    for (const e of units[i].explicit) place(e, visiting);
    if (!units[i].installs) place(units[i].installer, visiting);
    placed.add(i);
    order.push(i);
  };
  for (const u of units) place(u.index, new Set());
  return order;
}

/** `site/infra/mariadb` inside manifest `site` is `infra/mariadb`. */
export function relativePath(path: string, manifestPath: string): string {
  if (manifestPath !== '' && path.startsWith(`${manifestPath}/`)) return path.slice(manifestPath.length + 1);
  return path;
}

/**
 * The construct path a renamed construct had before, from `aliases` (new path or path prefix ->
 * old one); undefined when nothing maps it. The longest matching prefix wins, so renaming a group
 * also covers the charts inside it.
 */
export function previousPath(path: string, aliases: Readonly<Record<string, string>> | undefined): string | undefined {
  if (!aliases) return undefined;
  let best: string | undefined;
  for (const key of Object.keys(aliases)) {
    if ((path === key || path.startsWith(`${key}/`)) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : aliases[best] + path.slice(best.length);
}

/** The name a unit or listing had before a rename (see {@link previousPath}), or undefined when it has not changed. */
export function previousKey(key: string, aliases: Readonly<Record<string, string>> | undefined): string | undefined {
  if (!aliases) return undefined;
  const old = key
    .split('@')
    .map((part) => {
      const m = /^(.*?)(#\d+)?$/.exec(part)!;
      return (previousPath(m[1], aliases) ?? m[1]) + (m[2] ?? '');
    })
    .join('@');
  return old === key ? undefined : old;
}

/** How many valid keys an unknown `aliases` key lists when none is close enough for "did you mean". */
const LISTED_ALIAS_KEYS = 5;

/**
 * Errors for the `aliases` of a deployment (see {@link previousKey}): `aliases` must be an object
 * whose every key is the path of a group listing or a chart unit of `layout`, or a path prefix of
 * one (a key that matched nothing would be dropped, and a renamed construct then gets a new URN:
 * Pulumi replaces its Releases), and whose every value is a non-empty string (the old path).
 * `layout` undefined (a manifest with errors) checks the values only. `isOpaque` tells values
 * that are not known when the program starts (Pulumi outputs), which are never quoted.
 */
export function aliasDiagnostics(aliases: unknown, layout: DeploymentLayout | undefined, location: string, isOpaque: (v: unknown) => boolean = () => false): Diagnostic[] {
  if (aliases === undefined) return [];
  const error = (field: string, message: string): Diagnostic => ({ severity: 'error', location, field, message, code: DiagnosticCodes.PULUMI_ALIAS });
  const received = (v: unknown) => (isOpaque(v) ? 'a Pulumi output' : Array.isArray(v) ? 'an array' : v !== null && typeof v === 'object' ? 'an object' : show(v));
  if (aliases === null || typeof aliases !== 'object' || Array.isArray(aliases) || isOpaque(aliases)) {
    return [error('aliases', `must be an object of new construct path -> old one, for example { "databases": "infra" }; received ${received(aliases)}`)];
  }
  const out: Diagnostic[] = [];
  // Every key that would match something: each group and chart path and the paths above them.
  const valid = new Set<string>();
  for (const path of [...(layout?.groups ?? []), ...(layout?.units ?? [])].map((x) => x.path)) {
    const parts = path.split('/');
    for (let n = 1; n <= parts.length; n++) valid.add(parts.slice(0, n).join('/'));
  }
  for (const key of Object.keys(aliases)) {
    const value = (aliases as Record<string, unknown>)[key];
    const field = `aliases[${show(key)}]`;
    if (typeof value !== 'string') {
      out.push(error(field, `must be the old construct path, a string; received ${received(value)}`));
    } else if (value.trim() === '') {
      out.push(error(field, `must be the old construct path; received ${show(value)}`));
    }
    if (layout && !valid.has(key)) {
      const mapping = typeof value === 'string' ? ` (old path ${show(value)})` : '';
      out.push(error(field, `key ${show(key)}${mapping} is not the path of a chart group or chart the deployment creates, so it would keep no URN${closestKeys(key, valid)}`));
    }
  }
  return out;
}

/**
 * `; did you mean "x"?`: a valid key that ends with `key` (a chart's name without its group), or
 * one a typo away; else the valid keys closest to `key`.
 */
function closestKeys(key: string, valid: ReadonlySet<string>): string {
  if (valid.size === 0) return '';
  const below = [...valid].filter((v) => v.endsWith(`/${key}`));
  const hint = below.length > 0 ? below : [suggest(key, valid)].filter((v): v is string => v !== undefined);
  if (hint.length > 0) return `; did you mean ${hint.map((v) => show(v)).join(' or ')}?`;
  const distance = new Map([...valid].map((v) => [v, editDistance(key, v)]));
  const closest = [...valid].sort((a, b) => distance.get(a)! - distance.get(b)! || (a < b ? -1 : a > b ? 1 : 0)).slice(0, LISTED_ALIAS_KEYS);
  const which = valid.size > closest.length ? `the ${closest.length} closest of ${valid.size} valid keys` : 'valid keys, closest first';
  return `; ${which}: ${closest.map((v) => show(v)).join(', ')}`;
}

function warning(chart: ChartSpec, message: string): Diagnostic {
  const where = chart.origin.locate();
  return { severity: 'warning', location: where.location, ...(where.document ? { document: where.document } : {}), message, code: DiagnosticCodes.PULUMI_REDEPLOY };
}
