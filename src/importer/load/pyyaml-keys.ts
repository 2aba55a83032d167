/**
 * What PyYAML's composer and constructor refuse, or read differently, in mapping keys and anchors,
 * where js-yaml (which builds the values) is lenient:
 *
 * - an anchor defined twice in one document ("found duplicate anchor"): js-yaml lets the second
 *   replace the first;
 * - keys that are equal in Python although written differently (`1`, `1.0`, `true`, `0x1`: one
 *   dict key in Python, as `True == 1 == 1.0`), which js-yaml keeps apart as strings;
 * - a label key that PyYAML does not read as a string (`on` is the boolean `True`): Armada then
 *   selects on `True=...`, which no Kubernetes label named `on` matches.
 *
 * Each check first looks at the raw text, so that the common document costs no AST.
 */
import type { Alias, Document, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { Diagnostic, withCommas } from '../../model/diagnostics';
import { formatWirePath } from '../../model/wire/fields';
import { goFloat32Key } from '../../model/go-float32-key';
import { LoadCodes } from './codes';
import { ChunkAst } from './positions';
import { pyRepr, pyStrRepr } from './py-repr';
import { FloatMarker } from './py-values';
import { PyKey, resolvePlainScalar } from './pyyaml-schema';
import { pyScalarOf } from './yaml-ast-load';
import { resolveAlias } from './alias-targets';
import type { DuplicateKey, SourcePosition } from './wire-path';

// The yaml package is loaded only when a chunk's keys need its AST (see keyProblemsPrefilter).
let yamlModule: typeof import('yaml') | undefined;
function yamlLib(): typeof import('yaml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (yamlModule ??= require('yaml') as typeof import('yaml'));
}
const isAlias = (n: unknown): n is Alias => yamlLib().isAlias(n);
const isMap = (n: unknown): n is YAMLMap => yamlLib().isMap(n);
const isSeq = (n: unknown): n is YAMLSeq => yamlLib().isSeq(n);
const isScalar = (n: unknown): n is Scalar => yamlLib().isScalar(n);

const ANCHOR = /&([^\s[\]{},]+)/g;

// A plain key PyYAML may not read as a string: YAML 1.1 booleans, null, a number. Tested on
// `'\n' + text`: the line break stands for the text's start. A key starts after a line break, a
// flow indicator, `?` or a `-` and a blank (a sequence item): never inside a run of the number
// characters, so that each run is tried from one start only and the test stays linear in the text
// (a `-` inside `-0-0-0...` was a start too, which took minutes on 100 KB).
const NON_STRING_KEY = /(?:[\n\r\u2028\u2029{,?]|-(?=[ \t]))[ \t]*(?:[yYnN]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|[-+.]?[0-9][0-9a-fA-F_.:xob+-]*)[ \t]*:(?:[ \t]|$)/m;
/**
 * Cheap test of a chunk's text: `ast` when {@link keyProblems} must read it (a redefined anchor,
 * a tagged key), `keys` when a plain key may not be a string to PyYAML (then
 * {@link mayHaveKeyProblemsIn} tells from each document's value), else `none`.
 */
export function keyProblemsPrefilter(text: string): 'ast' | 'keys' | 'none' {
  if (hasRepeatedAnchor(text) || mayHaveTaggedKey(text)) return 'ast';
  return NON_STRING_KEY.test(`\n${text}`) ? 'keys' : 'none';
}

// The first characters of a plain scalar PyYAML may resolve to something other than a string.
const MAYBE_NOT_STR = /^(?:$|[~nNyYtTfFoO0-9+.-])/;

/**
 * Whether a document's value, as js-yaml built it (keys made strings, a key written twice kept
 * once, merges done), may hold what {@link keyProblems} reports, read as if every key were plain:
 * two keys of one mapping that are one Python key, a null key under `data.values`, a number or bool
 * key of selector labels. False rules the AST out; the caller reads it only for a chunk with no
 * repeated key and no merge, whose keys all reach the value.
 */
export function mayHaveKeyProblemsIn(value: unknown, aliases = true): boolean {
  // Without aliases no node is reached twice, and the walk needs no set of those it has seen.
  const seen = aliases ? new Set<object>() : undefined;
  // Parallel stacks (no object per node): the node, where it is (see WHERE), and its key.
  const nodes: unknown[] = [value];
  const wheres: number[] = [ROOT];
  const keys: (string | number)[] = [''];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const where = wheres.pop()!;
    const last = keys.pop()!;
    if (node === null || typeof node !== 'object') continue;
    const first = seen === undefined || !seen.has(node);
    seen?.add(node);
    const inner = (key: string | number) => (where === ROOT ? (key === 'data' ? DATA : OTHER) : where === DATA ? (key === 'values' ? VALUES : key === 'wait' || key === 'upgrade' ? SELECTORS : OTHER) : where);
    if (Array.isArray(node)) {
      if (first) {
        for (let i = 0; i < node.length; i++) {
          nodes.push(node[i]);
          wheres.push(inner(i));
          keys.push(i);
        }
      }
      continue;
    }
    const proto = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== null) continue;
    let hashes: Set<string> | undefined;
    // A mapping reached again through an alias is checked here too, but not walked again.
    // for-in: no array of keys per mapping (js-yaml's mappings have no inherited enumerable keys).
    for (const key in node) {
      if (first) {
        nodes.push((node as Record<string, unknown>)[key]);
        wheres.push(inner(key));
        keys.push(key);
      }
      if (!MAYBE_NOT_STR.test(key)) continue;
      const v = resolvePlainScalar(key);
      if (typeof v === 'string') continue;
      if (v === null) {
        if (where === VALUES) return true;
      } else if (where === SELECTORS && last === 'labels') return true;
      const hash = v === null ? 'null' : typeof v === 'boolean' ? `n:${v ? 1 : 0}` : typeof v === 'number' || typeof v === 'bigint' ? `n:${v}` : v instanceof FloatMarker ? `n:${v.value}` : undefined;
      // Anything else (a timestamp, a constructor failure): the AST decides.
      if (hash === undefined || hashes?.has(hash)) return true;
      (hashes ??= new Set()).add(hash);
    }
  }
  return false;
}

// Where a node of a document is, for the key checks that depend on it: the root, `data`, under
// `data.values` (chart values), under `data.wait` or `data.upgrade` (selector labels), elsewhere.
const ROOT = 0;
const DATA = 1;
const VALUES = 2;
const SELECTORS = 3;
const OTHER = 4;

// A tag where a key may start (after an anchor, if any): `!!float 1: x`, `? !!binary ...`.
const TAG_AT_KEY_START = /(?:^[ \t]*(?:[-?][ \t]+)*|[{,][ \t]*)(?:&[^\s]+[ \t]+)?!/m;

function mayHaveTaggedKey(text: string): boolean {
  return text.includes('!') && TAG_AT_KEY_START.test(text);
}

function hasRepeatedAnchor(text: string): boolean {
  if (!text.includes('&')) return false;
  const seen = new Set<string>();
  for (const m of text.matchAll(ANCHOR)) {
    if (seen.has(m[1])) return true;
    seen.add(m[1]);
  }
  return false;
}

/** The findings for document `index` of a chunk (call only when {@link keyProblemsPrefilter} and {@link mayHaveKeyProblemsIn} allow). */
export function keyProblems(ast: ChunkAst, text: string, index: number, file: string, label: string): Diagnostic[] {
  const doc = ast.documents()[index];
  if (!doc) return [];
  const out: Diagnostic[] = [];
  const at = (offset: number) => {
    const p = ast.position(offset);
    return `${file}:${p.line}:${p.column}`;
  };
  const base = { severity: 'error' as const, ...(label ? { document: label } : {}) };

  const anchors = new Map<string, number>();
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (!node || isAlias(node)) return;
    const n = node as Node;
    if (n.anchor) {
      const start = anchorOffset(text, n.anchor, n.range?.[0] ?? 0);
      const first = anchors.get(n.anchor);
      if (first !== undefined) {
        const p = ast.position(first);
        out.push({ ...base, location: at(start), code: LoadCodes.YAML_CONSTRUCT, message: `found duplicate anchor '${n.anchor}'; first occurrence at line ${p.line}, column ${p.column}: PyYAML refuses an anchor defined twice in one document; give the second another name` });
      } else anchors.set(n.anchor, start);
    }
    if (isSeq(n)) n.items.forEach((item, i) => walk(item, [...path, i]));
    else if (isMap(n)) {
      // PyYAML's flatten_mapping puts the merged pairs first: the mapping's own come after, and win.
      const merged = mergedPairs(n, doc, 0);
      checkKeys([...merged, ...(n.items as Pair[])], path, out, at, base);
      if (merged.length > 0) strAndOtherKeys(merged, n.items as Pair[], path, out, at, base);
      for (const pair of n.items as Pair[]) {
        walk(pair.key, path);
        walk(pair.value, [...path, keyText(pair.key)]);
      }
    }
  };
  walk(doc.contents, []);
  return out;
}

/**
 * The pairs `<<` brings into `map` (from aliases, lists of them, and their own merges): they are
 * keys of the mapping PyYAML builds, and may be equal in Python to one written there.
 */
function mergedPairs(map: YAMLMap, doc: Document.Parsed, depth: number, seen: Set<YAMLMap> = new Set()): Pair[] {
  const out: Pair[] = [];
  if (depth > 20) return out;
  const deref = (n: unknown): unknown => {
    for (let i = 0; i < 100 && isAlias(n); i++) n = resolveAlias(n as Alias, doc);
    return n;
  };
  for (const pair of map.items as Pair[]) {
    const k = pair.key;
    if (!isScalar(k) || k.type !== 'PLAIN' || k.tag !== undefined || k.value !== '<<') continue;
    const value = deref(pair.value);
    for (const source of isSeq(value) ? value.items.map(deref) : [value]) {
      // A mapping merged again (`<<: [*a, *a]`, or through other merges) brings the same keys: each
      // is read once, or merges of merges would list 8^depth pairs from a few lines.
      if (!isMap(source) || seen.has(source)) continue;
      seen.add(source);
      for (const p of source.items as Pair[]) out.push(p);
      for (const p of mergedPairs(source, doc, depth + 1, seen)) out.push(p);
    }
  }
  return out;
}

/**
 * A merged key and a key of the mapping that this loader names alike but PyYAML keeps apart (`1`
 * merged, `'1'` written): Armada hands Helm both. Keys written twice in the mapping itself are
 * the duplicate-key check's.
 */
function strAndOtherKeys(merged: Pair[], own: Pair[], path: (string | number)[], out: Diagnostic[], at: (offset: number) => string, base: { severity: 'error'; document?: string | undefined }): void {
  const nameOf = (p: Pair) => {
    if (!isScalar(p.key)) return undefined;
    const k = pyKey(p.key);
    return k ? { name: k.name, str: false } : { name: String(p.key.value), str: true };
  };
  const mergedNames = new Map<string, boolean>();
  for (const p of merged) {
    const n = nameOf(p);
    if (n && !mergedNames.has(n.name)) mergedNames.set(n.name, n.str);
  }
  for (const p of own) {
    const n = nameOf(p);
    if (!n || !mergedNames.has(n.name) || mergedNames.get(n.name) === n.str) continue;
    out.push({
      ...base,
      location: at((p.key as Scalar).range?.[0] ?? 0),
      field: formatWirePath([...path, n.name]),
      code: LoadCodes.DUPLICATE_KEY,
      message: `the key ${String((p.key as Scalar).value)} and the merged key of the same name are two keys to PyYAML (a str and a ${n.str ? 'number, bool or null' : 'str'}): Armada keeps both and writes both into the values it gives Helm, which makes every key a string; this loader would keep only one; keep one of the two keys`,
    });
  }
}

/** `&name` is written before its node; PyYAML reports the anchor itself. */
function anchorOffset(text: string, name: string, nodeStart: number): number {
  const i = text.lastIndexOf(`&${name}`, nodeStart);
  return i >= 0 ? i : nodeStart;
}

function keyText(key: unknown): string {
  return isScalar(key) ? String((key as Scalar).value) : '';
}

/**
 * What PyYAML makes of a key, as a Python value: a number (bools as 1 and 0), null, a bool, bytes,
 * or undefined for a string (and what it refuses, reported elsewhere). `name` is the key's name
 * in the loaded data.
 */
function pyKey(key: unknown): ({ kind: 'number'; value: number } | { kind: 'null' } | { kind: 'bool'; value: boolean } | { kind: 'bytes' }) & { name: string } | undefined {
  if (!isScalar(key) || (key.type !== 'PLAIN' && key.tag === undefined)) return undefined;
  const v = pyScalarOf(key);
  const name = String(v);
  if (v === null) return { kind: 'null', name };
  if (typeof v === 'boolean') return { kind: 'bool', value: v, name };
  if (typeof v === 'number') return { kind: 'number', value: v, name };
  if (v instanceof FloatMarker) return { kind: 'number', value: v.value, name };
  if (v instanceof Uint8Array) return { kind: 'bytes', name };
  return undefined;
}

/** A chart's values, which Armada hands to Helm as a values file. */
function isChartValues(path: readonly (string | number)[]): boolean {
  return path[0] === 'data' && path[1] === 'values';
}

/** Labels Armada turns into a selector: under `data.wait` (and its resources) or `data.upgrade` (pre-upgrade deletes). */
function isSelectorLabels(path: readonly (string | number)[]): boolean {
  return path[0] === 'data' && (path[1] === 'wait' || path[1] === 'upgrade') && path[path.length - 1] === 'labels';
}

function checkKeys(
  pairs: Pair[],
  path: (string | number)[],
  out: Diagnostic[],
  at: (offset: number) => string,
  base: { severity: 'error'; document?: string | undefined },
): void {
  const groups = new Map<string, { text: string; offset: number; name: string }[]>();
  for (const pair of pairs) {
    const k = pyKey(pair.key);
    if (!k) continue;
    const text = String((pair.key as Scalar).value);
    const offset = (pair.key as Scalar).range?.[0] ?? 0;
    if (k.kind === 'bytes') {
      out.push({
        ...base,
        location: at(offset),
        field: formatWirePath([...path, k.name]),
        code: LoadCodes.YAML_CONSTRUCT,
        message: `a !!binary key: PyYAML reads it as a bytes key, which armada-cdk cannot carry faithfully (here a key is a string); use a string key`,
      });
      continue;
    }
    if (k.kind !== 'null' && isSelectorLabels(path)) {
      const py = k.kind === 'bool' ? (k.value ? 'True' : 'False') : pyRepr(k.value);
      out.push({
        ...base,
        location: at(offset),
        field: formatWirePath([...path, text]),
        code: LoadCodes.YAML_CONSTRUCT,
        message: `PyYAML reads the label key ${text} as ${k.kind === 'bool' ? `the boolean ${py}` : `the number ${py}`}, so Armada selects on "${py}=..." and no label named ${JSON.stringify(text)} matches; quote the key ('${text}')`,
      });
    }
    if (k.kind === 'null' && isChartValues(path)) {
      out.push({
        ...base,
        location: at(offset),
        field: formatWirePath([...path, text]),
        code: LoadCodes.YAML_CONSTRUCT,
        message: `PyYAML reads the key ${text} as None: Armada writes it into the values it gives Helm as a null key, which Helm cannot read (sigs.k8s.io/yaml: "unsupported map key of type"), so the release fails; quote the key ('${text}') or remove it`,
      });
    }
    const hash = k.kind === 'null' ? 'null' : `n:${k.kind === 'bool' ? (k.value ? 1 : 0) : k.value}`;
    const list = groups.get(hash) ?? [];
    list.push({ text, offset, name: k.name });
    groups.set(hash, list);
  }
  for (const list of groups.values()) {
    // Keys that are one string here too (`yes`, `true`) are reported as duplicates already.
    const spellings = new Set(list.map((x) => x.name));
    if (spellings.size < 2) continue;
    const [first, ...rest] = list;
    for (const again of rest) {
      if (again.name === first.name) continue;
      out.push({
        ...base,
        location: at(again.offset),
        field: formatWirePath([...path, again.text]),
        code: LoadCodes.DUPLICATE_KEY,
        message: `the keys ${first.text} and ${again.text} are one key in Python (equal values hash alike), so PyYAML keeps only the key ${first.text} with the last value; quote them to keep them apart as strings, or remove one`,
      });
    }
  }
}

/**
 * The finding for a key the loader saw twice. Most are one Python key written twice, which PyYAML
 * lets the last replace; but the loader names keys by strings, so `1` and `"1"` (or `true` and
 * `"true"`, `~` and `"null"`) meet here although PyYAML keeps both: Armada then hands Helm both,
 * and Helm's reading of them is not this loader's, so that is an error.
 */
export function repeatedKeyFinding(dup: DuplicateKey): Pick<Diagnostic, 'severity' | 'message'> {
  const { firstKey: a, againKey: b } = dup;
  if ((a.type === 'str') === (b.type === 'str') || a.type === 'other' || b.type === 'other') {
    return { severity: 'warning', message: `duplicate key ${pyStrRepr(dup.key)}: this value replaces the one at line ${dup.first.line} (PyYAML keeps the last)` };
  }
  const both = `the keys ${a.written} (line ${dup.first.line}, column ${dup.first.column}) and ${b.written} are two keys to PyYAML (${pyKeyName(a, dup.key)} and ${pyKeyName(b, dup.key)}): Armada keeps both and writes both into the values it gives Helm`;
  const kept = `this loader would keep only the last; keep one of the two keys`;
  const [helmA, helmB] = [helmKey(a, dup.key), helmKey(b, dup.key)];
  if (helmA === undefined || helmB === undefined) {
    return { severity: 'error', message: `${both}, which cannot read a null key (sigs.k8s.io/yaml: "unsupported map key of type") and fails the release; ${kept}` };
  }
  if (helmA !== helmB) {
    return { severity: 'error', message: `${both}, which makes every key a string (sigs.k8s.io/yaml writes a float key as a 32-bit float with Go's %g) and so sees two keys, ${JSON.stringify(helmA)} and ${JSON.stringify(helmB)}; ${kept}` };
  }
  return {
    severity: 'error',
    message: `${both}, which makes every key a string (sigs.k8s.io/yaml) and so sees one key ${JSON.stringify(helmA)} with one of the two values, which one not defined (Go's map order, which can change from one run to the next); ${kept}`,
  };
}

/** `the int 1`, `the str '1'`, `None`: the key as Python has it. */
function pyKeyName(k: PyKey, loaded: string): string {
  switch (k.type) {
    case 'str':
      return `the str ${pyStrRepr(loaded)}`;
    case 'NoneType':
      return 'None';
    case 'bool':
      return `the bool ${loaded === 'true' ? 'True' : 'False'}`;
    default:
      return `the ${k.type} ${loaded}`;
  }
}

/**
 * The string Helm makes of a key Armada wrote with `yaml.safe_dump` (read by go-yaml v2, then made
 * a string by sigs.k8s.io/yaml), or undefined for a null key, which it refuses.
 */
function helmKey(k: PyKey, loaded: string): string | undefined {
  if (k.type === 'NoneType') return undefined;
  if (k.type === 'float' && k.float !== undefined) return goFloat32Key(k.float);
  return loaded;
}

/**
 * PyYAML's scanner forgets a possible simple (implicit) key once it has read more than this many
 * characters past the key's first token (its anchor or tag, if any) without finding the `:`
 * (`stale_possible_simple_keys`); the `:` then fails the stream.
 */
export const PYYAML_MAX_SIMPLE_KEY = 1024;

/** Cheap test: does any line of `text` have room for a simple key PyYAML refuses? */
export function mayHaveLongKey(text: string): boolean {
  if (text.length <= PYYAML_MAX_SIMPLE_KEY + 1) return false;
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    if (end - start > PYYAML_MAX_SIMPLE_KEY + 1) return true;
    start = end + 1;
  }
  return false;
}

/** The long-key error for a key of `length` characters. */
export function longKeyMessage(length: number): string {
  return `this key runs ${withCommas(length)} characters up to its ':', and PyYAML, which Armada reads documents with, looks for a simple key's ':' within ${withCommas(PYYAML_MAX_SIMPLE_KEY)} ("mapping values are not allowed here", or "could not find expected ':'"): Armada cannot read this file; write it as an explicit key ('? ' and the key, then ': ' and the value on the next line) or shorten it`;
}

/**
 * Simple keys of document `index` that PyYAML refuses as too long, from the `yaml` AST: for the
 * documents of the second reader, which has built it (js-yaml's are watched: `key-watch.ts`).
 */
export function longKeysInAst(ast: ChunkAst, text: string, index: number): { at: SourcePosition; length: number }[] {
  const doc = ast.documents()[index];
  if (!doc) return [];
  const out: { at: SourcePosition; length: number }[] = [];
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (seen.has(node) || !(isMap(node) || isSeq(node))) return;
    seen.add(node);
    if (isSeq(node)) return node.items.forEach(walk);
    for (const pair of node.items as Pair[]) {
      const length = simpleKeyLength(ast, text, pair.key);
      if (length !== undefined && length > PYYAML_MAX_SIMPLE_KEY) out.push({ at: ast.position(keyStart(text, (pair.key as Node).range![0])), length });
      walk(pair.value);
    }
  };
  walk(doc.contents);
  return out;
}

/** From a simple key's first token to its `:`, in characters as Python counts them; undefined for an explicit key. */
function simpleKeyLength(ast: ChunkAst, text: string, key: unknown): number | undefined {
  const range = (key as Node | null)?.range;
  if (!range || ast.explicitKeyAt(range[0])) return undefined;
  const start = keyStart(text, range[0]);
  let colon = range[1];
  while (colon < text.length && (text[colon] === ' ' || text[colon] === '\t')) colon++;
  if (text[colon] !== ':' || colon - start <= PYYAML_MAX_SIMPLE_KEY) return undefined;
  let length = 0;
  for (let i = start; i < colon; i++) {
    const c = text.charCodeAt(i);
    // a surrogate pair is one character to Python
    if (c < 0xdc00 || c > 0xdfff) length++;
  }
  return length;
}

/** Where a key's first token starts: its anchor or tag (`&a !!str key`), else the key itself. */
function keyStart(text: string, at: number): number {
  for (;;) {
    let j = at - 1;
    while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
    if (j < 0 || j === at - 1) return at;
    let b = j;
    while (b > 0 && !' \t\n{[,'.includes(text[b - 1])) b--;
    if (text[b] !== '&' && text[b] !== '!') return at;
    at = b;
  }
}
