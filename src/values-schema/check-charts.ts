/**
 * Values against each local chart's own `values.schema.json`, at synth and in `armada-cdk
 * validate`: the check Helm would make at install time, made before anything is deployed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, Diagnostics, FieldPath, withCommas } from '../model/diagnostics';
import { append } from '../model/append';
import { firstByName } from '../model/first-by-name';
import { SourceType } from '../model/source';
import { ChartSpec, ManifestSpec } from '../model/spec';
import { getOwn, setOwn } from '../model/own-keys';
import { findValueProblems, isPlainObject, OpaqueLeafTest } from '../model/values';
import { ALIAS_EXPANSION_BUDGET, ALIAS_EXPANSION_CHAR_BUDGET, measureAliases } from './alias-budget';
import { readRegularFile, textProblem } from './read-file';

/** Options of {@link checkLocalChartValues}. */
export interface CheckLocalChartValuesOptions {
  /**
   * Recognises values known only later (Pulumi outputs and secrets). A chart whose values hold one
   * is left to {@link checkResolvedChartValues}, called once they are known: checking the
   * placeholder would reject a valid value, or pass an invalid one.
   * @default - every value is plain data, checked here
   */
  readonly opaqueValues?: OpaqueLeafTest | undefined;
}

/**
 * One diagnostic per violation, with the chart and the JSON path of the value, for every chart
 * of the manifest whose source is a local directory that has a `values.schema.json`. A chart
 * without a schema, or whose directory is not on this machine, is not an error.
 */
export function checkLocalChartValues(spec: ManifestSpec, options: CheckLocalChartValuesOptions = {}): Diagnostic[] {
  const out: Diagnostic[] = [];
  const charts = firstByName(spec.charts);
  const present = new PresentDirectories();
  for (const chart of charts.values()) {
    if (!hasLocalValuesSchema(chart, present)) continue;
    // Values with a cycle or nested past what Armada reads are the model's error already, and
    // walking them (here, in ajv, in the merge with the chart's defaults) would not end.
    if (findValueProblems(chart.values, options.opaqueValues).some((p) => p.unbounded)) continue;
    if (options.opaqueValues && opaquePaths(chart.values ?? {}, options.opaqueValues).length > 0) continue;
    append(out, checkChart(chart, chart.values ?? {}, []));
  }
  return out;
}

/**
 * The same check for one chart whose values held outputs, with their values now known. The
 * check sees the plain values; at `hidden` paths (where outputs were, secrets among them) a
 * message says what is allowed but never what was received.
 */
export function checkResolvedChartValues(chart: ChartSpec, values: Readonly<Record<string, unknown>>, hidden: readonly FieldPath[]): Diagnostic[] {
  return hasLocalValuesSchema(chart) ? checkChart(chart, values, hidden) : [];
}

/**
 * Whether the chart has a local `values.schema.json` to check against. `present` answers for
 * the charts under one source directory at once when that directory is missing.
 * @default present - none: the file is looked for
 */
export function hasLocalValuesSchema(chart: ChartSpec, present?: PresentDirectories): boolean {
  if (chart.source.type !== SourceType.LOCAL) return false;
  const dir = chartDir(chart);
  if (present !== undefined && !present.mayHold(chart.source.location, dir)) return false;
  return fs.existsSync(path.join(dir, 'values.schema.json'));
}

/**
 * Which source directories exist, each looked up once: sites are often converted away from the
 * host that deploys them, where their local charts' directory (`/opt/charts`) does not exist,
 * and a site of thousands of local charts would otherwise look for each chart's schema in it.
 */
export class PresentDirectories {
  private readonly known = new Map<string, boolean>();

  /** False when `dir` is inside `location` and `location` does not exist: nothing inside it can. */
  public mayHold(location: string, dir: string): boolean {
    const root = path.resolve(location);
    const inside = path.relative(root, dir);
    // `..` and what is under it leave the location; a name like `..charts` inside it does not.
    if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return true;
    let exists = this.known.get(root);
    if (exists === undefined) this.known.set(root, (exists = fs.existsSync(root)));
    return exists;
  }
}

/** Paths of the values that `opaque` recognises, in document order. */
export function opaquePaths(values: unknown, opaque: OpaqueLeafTest): FieldPath[] {
  const found: FieldPath[] = [];
  const onPath = new Set<object>();
  const walk = (v: unknown, at: (string | number)[]): void => {
    if (v === null || typeof v !== 'object') return;
    if (opaque(v)) {
      found.push(at);
      return;
    }
    if (onPath.has(v)) return;
    onPath.add(v);
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, [...at, i]));
    else for (const [k, item] of Object.entries(v)) walk(item, [...at, k]);
    onPath.delete(v);
  };
  walk(values, []);
  return found;
}

function chartDir(chart: ChartSpec): string {
  return path.resolve(chart.source.location, chart.source.effectiveSubpath);
}

/** The check of a chart that has a local values.schema.json ({@link hasLocalValuesSchema}). */
function checkChart(chart: ChartSpec, values: Readonly<Record<string, unknown>>, hidden: readonly FieldPath[]): Diagnostic[] {
  const d = new Diagnostics();
  const dir = chartDir(chart);
  // ajv, and what reports its findings, are loaded only when a chart has a schema to check.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ValuesSchemaError } = require('./errors') as typeof import('./errors');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadValuesSchema } = require('./load') as typeof import('./load');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { validateValues } = require('./validate') as typeof import('./validate');
  const defaults = readChartDefaults(dir);
  if ('problem' in defaults) {
    d.error(chart.origin, ['source'], 'values-schema', `the chart's values.yaml cannot be used: ${defaults.problem}`);
    return [...d.all];
  }
  try {
    const schema = loadValuesSchema(dir);
    for (const v of validateValues(schema, coalesce(defaults.values, values))) {
      const at = splitPath(v.path);
      const message = hidden.length > 0 ? hideReceived(v.message, at, values, hidden) : v.message;
      d.error(chart.origin, ['values', ...at], 'values-schema', `${message} (${path.join(dir, 'values.schema.json')})`);
    }
  } catch (e) {
    if (!(e instanceof ValuesSchemaError)) throw e;
    if (e.beyondValidator) d.warn(chart.origin, ['source'], 'values-schema', `the values were not checked against the chart's values.schema.json: ${e.message}; Helm checks them at install`);
    else d.error(chart.origin, ['source'], 'values-schema', `the chart's values.schema.json cannot be used: ${e.message}`);
  }
  return [...d.all];
}

/**
 * A violation at or inside a hidden value says what is allowed, not what was received. Messages
 * show only strings and scalars (objects and arrays are "an object", "an array"), so the hidden
 * value's own text is what must go; a message about anything else that still quotes one is
 * replaced whole.
 */
function hideReceived(message: string, at: FieldPath, values: unknown, hidden: readonly FieldPath[]): string {
  const covered = hidden.some((h) => h.length <= at.length && h.every((k, i) => at[i] === k));
  let out = message;
  if (covered) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { showValue } = require('./messages') as typeof import('./messages');
    const received = `received ${showValue(valueAt(values, at))}`;
    out = out.startsWith(received) ? `received a hidden value${out.slice(received.length)}` : out;
  }
  for (const h of hidden) {
    for (const leaf of scalars(valueAt(values, h))) {
      if (leaf.length >= 3 && out.includes(leaf)) return 'the hidden value here does not match the schema (not shown, as it may be secret)';
    }
  }
  return out;
}

function valueAt(values: unknown, at: FieldPath): unknown {
  let v: unknown = values;
  for (const k of at) v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k] : undefined;
  return v;
}

/** The text forms under which a value (or any scalar inside it) could appear in a message. */
function scalars(v: unknown): string[] {
  if (v === null || v === undefined) return [];
  if (typeof v !== 'object') return [String(v), JSON.stringify(v) ?? ''];
  return Object.values(v as object).flatMap(scalars);
}

/**
 * The chart's own values.yaml: Helm validates the schema against defaults + user values. Read as
 * every input is (bounded, UTF-8), and measured before the check walks it: an alias bomb or a
 * recursive alias there would hang the check, and Helm refuses both ("excessive aliasing").
 * `problem` says why the file cannot be used, as Helm could not load the chart either.
 */
export function readChartDefaults(dir: string): { values: Record<string, unknown> } | { problem: string } {
  const file = path.join(dir, 'values.yaml');
  if (!fs.existsSync(file)) return { values: {} };
  const read = readRegularFile(file);
  if ('problem' in read) return { problem: read.problem };
  const encoding = textProblem(read.bytes, file, 'Helm');
  if (encoding) return { problem: encoding.message };
  const text = read.bytes.toString('utf8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('js-yaml') as typeof import('js-yaml');
  let v: unknown;
  try {
    v = yaml.load(text, { filename: file });
  } catch (e) {
    const mark = (e as { mark?: { line: number; column: number } }).mark;
    const reason = (e as { reason?: string }).reason ?? (e as Error).message;
    return { problem: `${file}${mark ? `:${mark.line + 1}:${mark.column + 1}` : ''}: ${reason}; Helm cannot load the chart either` };
  }
  const size = measureAliases(v, {}, text.length);
  if (size === 'recursive') return { problem: `${file}: an alias contains the node it names, so the values are infinitely deep; Helm cannot load the chart either` };
  if (size !== 'ok') {
    return { problem: `${file}: its aliases expand to more than ${size === 'budget' ? `${withCommas(ALIAS_EXPANSION_BUDGET)} nodes` : `${ALIAS_EXPANSION_CHAR_BUDGET / 1024 / 1024} MiB of text`} (an alias bomb?); Helm refuses such a file (excessive aliasing)` };
  }
  return { values: isPlainObject(v) ? v : {} };
}

/** Helm's coalescing: user values over the chart's defaults, maps merged, `null` deletes the key. */
function coalesce(defaults: Record<string, unknown>, user: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(user)) {
    if (v === null) delete out[k];
    else {
      const current = getOwn(out, k);
      setOwn(out, k, isPlainObject(v) && isPlainObject(current) ? coalesce(current, v) : v);
    }
  }
  return out;
}

/** `pod.replicas["db-init"][2]` -> `['pod', 'replicas', 'db-init', 2]`. */
function splitPath(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(p))) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(`"${m[3]}"`));
  }
  return out;
}
