/**
 * The runtime types of a definition's fields. TypeScript checks them when it compiles the site;
 * JavaScript callers (or TypeScript through `as any`) can pass anything. Each field of the wrong
 * type is an error naming the field, the value received and what is allowed, and is left out of
 * the copy of the spec that the other rules read, so that they never meet a value they do not
 * expect. These are plain typeof and brand checks: a well-typed spec comes back as it is.
 */
import { DiagnosticCodes } from './codes';
import { Diagnostics, FieldPath, formatFieldPath, Origin, show } from './diagnostics';
import { Duration } from './duration';
import { ChartSource } from './source';
import { ChartGroupSpec, ChartSpec, HookAction, ManifestSpec, SchemaVersion } from './spec';
import { WaitResource } from './wait';

type Obj = Record<string, unknown>;

const DURATION = 'a Duration: use Duration.seconds(n) or Duration.minutes(n)';
const WAIT_RESOURCE = 'a WaitResource: use WaitResource.job(...), .pod(...), .deployment(...), .daemonSet(...) or .statefulSet(...)';
const HOOK_ACTION = 'a hook action ({ type: "job" | "cronjob" | "pod", labels?, name? })';

/** Reports the fields of one definition and counts them. */
class FieldTypes {
  public errors = 0;
  constructor(private readonly d: Diagnostics, private readonly origin: Origin) {}

  public bad(field: FieldPath, value: unknown, allowed: string): undefined {
    this.errors++;
    this.d.error(this.origin, field, DiagnosticCodes.PROP_TYPE, `received ${show(value)}; ${formatFieldPath(field)} must be ${allowed}`);
    return undefined;
  }

  public bool(v: unknown, field: FieldPath): boolean | undefined {
    return v === undefined || typeof v === 'boolean' ? v : this.bad(field, v, 'true or false');
  }

  public str(v: unknown, field: FieldPath): string | undefined {
    return v === undefined || typeof v === 'string' ? v : this.bad(field, v, 'a string');
  }

  public duration(v: unknown, field: FieldPath): Duration | undefined {
    return v === undefined || Duration.isDuration(v) ? v : this.bad(field, v, DURATION);
  }

  public schemaVersion(v: unknown, field: FieldPath): SchemaVersion | undefined {
    return v === undefined || v === SchemaVersion.V1 || v === SchemaVersion.V2 ? v : this.bad(field, v, 'SchemaVersion.V1 or SchemaVersion.V2');
  }

  /** An options object; `check` gives its fields, checked. */
  public object<T>(v: unknown, field: FieldPath, allowed: string, check: (o: Obj) => T): T | undefined {
    if (v === undefined) return undefined;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return this.bad(field, v, allowed);
    return check(v as Obj);
  }

  /** A list; `item` checks each one (and replaces one of the wrong type, so that the items after it keep their index). */
  public list<T>(v: unknown, field: FieldPath, allowed: string, item: (x: unknown, i: number) => T): T[] | undefined {
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) return this.bad(field, v, allowed);
    return v.map(item);
  }

  public labels(v: unknown, field: FieldPath): Readonly<Record<string, string>> | undefined {
    // The values' types are checked with the label syntax (checkLabels).
    return this.object(v, field, 'labels: an object of strings ({ "app.kubernetes.io/name": "x" })', (o) => o as Record<string, string>);
  }

  public hooks(v: unknown, field: FieldPath): HookAction[] | undefined {
    return this.list(v, field, `a list, each item ${HOOK_ACTION}`, (h, i) => {
      const f = [...field, i];
      // The stand-in for an item of the wrong type draws no other finding.
      return this.object(h, f, HOOK_ACTION, (o) => ({
        ...o,
        type: this.str(o.type, [...f, 'type']) ?? 'job',
        labels: this.labels(o.labels, [...f, 'labels']),
        name: this.str(o.name, [...f, 'name']),
      })) ?? { type: 'job' };
    });
  }
}

/**
 * Checks the runtime type of every field of the manifest, its groups and its charts, reporting
 * each wrong one to `d`. Returns the spec with those fields left out (an item of a list replaced
 * by a neutral stand-in), or `spec` itself when every field has its type.
 */
export function checkFieldTypes(spec: ManifestSpec, d: Diagnostics): ManifestSpec {
  const m = new FieldTypes(d, spec.origin);
  const schemaVersion = m.schemaVersion(spec.schemaVersion, ['schemaVersion']) ?? SchemaVersion.V1;
  let changed = m.errors > 0;
  const groups = spec.groups.map((g) => {
    const c = checkGroup(g, d);
    changed ||= c !== g;
    return c;
  });
  const charts = spec.charts.map((x) => {
    const c = checkChart(x, d);
    changed ||= c !== x;
    return c;
  });
  return changed ? { ...spec, schemaVersion, groups, charts } : spec;
}

function checkGroup(g: ChartGroupSpec, d: Diagnostics): ChartGroupSpec {
  const k = new FieldTypes(d, g.origin);
  const checked: ChartGroupSpec = {
    ...g,
    schemaVersion: k.schemaVersion(g.schemaVersion, ['schemaVersion']),
    description: k.str(g.description, ['description']),
    sequenced: k.bool(g.sequenced, ['sequenced']),
    testCharts: k.bool(g.testCharts, ['testCharts']),
    displayName: k.str(g.displayName, ['displayName']),
  };
  return k.errors > 0 ? checked : g;
}

function checkChart(c: ChartSpec, d: Diagnostics): ChartSpec {
  if (isWellTyped(c)) return c;
  const k = new FieldTypes(d, c.origin);
  const test = typeof c.test === 'boolean'
    ? c.test
    : k.object(c.test, ['test'], 'true, false or { enabled?, timeout?, cleanup? }', (t) => ({
      ...t,
      enabled: k.bool(t.enabled, ['test', 'enabled']),
      timeout: k.duration(t.timeout, ['test', 'timeout']),
      cleanup: k.bool(t.cleanup, ['test', 'cleanup']),
    }));
  const checked: ChartSpec = {
    ...c,
    schemaVersion: k.schemaVersion(c.schemaVersion, ['schemaVersion']),
    chartName: k.str(c.chartName, ['chartName']),
    source: (ChartSource.isChartSource(c.source)
      ? c.source
      : k.bad(['source'], c.source, 'a ChartSource: use ChartSource.git(...), .tar(...) or .local(...)')) as ChartSource,
    values: k.object(c.values, ['values'], 'an object of Helm values ({ key: value })', (v) => v),
    protected: k.object(c.protected, ['protected'], '{ continueProcessing?: true | false }', (p) => ({
      ...p,
      continueProcessing: k.bool(p.continueProcessing, ['protected', 'continueProcessing']),
    })),
    test,
    wait: k.object(c.wait, ['wait'], '{ timeout?, labels?, resources?, native? }', (w) => ({
      ...w,
      timeout: k.duration(w.timeout, ['wait', 'timeout']),
      labels: k.labels(w.labels, ['wait', 'labels']),
      resources: k.list(w.resources, ['wait', 'resources'], `a list, each item ${WAIT_RESOURCE}`, (r, i) => {
        const f = ['wait', 'resources', i];
        if (!WaitResource.isWaitResource(r)) return k.bad(f, r, WAIT_RESOURCE) ?? WaitResource.of('job');
        const o = r.options;
        const required = k.bool(o.required, [...f, 'required']);
        const allowAsyncUpdates = k.bool(o.allowAsyncUpdates, [...f, 'allowAsyncUpdates']);
        const labels = k.labels(o.labels, [...f, 'labels']);
        return required === o.required && allowAsyncUpdates === o.allowAsyncUpdates && labels === o.labels
          ? r
          : WaitResource.of(r.type, { ...o, required, allowAsyncUpdates, labels });
      }),
      native: k.object(w.native, ['wait', 'native'], '{ enabled?: true | false }', (n) => ({
        ...n,
        enabled: k.bool(n.enabled, ['wait', 'native', 'enabled']),
      })),
    })),
    upgrade: k.object(c.upgrade, ['upgrade'], '{ noHooks?, pre?, post?, options? }', (u) => ({
      ...u,
      noHooks: k.bool(u.noHooks, ['upgrade', 'noHooks']),
      pre: k.object(u.pre, ['upgrade', 'pre'], '{ delete?, update?, create? }', (p) => ({
        ...p,
        delete: k.hooks(p.delete, ['upgrade', 'pre', 'delete']),
        update: k.hooks(p.update, ['upgrade', 'pre', 'update']),
        create: k.hooks(p.create, ['upgrade', 'pre', 'create']),
      })),
      post: k.object(u.post, ['upgrade', 'post'], '{ create? }', (p) => ({ ...p, create: k.hooks(p.create, ['upgrade', 'post', 'create']) })),
      options: k.object(u.options, ['upgrade', 'options'], '{ force?: true | false }', (o) => ({ ...o, force: k.bool(o.force, ['upgrade', 'options', 'force']) })),
    })),
    delete: k.object(c.delete, ['delete'], '{ timeout? }', (x) => ({ ...x, timeout: k.duration(x.timeout, ['delete', 'timeout']) })),
    install: k.object(c.install, ['install'], 'an object', (x) => x),
    timeout: k.duration(c.timeout, ['timeout']),
  };
  return k.errors > 0 ? checked : c;
}

// The common case, a chart whose every field has its type, answered without building the copy
// and the field paths that checkChart builds to report (a tenth of converting a large site).
// The same fields as checkChart: a field it checks and this does not would go unreported.

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const optObj = (v: unknown) => v === undefined || isObj(v);
const optBool = (v: unknown) => v === undefined || typeof v === 'boolean';
const optStr = (v: unknown) => v === undefined || typeof v === 'string';
const optDuration = (v: unknown) => v === undefined || Duration.isDuration(v);

function isWellTyped(c: ChartSpec): boolean {
  return (
    (c.schemaVersion === undefined || c.schemaVersion === SchemaVersion.V1 || c.schemaVersion === SchemaVersion.V2) &&
    optStr(c.chartName) &&
    ChartSource.isChartSource(c.source) &&
    optObj(c.values) &&
    (c.protected === undefined || (isObj(c.protected) && optBool(c.protected.continueProcessing))) &&
    (c.test === undefined || typeof c.test === 'boolean' || (isObj(c.test) && optBool(c.test.enabled) && optDuration(c.test.timeout) && optBool(c.test.cleanup))) &&
    waitIsWellTyped(c.wait) &&
    upgradeIsWellTyped(c.upgrade) &&
    (c.delete === undefined || (isObj(c.delete) && optDuration(c.delete.timeout))) &&
    optObj(c.install) &&
    optDuration(c.timeout)
  );
}

function waitIsWellTyped(w: unknown): boolean {
  if (w === undefined) return true;
  if (!isObj(w) || !optDuration(w.timeout) || !optObj(w.labels)) return false;
  if (w.native !== undefined && !(isObj(w.native) && optBool(w.native.enabled))) return false;
  if (w.resources === undefined) return true;
  if (!Array.isArray(w.resources)) return false;
  for (const r of w.resources as unknown[]) {
    if (!WaitResource.isWaitResource(r)) return false;
    const o = r.options;
    if (!optBool(o.required) || !optBool(o.allowAsyncUpdates) || !optObj(o.labels)) return false;
  }
  return true;
}

function upgradeIsWellTyped(u: unknown): boolean {
  if (u === undefined) return true;
  if (!isObj(u) || !optBool(u.noHooks)) return false;
  if (u.pre !== undefined && !(isObj(u.pre) && hooksAreWellTyped(u.pre.delete) && hooksAreWellTyped(u.pre.update) && hooksAreWellTyped(u.pre.create))) return false;
  if (u.post !== undefined && !(isObj(u.post) && hooksAreWellTyped(u.post.create))) return false;
  return u.options === undefined || (isObj(u.options) && optBool(u.options.force));
}

function hooksAreWellTyped(hooks: unknown): boolean {
  if (hooks === undefined) return true;
  if (!Array.isArray(hooks)) return false;
  return (hooks as unknown[]).every((h) => isObj(h) && optStr(h.type) && optObj(h.labels) && optStr(h.name));
}
