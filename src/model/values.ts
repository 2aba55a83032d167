/** Chart values: plain JSON data, checked, merged and canonicalised. */
import { isBranded } from './brand';
import { getOwn, setOwn } from './own-keys';
import { MAX_VALUES_DEPTH, PYYAML_MAX_DEPTH } from './armada-depth';
import { elidedFieldPath } from './diagnostics';

/** A JSON value, as Helm receives it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Chart values: a JSON object. `Chart<V>` narrows it per chart. */
export type Values = { [key: string]: unknown };

/** The brand {@link isYamlTimestamp} looks for. */
export const YAML_TIMESTAMP_BRAND = Symbol.for('armada-cdk.YamlTimestamp');

/**
 * True for a YAML 1.1 timestamp read from Armada YAML (PyYAML's `datetime.date` or
 * `datetime.datetime`), which values may hold: Armada writes it back with `yaml.safe_dump`, as its
 * `str()`, and Helm receives that text as a string. Such a value is branded by the importer.
 */
export function isYamlTimestamp(v: unknown): boolean {
  return isBranded(v, YAML_TIMESTAMP_BRAND);
}

/**
 * Values for a target that is not read by PyYAML (Kubernetes objects, Helm): every timestamp
 * becomes the string Helm gets from Armada (its `str()`); the rest is kept.
 */
export function timestampsAsStrings<T>(v: T): T {
  if (isYamlTimestamp(v)) return String(v) as unknown as T;
  if (Array.isArray(v)) return v.map(timestampsAsStrings) as unknown as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setOwn(out, k, timestampsAsStrings(v[k]));
    return out as T;
  }
  return v;
}

/** One place where a value is not JSON. */
export interface ValueProblem {
  /** Path inside the values, e.g. `['pod', 'replicas', 'server']`. */
  readonly path: readonly (string | number)[];
  readonly message: string;
  /**
   * A cycle, or nesting past {@link MAX_VALUES_DEPTH}: a walk of the whole values would not end,
   * or would exhaust the stack, so checks that walk them must not run.
   * @default false
   */
  readonly unbounded?: boolean | undefined;
}

/**
 * Leaves that are not JSON but that a backend can resolve itself (Pulumi outputs and secrets).
 * The cdk8s targets pass none, so such leaves are reported there.
 */
export type OpaqueLeafTest = (value: unknown) => boolean;

// Values a loader vouches for: trees of JSON values, as it built them (see assumeJsonTree).
const JSON_TREES = new WeakSet<object>();

/**
 * Records that `values` is a tree of plain JSON values that nothing will change, so that
 * {@link findValueProblems} need not walk it again: for a loader that built it from text in
 * which nothing else can be written (YAML without aliases or non-JSON scalars). A copy made
 * from it later is not covered and is walked.
 */
export function assumeJsonTree(values: object): void {
  JSON_TREES.add(values);
}

/**
 * Every place where `values` is not plain JSON: undefined, functions, symbols, NaN, Infinity,
 * class instances (Date, Map, ...), cycles. Reported all at once. A bigint is an integer beyond
 * 2^53 kept exact (YAML and Helm have them), and a timestamp read from Armada YAML is kept as one
 * ({@link isYamlTimestamp}): both are allowed. Values nested deeper than Armada reads
 * ({@link MAX_VALUES_DEPTH}) are reported once, at the first place (the walk goes no deeper, so
 * it cannot exhaust the stack); the problem's path is then empty, its message names the place.
 */
export function findValueProblems(values: unknown, opaque?: OpaqueLeafTest): ValueProblem[] {
  if (typeof values === 'object' && values !== null && JSON_TREES.has(values)) return [];
  const problems: ValueProblem[] = [];
  const onPath = new Set<object>();
  // One path, extended and shortened as the walk goes; copied only into a problem.
  const path: (string | number)[] = [];
  const problem = (message: string, unbounded?: true) => problems.push({ path: [...path], message, ...(unbounded ? { unbounded } : {}) });
  let tooDeep = false;
  const walk = (v: unknown, depth: number): void => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) problem(`received ${v}; JSON has no NaN or Infinity`);
      return;
    }
    if (v === undefined) {
      problem('received undefined; use null to remove a key, or leave the key out');
      return;
    }
    if (typeof v === 'function') {
      problem('received a function; values must be JSON data');
      return;
    }
    if (typeof v === 'bigint') return;
    if (typeof v === 'symbol') {
      problem(`received a ${typeof v}; values must be JSON data`);
      return;
    }
    if (isYamlTimestamp(v)) return;
    if (opaque && opaque(v)) return;
    const obj = v as object;
    if (onPath.has(obj)) {
      problem('refers back to one of its own parents (a cycle); values must be a tree', true);
      return;
    }
    if (depth > MAX_VALUES_DEPTH && (Array.isArray(obj) || isPlainObject(obj))) {
      if (!tooDeep) problems.push({ path: [], message: tooDeepMessage(path), unbounded: true });
      tooDeep = true;
      return;
    }
    if (Array.isArray(obj)) {
      onPath.add(obj);
      for (let i = 0; i < obj.length; i++) {
        // A hole in a sparse array would serialize as null: treat it as undefined.
        path.push(i);
        walk(i in obj ? obj[i] : undefined, depth + 1);
        path.pop();
      }
      onPath.delete(obj);
      return;
    }
    if (obj instanceof Uint8Array) {
      problem(binaryMessage(obj));
      return;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      const name = (obj as { constructor?: { name?: string | undefined } }).constructor?.name ?? 'object';
      problem(`received an instance of ${name}; values must be plain objects, arrays and scalars`);
      return;
    }
    onPath.add(obj);
    for (const key of Object.keys(obj)) {
      path.push(key);
      walk((obj as Record<string, unknown>)[key], depth + 1);
      path.pop();
    }
    onPath.delete(obj);
  };
  walk(values, 1);
  return problems;
}

/**
 * Binary data (what YAML's `!!binary` reads into). Under Armada it reaches Helm as text: PyYAML
 * gives bytes, `yaml.safe_dump` writes them back as `!!binary`, and go-yaml v2 decodes that into a
 * Go string, which sigs.k8s.io/yaml's JSON step makes UTF-8 (an invalid byte becomes U+FFFD).
 * armada-cdk's targets have no binary values, so it asks for that text instead.
 */
function binaryMessage(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const shown = text.length <= 60 ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, 50)).slice(0, -1)}…" (${text.length} characters)`;
  return (
    `received binary data (${bytes.length} byte${bytes.length === 1 ? '' : 's'}, as YAML's !!binary gives); Armada deploys it: yaml.safe_dump writes it for Helm as !!binary and Helm's YAML reader decodes it into the string ${shown}` +
    `${text.includes('\ufffd') ? ' (bytes that are not UTF-8 text become U+FFFD)' : ''}; armada-cdk's targets carry no binary values: write that string instead`
  );
}

function tooDeepMessage(path: readonly (string | number)[]): string {
  return (
    `nested more than ${MAX_VALUES_DEPTH} levels deep (at ${elidedFieldPath(['values', ...path])}): Armada reads a chart document with PyYAML, ` +
    `which stops past ${PYYAML_MAX_DEPTH} levels with a RecursionError, and values start two levels down (data.values); flatten the values`
  );
}

/** True for a plain object (not an array, not null, not a class instance). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Deep merge with Helm's semantics for several values files (`helm -f a.yaml -f b.yaml`): maps
 * merge key by key, anything else (lists included) replaces. A `null` removes the key: it stays in
 * the result as `null`, because Helm needs to see it to also drop the chart's own default for
 * that key. Inputs are not modified. Deeper than Armada reads ({@link MAX_VALUES_DEPTH} levels),
 * nothing is merged or copied: the override's part is taken as it is, and validation refuses it.
 */
export function mergeValues<T extends Values>(base: T, ...overrides: readonly Values[]): T {
  let out: Values = cloneJson(base) as Values;
  for (const o of overrides) out = mergeTwo(out, o, 1);
  return out as T;
}

function mergeTwo(base: Values, override: Values, depth: number): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(override)) {
    const current = getOwn(out, k);
    // Past what Armada reads, the override replaces (whole, as it was): validation refuses the
    // result anyway, and merging on down could exhaust the stack.
    if (isPlainObject(v) && isPlainObject(current) && depth < MAX_VALUES_DEPTH) {
      setOwn(out, k, mergeTwo(current as Values, v, depth + 1));
    } else {
      setOwn(out, k, cloneJson(v, undefined, depth + 1));
    }
  }
  return out;
}

/**
 * A deep copy of JSON-like data. Class instances (such as Pulumi outputs) are kept by reference,
 * and so are a cycle and whatever lies deeper than Armada reads ({@link MAX_VALUES_DEPTH}), so
 * that validation can still report them instead of overflowing the stack here.
 */
export function cloneJson<T>(v: T, onPath: Set<object> = new Set(), depth = 1): T {
  if (typeof v !== 'object' || v === null || onPath.has(v) || depth > MAX_VALUES_DEPTH) return v;
  if (!Array.isArray(v) && !isPlainObject(v)) return v;
  onPath.add(v);
  let out: unknown;
  if (Array.isArray(v)) out = v.map((x) => cloneJson(x, onPath, depth + 1));
  else {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setOwn(o, k, cloneJson((v as Record<string, unknown>)[k], onPath, depth + 1));
    out = o;
  }
  onPath.delete(v);
  return out as T;
}

/**
 * A copy with every object's keys in sorted order, so that output does not depend on the order in
 * which the values were written. `null` is kept (it means "remove this default" to Helm).
 * `leaf` replaces each object that is neither an array nor a plain object (a timestamp, say);
 * strings, numbers and the other primitives are kept as they are.
 * @default leaf - none: such objects are kept
 */
export function sortKeysDeep<T>(v: T, leaf?: (v: object) => unknown): T {
  const copy = (x: unknown): unknown => {
    if (typeof x !== 'object' || x === null) return x;
    if (Array.isArray(x)) return x.map(copy);
    if (isPlainObject(x)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(x).sort()) setOwn(out, k, copy(x[k]));
      return out;
    }
    return leaf === undefined ? x : leaf(x);
  };
  return copy(v) as T;
}

/** A timestamp read from YAML as the string it was written as; any other value as it is. */
export function timestampAsString(v: unknown): unknown {
  return isYamlTimestamp(v) ? String(v) : v;
}

/**
 * The paths of the first `max` leaves of `values` (a scalar or null: anything but an array or an
 * object) for which `test` holds, depth first, arrays by index and objects in key order. One
 * path is extended and shortened in place, and copied only for a leaf found.
 */
export function leafPaths(values: unknown, test: (leaf: unknown) => boolean, max = Infinity): (string | number)[][] {
  const found: (string | number)[][] = [];
  const at: (string | number)[] = [];
  const walk = (v: unknown): void => {
    if (found.length >= max) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        at.push(i);
        walk(v[i]);
        at.pop();
      }
    } else if (v !== null && typeof v === 'object') {
      for (const k of Object.keys(v)) {
        at.push(k);
        walk((v as Record<string, unknown>)[k]);
        at.pop();
      }
    } else if (test(v)) found.push([...at]);
  };
  walk(values);
  return found;
}
