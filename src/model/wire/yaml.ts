/**
 * A small, fast block-style YAML writer for the CLI's output, deterministic and safe for YAML 1.1
 * readers (PyYAML, which `armada apply` uses, and go-yaml v2) as well as YAML 1.2 ones: any
 * string that either would read as something else (a boolean, a number, null, a timestamp, a
 * merge key...) is double-quoted, and multi-line text is written as literal blocks.
 */

import { isPlainObject, isYamlTimestamp } from '../values';
import { detached } from '../detached';
import { hasOwnKey } from '../own-keys';
import { inPieces } from '../text-pieces';

/** Strings PyYAML (YAML 1.1) or a YAML 1.2 core reader would not read back as strings. */
const BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL = /^(?:~|null|Null|NULL)$/;
const IMPLICIT = [
  BOOL,
  NULL,
  /^[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?::[0-5]?[0-9])*)$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
  /^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/,
  /^(?:=|<<)$/,
];

/** Plain scalars are allowed only for a conservative character set: no spaces, no YAML indicators. */
const PLAIN = /^[A-Za-z0-9_/.][A-Za-z0-9_./:@%+=~-]*$/;

function needsQuotes(s: string): boolean {
  if (!PLAIN.test(s) || s.charCodeAt(s.length - 1) === 58 /* : */) return true;
  // Every implicit form starts with a digit, a sign, '.', '~', '=', '<' or one of y n t f o:
  // any other letter, '_' or '/' cannot start one.
  const c = s.charCodeAt(0);
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
    const l = c | 32;
    if (l !== 121 && l !== 110 && l !== 116 && l !== 102 && l !== 111) return false;
    // Of the implicit forms, only the booleans and the nulls start with a letter.
    return BOOL.test(s) || NULL.test(s);
  } else if (c === 95 || c === 47) return false;
  return IMPLICIT.some((re) => re.test(s));
}

/**
 * Characters a literal block cannot carry (tab and newline can): those PyYAML's reader refuses
 * anywhere (C0 and C1 controls, DEL, U+FFFE/U+FFFF, lone surrogates), the line breaks YAML 1.1
 * adds (NEL, U+2028, U+2029), and a byte order mark.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/u;

/** What JSON leaves as it is but a YAML 1.1 reader cannot take inside double quotes as it is. */
const NEEDS_ESCAPE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const EVERY_NEEDS_ESCAPE = new RegExp(NEEDS_ESCAPE.source, 'g');

/**
 * A double-quoted scalar. JSON's escapes are YAML's, but JSON writes DEL, the C1 controls and
 * U+FFFE/U+FFFF as they are (PyYAML refuses them), and NEL, U+2028 and U+2029 too, which a YAML
 * 1.1 reader folds into a space like any line break: those are escaped as well.
 */
function doubleQuoted(s: string): string {
  const json = JSON.stringify(s);
  if (!NEEDS_ESCAPE.test(s)) return json;
  return json.replace(EVERY_NEEDS_ESCAPE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A scalar as written after `key: ` or `- `. `keyIndent` is the indentation of the key (or dash)
 * the scalar belongs to: literal block lines go two spaces deeper.
 */
function inline(v: unknown, keyIndent: string): string {
  if (v === null || v === undefined) return 'null';
  // An integer beyond 2^53, exactly; a timestamp as PyYAML writes it, so it reads back as one.
  if (typeof v === 'bigint') return String(v);
  if (isYamlTimestamp(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return v > 0 ? '.inf' : v < 0 ? '-.inf' : '.nan';
    const s = String(v);
    // PyYAML reads 1e+21 as a string: a float needs a dot before its exponent.
    return s.includes('e') && !s.includes('.') ? s.replace('e', '.0e') : s;
  }
  if (Array.isArray(v)) return '[]';
  if (typeof v === 'object') return '{}';
  const s = String(v);
  if (s.includes('\n') && s.replace(/\n/g, '') !== '' && !UNPRINTABLE.test(s) && !/[ \t]\n|[ \t]$/.test(s.replace(/\n+$/, ''))) return literal(s, keyIndent + '  ');
  if (s === '' || needsQuotes(s)) return doubleQuoted(s);
  return s;
}

/** Multi-line text as a literal block (`|`, `|-`, `|+`), content at `pad`. */
function literal(s: string, pad: string): string {
  const trailing = /\n*$/.exec(s)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing === 1 ? s.slice(0, -1) : trailing > 1 ? s.slice(0, -1) : s;
  const lines = body.split('\n');
  // A first line that starts with a space needs an explicit indentation indicator.
  const firstContent = lines.find((l) => l !== '') ?? '';
  const indicator = /^[ \t]/.test(firstContent) ? '2' : '';
  return `|${indicator}${chomp}\n` + lines.map((l) => (l === '' ? '' : pad + l)).join('\n');
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isYamlTimestamp(v);
}

function nonEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  // A timestamp is a scalar, whatever fields it keeps.
  if (typeof v !== 'object' || v === null || isYamlTimestamp(v)) return false;
  return hasOwnKey(v);
}

/**
 * A key's line as it starts: `key: ` before a scalar and `key:` with a line break before a
 * block, after an indentation (`    key: `) or a dash (`  - key: `). Keys and indentations repeat
 * across documents (every chart has `namespace`, `wait`, ...), so each combination is made once,
 * and a line is its start, its value and a line break.
 */
class KeyText {
  private readonly starts: string[] = [];
  /**
   * A simple key may be at most 1024 characters long (YAML 1.1 and 1.2, enforced by PyYAML and
   * Go's yaml): a longer one is written as an explicit key (`? key` then `: value`).
   */
  private readonly explicit: boolean;
  constructor(private readonly spelled: string) {
    this.explicit = spelled.length > MAX_SIMPLE_KEY;
  }
  /** The line's start at `indent` (or, `dashed`, with a dash in place of its last two spaces). */
  public at(indent: string, dashed: boolean, block: boolean): string {
    const i = indent.length * 4 + (dashed ? 2 : 0) + (block ? 1 : 0);
    let out = this.starts[i];
    if (out === undefined) {
      const lead = dashed ? `${indent.slice(2)}- ` : indent;
      out = this.explicit
        ? `${lead}? ${this.spelled}\n${indent}:${block ? '\n' : ' '}`
        : detached(`${lead}${this.spelled}${block ? ':\n' : ': '}`);
      if (indent.length < 64) this.starts[i] = out;
    }
    return out;
  }
}

/** With room for the quotes and the `:` that PyYAML counts with the key (its limit is 1024). */
const MAX_SIMPLE_KEY = 1000;

const keyCache = new Map<string, KeyText>();

function key(k: string): KeyText {
  let out = keyCache.get(k);
  if (out === undefined) {
    out = new KeyText(k === '' || needsQuotes(k) ? doubleQuoted(k) : detached(k));
    if (keyCache.size < 10_000) keyCache.set(detached(k), out);
  }
  return out;
}

/** Indentations of `n` spaces, made once each. */
const INDENTS: string[] = [];

/** `indent` two spaces deeper. */
function deeper(indent: string): string {
  const n = indent.length + 2;
  return n < 256 ? (INDENTS[n] ??= ' '.repeat(n)) : ' '.repeat(n);
}

/**
 * Chart values handed to this writer as they are, to be written as a copy with sorted keys would
 * be (`sortKeysDeep(tree, leaf)`): the CLI writes its objects at once and keeps none, so the copy
 * would be built only to be read once, and on a large site it is most of what a conversion keeps
 * alive. Every plain object and array reached from `tree` through plain objects and arrays is
 * written with its keys in the copy's order; any other object becomes `leaf(object)` (or stays as
 * it is) and is written as this writer writes it anywhere else.
 */
export class SortedValuesView {
  /** @param leaf - see {@link sortKeysDeep} */
  constructor(
    readonly tree: Readonly<Record<string, unknown>>,
    readonly leaf?: (v: object) => unknown,
  ) {}
}

/**
 * The keys of a plain object in the order its sorted copy would list them: a copy made by
 * inserting the sorted keys still lists array-index keys first, in numeric order (JavaScript's
 * property order), and `Object.keys` already gives those first and in that order.
 */
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o);
  let i = 0;
  while (i < keys.length && isArrayIndex(keys[i])) i++;
  sortFrom(keys, i);
  return keys;
}

/**
 * Sorts `keys` from index `from` on, in place, as `Array.prototype.sort` would (by UTF-16 code
 * units): by insertion for the few keys most mappings have, since the built-in sort makes a work
 * copy of every array it sorts, and the writer sorts the keys of every mapping of the values.
 */
function sortFrom(keys: string[], from: number): void {
  const n = keys.length - from;
  if (n < 2) return;
  if (n > 32) {
    const rest = keys.slice(from).sort();
    for (let j = 0; j < n; j++) keys[from + j] = rest[j];
    return;
  }
  for (let j = from + 1; j < keys.length; j++) {
    const k = keys[j];
    let at = j;
    while (at > from && keys[at - 1] > k) {
      keys[at] = keys[at - 1];
      at--;
    }
    keys[at] = k;
  }
}

function isArrayIndex(k: string): boolean {
  const c = k.charCodeAt(0);
  if (c < 48 || c > 57 || (c === 48 && k.length > 1) || k.length > 10) return false;
  for (let i = 1; i < k.length; i++) {
    const d = k.charCodeAt(i);
    if (d < 48 || d > 57) return false;
  }
  return Number(k) < 4294967295;
}

/** A node of a view as its copy would hold it: objects other than plain ones and arrays through `leaf`. */
function viewNode(x: unknown, leaf: ((v: object) => unknown) | undefined): unknown {
  if (typeof x !== 'object' || x === null || Array.isArray(x) || isPlainObject(x)) return x;
  return leaf === undefined ? x : leaf(x);
}

/**
 * {@link entry} for a node inside a view (`v` already through {@link viewNode}): a plain object
 * or array is written as its sorted copy, anything else as {@link entry} writes it.
 */
function viewEntry(k: string, v: unknown, indent: string, dashed: boolean, leaf: ((v: object) => unknown) | undefined): string {
  if (!Array.isArray(v) && !isPlainObject(v)) return entry(k, v, indent, dashed);
  // A mapping's keys are listed once: whether it has any is read from them (asking first would
  // list every key of a large mapping twice).
  const keys = Array.isArray(v) ? undefined : sortedKeys(v);
  if (keys === undefined ? (v as unknown[]).length > 0 : keys.length > 0) return key(k).at(indent, dashed, true) + viewBlock(v as object, deeper(indent), leaf, keys);
  return `${key(k).at(indent, dashed, false)}${inline(v, indent)}\n`;
}

/** {@link block} for a non-empty plain object (its `keys` sorted) or array inside a view. */
function viewBlock(v: object, indent: string, leaf: ((v: object) => unknown) | undefined, keys?: readonly string[]): string {
  let out = '';
  if (Array.isArray(v)) {
    const inner = deeper(indent);
    for (let i = 0; i < v.length; i++) {
      const item = viewNode(v[i], leaf);
      const itemKeys = isPlainObject(item) ? sortedKeys(item) : undefined;
      if (itemKeys !== undefined && itemKeys.length > 0) {
        const o = item as Record<string, unknown>;
        for (let j = 0; j < itemKeys.length; j++) out += viewEntry(itemKeys[j], viewNode(o[itemKeys[j]], leaf), inner, j === 0, leaf);
      } else if (Array.isArray(item) && item.length > 0) {
        out += `${indent}-\n${viewBlock(item, inner, leaf)}`;
      } else {
        // `{}`, `[]`, a scalar, or an object that is not plain: as anywhere else.
        out += sequenceItem(item, indent, inner);
      }
    }
    return out;
  }
  const o = v as Record<string, unknown>;
  const sorted = keys ?? sortedKeys(o);
  for (let j = 0; j < sorted.length; j++) out += viewEntry(sorted[j], viewNode(o[sorted[j]], leaf), indent, false, leaf);
  return out;
}

/**
 * `key: value` at `indent`, each line ending with a newline; `dashed`, the first line starts with
 * the dash of a sequence item (`- `) in place of the last two spaces of `indent`.
 */
function entry(k: string, v: unknown, indent: string, dashed: boolean): string {
  if (v instanceof SortedValuesView) return viewEntry(k, viewNode(v.tree, v.leaf), indent, dashed, v.leaf);
  if (nonEmpty(v)) return key(k).at(indent, dashed, true) + block(v, deeper(indent));
  return `${key(k).at(indent, dashed, false)}${inline(v, indent)}\n`;
}

/** A non-empty collection as block lines at `indent`. */
function block(v: unknown, indent: string): string {
  let out = '';
  if (Array.isArray(v)) {
    const inner = deeper(indent);
    for (let i = 0; i < v.length; i++) out += sequenceItem(v[i], indent, inner);
    return out;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) out += entry(k, o[k], indent, false);
  return out;
}

/** One item of a block sequence: its dash at `indent`, the lines of a collection at `inner`. */
function sequenceItem(item: unknown, indent: string, inner: string): string {
  if (isMap(item) && nonEmpty(item)) {
    let out = '';
    let first = true;
    for (const k in item) {
      if (!Object.prototype.hasOwnProperty.call(item, k)) continue;
      out += entry(k, item[k], inner, first);
      first = false;
    }
    return out;
  }
  if (Array.isArray(item) && item.length > 0) return `${indent}-\n${block(item, inner)}`;
  return `${indent}- ${inline(item, indent)}\n`;
}

/** One YAML document. */
export function toYamlDocument(value: unknown): string {
  return nonEmpty(value) ? block(value, '') : `${inline(value, '')}\n`;
}

/** A multi-document stream, each document starting with `---`. */
export function toYamlStream(values: readonly unknown[]): string {
  let out = '';
  for (const v of values) out += '---\n' + toYamlDocument(v);
  return out;
}

/**
 * {@link toYamlStream} in pieces of about `chunkSize` characters (whole documents), each made only
 * when the one before it has been taken (see {@link inPieces}).
 * @default chunkSize 65536
 */
export function yamlStreamChunks(values: Iterable<unknown>, chunkSize = 65536): Generator<string, void, undefined> {
  return inPieces(documents(values), chunkSize);
}

function* documents(values: Iterable<unknown>): Generator<string, void, undefined> {
  for (const v of values) yield '---\n' + toYamlDocument(v);
}
