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
import type { Alias, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { Diagnostic } from '../../model/diagnostics';
import { formatWirePath } from '../../model/wire/fields';
import { LoadCodes } from './codes';
import { ChunkAst } from './positions';
import { mayHaveNonStringKey } from './prescan';
import { pyRepr } from './py-repr';
import { ConstructFailure, FloatMarker } from './py-values';
import { constructStats, plainKeyString, resolvePlainScalar } from './pyyaml-schema';

// The yaml package is loaded only when a chunk's keys need its AST (see mayHaveKeyProblems).
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
/** Cheap test: may the chunk hold a redefined anchor or a non-string key? */
export function mayHaveKeyProblems(text: string): boolean {
  return hasRepeatedAnchor(text) || mayHaveNonStringKey(text);
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

/** The findings for document `index` of a chunk (call only when {@link mayHaveKeyProblems}). */
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
      checkKeys(n.items as Pair[], path, out, at, base);
      for (const pair of n.items as Pair[]) {
        walk(pair.key, path);
        walk(pair.value, [...path, keyText(pair.key)]);
      }
    }
  };
  walk(doc.contents, []);
  return out;
}

/** `&name` is written before its node; PyYAML reports the anchor itself. */
function anchorOffset(text: string, name: string, nodeStart: number): number {
  const i = text.lastIndexOf(`&${name}`, nodeStart);
  return i >= 0 ? i : nodeStart;
}

function keyText(key: unknown): string {
  return isScalar(key) ? String((key as Scalar).value) : '';
}

/** What PyYAML makes of a plain key, as a Python value: a number (bools as 1 and 0), null, or a string. */
function pyKey(key: unknown): { kind: 'number'; value: number } | { kind: 'null' } | { kind: 'bool'; value: boolean } | undefined {
  if (!isScalar(key) || key.type !== 'PLAIN' || typeof key.value !== 'string') return undefined;
  const before = constructStats.specials;
  const v = resolvePlainScalar(key.value);
  constructStats.specials = before;
  if (v === null) return { kind: 'null' };
  if (typeof v === 'boolean') return { kind: 'bool', value: v };
  if (typeof v === 'number') return { kind: 'number', value: v };
  if (v instanceof FloatMarker) return { kind: 'number', value: v.value };
  if (v instanceof ConstructFailure) return undefined;
  return undefined;
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
  const groups = new Map<string, { text: string; offset: number }[]>();
  for (const pair of pairs) {
    const k = pyKey(pair.key);
    if (!k) continue;
    const text = String((pair.key as Scalar).value);
    const offset = (pair.key as Scalar).range?.[0] ?? 0;
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
    const hash = k.kind === 'null' ? 'null' : `n:${k.kind === 'bool' ? (k.value ? 1 : 0) : k.value}`;
    const list = groups.get(hash) ?? [];
    list.push({ text, offset });
    groups.set(hash, list);
  }
  for (const list of groups.values()) {
    // Keys that are one string here too (`yes`, `true`) are reported as duplicates already.
    const spellings = new Set(list.map((x) => plainKeyString(x.text)));
    if (spellings.size < 2) continue;
    const [first, ...rest] = list;
    for (const again of rest) {
      if (plainKeyString(again.text) === plainKeyString(first.text)) continue;
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
