/**
 * Armada's overrides (`armada/handlers/override.py`), with its semantics, surprises included:
 *
 * - `--values FILE`: each Armada document of the file is matched to the first document with the
 *   same schema type AND version and the same `metadata.name`; its `data` is deep-merged in:
 *   mappings merge, anything else replaces, except that a string replacing a list is split on
 *   commas (each piece stripped). Override documents that match nothing are ignored by Armada
 *   (here: a warning).
 * - `--set TYPE:NAME:DOTTED.PATH=VALUE` (TYPE is `chart`, `chart_group` or `manifest`, matched by
 *   type, any version): the value is ALWAYS a string (`wait.timeout=600` sets `"600"`, which
 *   the integer schema then rejects), a string set onto an existing list is comma-split, missing
 *   intermediate keys are created. `--set` runs after every `--values` file.
 *
 * Where Armada crashes (a non-empty mapping merged onto a non-mapping, an empty `--set` value, a
 * value with `"`, `\` or a control character such as a tab or a newline that breaks its JSON round
 * trip, a non-Armada document before the `--set` target in the stream) this reports a diagnostic
 * instead. An empty mapping merged onto a list, a string or null is a no-op, as in Armada.
 *
 * Overrides change the data in place, as Armada's do: a node the document shares through a YAML
 * alias (PyYAML gives every alias the same object) changes at every place that refers to it, so
 * the documents must be copied with their sharing kept ({@link cloneShared}).
 */
import { append } from '../model/append';
import { Diagnostic, withCommas } from '../model/diagnostics';
import { getOwn, setOwn } from '../model/own-keys';
import { isPlainObject } from '../model/values';
import { DiagnosticCodes } from '../model/codes';
import { PYYAML_MAX_DEPTH } from '../model/armada-depth';
import { OverrideTrace, setSource, ValueSource } from './override-trace';

/** A document whose data the overrides may change (a copy; the loaded document stays as read). */
export interface OverridableDocument {
  readonly schema: string;
  readonly name: string;
  data: Record<string, unknown>;
  /**
   * Documents before this one in the stream that are not Armada's (label and location): Armada's
   * `--set` lookup fails on them.
   * @default - none
   */
  readonly precededBy?: readonly { readonly label: string; readonly location: string }[] | undefined;
  /**
   * Nodes of `data` that several places share through YAML aliases ({@link sharedNodes}).
   * @default - none
   */
  readonly shared?: ReadonlySet<object> | undefined;
  /**
   * Told where each value the overrides write into `data` came from.
   * @default - not told
   */
  readonly trace?: OverrideTrace | undefined;
}

/** Where a `--set` wrote: the document, the data path, and which `--set` argument. */
export interface SetWrite {
  readonly doc: OverridableDocument;
  readonly path: readonly string[];
  readonly index: number;
  /** The argument, as messages quote it ({@link quotedSet}). */
  readonly quoted: string;
}

/** An override document, from a `--values` file. */
export interface OverrideDocument {
  readonly schema: string;
  readonly name: string;
  readonly data: unknown;
  /** `file:line:column` of the override document, for diagnostics. */
  readonly location: string;
  /**
   * Where its values are written, for the findings about them once merged.
   * @default - not known: they are placed in the document they were merged into
   */
  readonly source?: ValueSource | undefined;
}

const TYPE_ALIASES: Record<string, string> = { chart: 'Chart', chart_group: 'ChartGroup', manifest: 'Manifest' };

function schemaParts(schema: string): { type: string; version: string } | undefined {
  const m = /^armada\/(Chart|ChartGroup|Manifest)\/(v\d+)$/.exec(schema);
  return m ? { type: m[1], version: m[2] } : undefined;
}

/**
 * Armada's `Override.update`: merges `u` into `d` in place; returns problems instead of crashing.
 * `written` learns each path whose value it replaced or created (not the mappings it merged into).
 * @default path - `[]`
 * @default written - not told
 */
export function armadaUpdate(d: Record<string, unknown>, u: Record<string, unknown>, path: string[] = [], written?: (path: string[]) => void): string[] {
  const problems: string[] = [];
  for (const [k, v] of Object.entries(u)) {
    if (isPlainObject(v)) {
      const current = getOwn(d, k);
      if (current === undefined) {
        setOwn(d, k, {});
        written?.([...path, k]);
      } else if (!isPlainObject(current)) {
        // `update(d.get(k), {})` loops over nothing and puts the old value back.
        if (Object.keys(v).length === 0) continue;
        problems.push(`${[...path, k].join('.')}: the override is a non-empty mapping but the document has ${current === null ? 'null' : Array.isArray(current) ? 'a list' : `a ${typeof current}`} there (Armada fails on this: it calls .get() on it)`);
        continue;
      }
      append(problems, armadaUpdate(getOwn(d, k) as Record<string, unknown>, v, [...path, k], written));
    } else {
      setOwn(d, k, typeof v === 'string' && Array.isArray(getOwn(d, k)) ? v.split(',').map((x) => x.trim()) : v);
      written?.([...path, k]);
    }
  }
  return problems;
}

/** Applies `--values` documents in order; returns the diagnostics. */
export function applyValuesFiles(docs: OverridableDocument[], overrides: readonly OverrideDocument[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const ovr of overrides) {
    const info = schemaParts(ovr.schema);
    if (!info) continue; // Armada ignores override documents of other schemas.
    const target = docs.find((doc) => {
      const t = schemaParts(doc.schema);
      return t !== undefined && t.type === info.type && t.version === info.version && doc.name === ovr.name;
    });
    if (!target) {
      out.push({ severity: 'warning', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, code: DiagnosticCodes.OVERRIDE, message: 'this override document matches no document of the same schema and name; Armada ignores it' });
      continue;
    }
    // Override.update_document merges `ovr.get('data', {})`: nothing when there is no data, and
    // Override.update fails on None (it calls .items() on it).
    if (ovr.data === undefined) {
      out.push({ severity: 'warning', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, code: DiagnosticCodes.OVERRIDE, message: "this override document has no data; Armada reads it as {} (ovr.get('data', {})) and merges nothing" });
      continue;
    }
    if (ovr.data === null) {
      out.push({ severity: 'error', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, field: 'data', code: DiagnosticCodes.OVERRIDE, message: "the override data is null; Armada fails on it when it merges it (Override.update: 'NoneType' object has no attribute 'items'): leave data out, or give a mapping" });
      continue;
    }
    if (!isPlainObject(ovr.data)) {
      out.push({ severity: 'error', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, field: 'data', code: DiagnosticCodes.OVERRIDE, message: 'the override data must be a mapping' });
      continue;
    }
    for (const where of sharedTouched(target, ovr.data)) {
      out.push({ severity: 'warning', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, code: DiagnosticCodes.OVERRIDE, message: `${where} is a node the document shares through a YAML alias; as in Armada, the change shows at every place that refers to it` });
    }
    for (const p of armadaUpdate(target.data, ovr.data, ['data'], traced(target, ovr.source))) {
      out.push({ severity: 'error', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, code: DiagnosticCodes.OVERRIDE, message: p });
    }
  }
  return out;
}

/**
 * Parses and applies `--set` expressions in order; returns the diagnostics. `onWrite` learns
 * where each one wrote, so that later findings about that value can name the `--set` argument.
 */
export function applySets(docs: OverridableDocument[], sets: readonly string[], onWrite?: (w: SetWrite) => void): Diagnostic[] {
  const out: Diagnostic[] = [];
  sets.forEach((expr, i) => {
    const location = `--set[${i}]`;
    const err = (message: string, severity: 'error' | 'warning' = 'error'): void => {
      out.push({ severity, location, code: DiagnosticCodes.OVERRIDE, message: `${quotedSet(expr)}: ${message}` });
    };
    const malformed = setSyntaxError(expr);
    if (malformed !== undefined) return err(malformed);
    const eq = expr.indexOf('=');
    const value = expr.slice(eq + 1);
    const docPath = expr.slice(0, eq).split(':');
    const dataPath = docPath.pop()!.split('.');
    const [alias, name] = docPath;
    const type = TYPE_ALIASES[alias];
    if (value === '') return err('the value is empty (Armada fails on an empty --set value)');
    // json.loads refuses raw control characters inside a string ("Invalid control character").
    const control = /[\u0000-\u001f]/.exec(value);
    if (control) {
      return err(`the value contains ${CONTROL_NAMES[control[0]] ?? `the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`}, which Armada's JSON round trip of --set values refuses ("Invalid control character"); write it as a JSON escape (\\t, \\n, \\u0001) or put the value in a --values file`);
    }
    const nullKey = dataPath.find((p) => pyJsonString(p).includes('null'));
    if (nullKey !== undefined) {
      return err(`the path segment ${JSON.stringify(nullKey)} contains "null" (as Python's json.dumps writes it): Armada replaces every "null" of its JSON text with the value, so the text no longer reads as JSON and json.loads fails (JSONDecodeError)`);
    }
    if (dataPath.includes('')) {
      return err('the path has an empty segment ("a..b", or a "." at an end); Armada would set a key "" there, which no Armada field and hardly any chart value has, so armada-cdk takes it for a typo');
    }
    // The document's mapping and `data` are two levels; each segment but the last adds one.
    if (dataPath.length + 1 > PYYAML_MAX_DEPTH) {
      return err(
        `the path has ${dataPath.length} segments, so the document would nest more than ${PYYAML_MAX_DEPTH} levels deep: more than Armada handles (its merge and PyYAML recurse once or more per level and stop with a RecursionError)`,
      );
    }
    const target = docs.find((d) => schemaParts(d.schema)?.type === type && d.name === name);
    // Armada walks the whole stream in order and reads `get_schema_info(schema).type` of each
    // document: one that is not Armada's, before the target, raises AttributeError.
    const blocker = target ? target.precededBy?.[0] : docs.find((d) => d.precededBy?.length)?.precededBy?.[0];
    if (blocker) {
      return err(`${blocker.label ? `document ${blocker.label}` : 'a document'} (${blocker.location}) is not an Armada document and comes before the ${alias} ${JSON.stringify(name)} in the stream; Armada's --set looks documents up in stream order and fails on it ('NoneType' object has no attribute 'type'): pass the Armada documents first, or in files of their own`);
    }
    if (!target) return err(`no ${alias} document named ${JSON.stringify(name)} (Armada: UnknownDocumentOverrideException)`);
    // Armada builds the override tree by walking the path and stops descending at every segment
    // equal to the last one (a bug): `a.b.a=v` sets both `a` and `b.a`. Reproduced, with a warning.
    const decoded = setValue(dataPath, value);
    if (typeof decoded !== 'string') return err(decoded.problem);
    const tree: Record<string, unknown> = {};
    let t = tree;
    const last = dataPath[dataPath.length - 1];
    for (const part of dataPath) {
      if (part === last) {
        if (!Object.hasOwn(t, part)) setOwn(t, part, decoded);
        continue;
      }
      if (!Object.hasOwn(t, part)) setOwn(t, part, {});
      t = getOwn(t, part) as Record<string, unknown>;
    }
    if (dataPath.slice(0, -1).includes(last)) {
      err(`the path repeats its last segment ${JSON.stringify(last)}; Armada then also sets it at the first place it appears`, 'warning');
    }
    for (const where of sharedTouched(target, tree)) {
      err(`${where} is a node the document shares through a YAML alias; as in Armada, the change shows at every place that refers to it`, 'warning');
    }
    for (const p of armadaUpdate(target.data, tree, ['data'], traced(target, setSource(i)))) err(p);
    onWrite?.({ doc: target, path: dataPath, index: i, quoted: quotedSet(expr) });
  });
  return out;
}

/** The text of a JSON string, the escapes of a valid one: `\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t`, `\\uXXXX`. */
const JSON_STRING_BODY = /^(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*$/;
/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The string a `--set` value becomes, or what is wrong with it. Armada (`Override.array_to_dict`)
 * builds the path as a tree with `None` at its end, writes it with `json.dumps`, replaces each
 * `null` of that text with `"VALUE"` and reads it back with `json.loads`: the value is the body of
 * a JSON string, so its escapes are decoded (`\\n` becomes a newline, `\\"` a quote) and anything
 * else that is not a valid string body either fails json.loads or, worse, reads as other JSON.
 * The path is known to be free of `null` and the value of control characters.
 */
export function setValue(dataPath: readonly string[], value: string): string | { problem: string } {
  if (JSON_STRING_BODY.test(value)) {
    const decoded = JSON.parse(`"${value}"`) as string;
    const lone = LONE_SURROGATE.exec(decoded);
    if (lone) {
      return {
        problem: `the value decodes to a lone UTF-16 surrogate (\\u${lone[0].charCodeAt(0).toString(16).toUpperCase()}), which is no character: Armada's json.loads keeps it, but it cannot be written as UTF-8, and the values file Armada writes for Helm then holds an escape that Helm's YAML reader refuses ("invalid Unicode character escape code"); write the character itself, or both halves of its surrogate pair`,
      };
    }
    return decoded;
  }
  // Read as json.loads reads the string: the first bad escape or unescaped quote decides.
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '"') break;
    if (value[i] !== '\\') continue;
    const escape = /^\\(?:u[0-9a-fA-F]{4}|["\\/bfnrt])/.exec(value.slice(i, i + 6));
    if (escape) {
      i += escape[0].length - 1;
      continue;
    }
    const shown = value.slice(i, value[i + 1] === 'u' ? i + 6 : i + 2);
    const atEnd = i === value.length - 1;
    return {
      problem: `the value has ${JSON.stringify(shown)}${atEnd ? ' at its end' : ''}, which is no JSON escape: Armada reads a --set value as the body of a JSON string, and json.loads fails on it ("${atEnd ? 'Unterminated string' : 'Invalid \\escape'}"); the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, so write \\\\ for a backslash`,
    };
  }
  // An unescaped double quote ends Armada's JSON string early: what follows is read as JSON.
  let armada: unknown;
  let parsed = true;
  try {
    armada = JSON.parse(armadaSetText(dataPath, value));
  } catch {
    parsed = false;
  }
  const reads = parsed
    ? `, which here reads as other JSON: Armada would merge ${quotedJson(armada)} into the document instead of setting one string`
    : ' and json.loads fails (JSONDecodeError)';
  return { problem: `the value has a double quote that is not escaped: Armada writes the value between double quotes into a JSON text as it is, so the quote ends the string${reads}; write \\" for a double quote` };
}

/** Armada's JSON text for a `--set` before json.loads: its tree of the path written by json.dumps, each `null` replaced by `"VALUE"`. */
function armadaSetText(dataPath: readonly string[], value: string): string {
  // Armada's tree: `None` at every segment equal to the last one, dicts elsewhere.
  const tree = new Map<string, unknown>();
  let t = tree;
  const last = dataPath[dataPath.length - 1];
  for (const part of dataPath) {
    if (part === last) {
      if (!t.has(part)) t.set(part, null);
      continue;
    }
    if (!(t.get(part) instanceof Map)) t.set(part, new Map<string, unknown>());
    t = t.get(part) as Map<string, unknown>;
  }
  const dumps = (v: unknown): string => (v instanceof Map ? `{${[...v].map(([k, x]) => `${pyJsonString(k)}: ${dumps(x)}`).join(', ')}}` : 'null');
  return dumps(tree).split('null').join(`"${value}"`);
}

/** A JSON value as a message quotes it: whole, or its start and its length. */
function quotedJson(v: unknown): string {
  const text = JSON.stringify(v);
  return text.length <= 120 ? text : `${text.slice(0, 100)}… (${withCommas(text.length)} characters)`;
}

/** Python's `json.dumps` of a string (`ensure_ascii`): `"` and `\\` escaped, anything outside printable ASCII as `\\uXXXX`. */
export function pyJsonString(s: string): string {
  return `"${s.replace(/[\\"]|[^ -~]/g, (c) => PY_JSON_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

const PY_JSON_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** What records the writes of `source` in the trace of `doc`, when both are known. */
function traced(doc: OverridableDocument, source: ValueSource | undefined): ((path: string[]) => void) | undefined {
  const trace = doc.trace;
  return trace && source ? (path) => trace.record(path, source) : undefined;
}

/**
 * What is wrong with the form of a `--set` argument (`TYPE:NAME:PATH=VALUE`, TYPE one Armada
 * knows), or undefined: a mistake the command line shows by itself, before any document is read.
 */
export function setSyntaxError(expr: string): string | undefined {
  const eq = expr.indexOf('=');
  if (eq < 0) return 'expected TYPE:NAME:PATH=VALUE (no "=" found)';
  const docPath = expr.slice(0, eq).split(':');
  if (docPath.length < 3) return 'expected TYPE:NAME:PATH=VALUE (TYPE is chart, chart_group or manifest)';
  if (!Object.hasOwn(TYPE_ALIASES, docPath[0])) return `unknown document type ${JSON.stringify(docPath[0])}; Armada knows chart, chart_group and manifest`;
  return undefined;
}

/** Longer `--set` arguments are quoted by their start and their length. */
const SET_QUOTED_MAX = 200;

/**
 * A `--set` argument as the messages about it quote it: whole, or its first characters and its
 * length when it is longer than a line (a path of 20,000 segments is 130 kB).
 */
export function quotedSet(expr: string): string {
  if (expr.length <= SET_QUOTED_MAX) return JSON.stringify(expr);
  return `${JSON.stringify(expr.slice(0, SET_QUOTED_MAX - 40)).slice(0, -1)}…" (${withCommas(expr.length)} characters)`;
}

const CONTROL_NAMES: Record<string, string> = { '\t': 'a tab', '\n': 'a newline', '\r': 'a carriage return' };

/** The paths (`data.wait.labels`) of shared nodes an override tree would change in place. */
function sharedTouched(doc: OverridableDocument, tree: Record<string, unknown>): string[] {
  const shared = doc.shared;
  if (!shared || shared.size === 0) return [];
  const found: string[] = [];
  const walk = (d: unknown, u: Record<string, unknown>, path: string[]) => {
    if (!isPlainObject(d)) return;
    if (shared.has(d)) {
      found.push(path.join('.'));
      return;
    }
    for (const [k, v] of Object.entries(u)) if (isPlainObject(v)) walk(d[k], v, [...path, k]);
  };
  walk(doc.data, tree, ['data']);
  return found;
}

/**
 * The objects (mappings and lists) reachable from `root` more than once: what YAML aliases share.
 * A `<<` merge copies the keys but shares their values, as PyYAML does.
 */
export function sharedNodes(root: unknown): Set<object> {
  const seen = new Set<object>();
  const shared = new Set<object>();
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return;
    if (seen.has(v)) {
      shared.add(v);
      return;
    }
    seen.add(v);
    for (const x of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) walk(x);
  };
  walk(root);
  return shared;
}

/**
 * A deep copy that keeps the sharing of the original (Python's `deepcopy` memo): two places that
 * referred to one object refer to one copy, so an override through one is seen through the other.
 * Scalars and class instances (timestamps, binary data) are kept as they are.
 */
export function cloneShared<T>(root: T): T {
  const copies = new Map<object, unknown>();
  const copy = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const done = copies.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      copies.set(v, out);
      for (const x of v) out.push(copy(x));
      return out;
    }
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    copies.set(v, out);
    // defineProperty: a `__proto__` key of the input stays an own key, as in a Python dict.
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: copy(x), writable: true, enumerable: true, configurable: true });
    return out;
  };
  return copy(root) as T;
}
