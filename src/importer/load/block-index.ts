/**
 * Where the keys and items of a plain block-style document are written, read line by line in
 * one pass, so that a diagnostic's position costs a lookup instead of the `yaml` package's AST of
 * its document (which costs about four js-yaml loads).
 *
 * It must answer exactly what {@link ChunkAst.locate} answers, so it reads only a strict subset
 * of YAML and refuses (returns `undefined` from {@link BlockIndex.build}) any document with
 * something else in it: tags, anchors other than on a mapping value, explicit `?` keys,
 * directives, keys spelled with escapes, multi-line plain scalars, items with no content on
 * their line, unexpected indentation, tabs in indentation, unusual line breaks. Flow collections
 * and aliases are read as opaque values, and a mapping with a `<<` merge key answers only for
 * its own keys: a path that goes into them is answered `UNKNOWN`, so that the caller asks the
 * AST.
 */
import type { SourcePosition, WirePath } from './wire-path';
import { plainKeyString } from './pyyaml-schema';
import { detached } from '../../model/detached';

/** The index cannot tell: the path goes into a flow collection, an alias or a merge. */
export const UNKNOWN: unique symbol = Symbol('unknown position');

const LEAF = 0;
const MAP = 1;
const SEQ = 2;
/** A flow collection or an alias: the AST is needed to go inside. */
const OPAQUE = 3;

// Line breaks the yaml package and this reader might count differently, and a BOM after the start
// (a carriage return is only unusual without a line feed after it).
const UNUSUAL_CHARS = /[\r\x85\u2028\u2029\ufeff]/;
const UNUSUAL_TEXT = /[\x85\u2028\u2029\ufeff]|\r(?!\n)/;

/** First characters of plain scalars whose value may not be their text (null, bool, numbers, `<<`, `=`). */
function keyIsItsText(c: number): boolean {
  // letters other than y/n/t/f/o (yes, no, null, true, false, on, off), and `_` or `/`
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
    const l = c | 32;
    return l !== 121 && l !== 110 && l !== 116 && l !== 102 && l !== 111;
  }
  return c === 95 || c === 47;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13;
}

interface Open {
  readonly node: number;
  readonly indent: number;
  readonly kind: typeof MAP | typeof SEQ;
}

/** Collections with more entries below them than this are looked up through an index. */
const INDEXED_FROM = 32;

export class BlockIndex {
  // One entry per key and item, in document order; an entry's subtree is [i + 1, end[i]).
  private readonly kind: number[] = [];
  private readonly line: number[] = [];
  private readonly column: number[] = [];
  /** The key of a mapping entry (resolved as the loaded data names it); `undefined` for items and merge keys. */
  private readonly key: (string | undefined)[] = [];
  private readonly end: number[] = [];
  /** Mappings with a `<<` key. */
  private readonly merges = new Set<number>();
  // Children of the large collections located into: a site with thousands of findings in one
  // mapping (a closed values schema pruning each key) would otherwise scan it once per finding.
  private readonly mapIndexes = new Map<number, Map<string, number>>();
  private readonly seqIndexes = new Map<number, number[]>();

  private constructor() {}

  /**
   * The index of a chunk holding one document (`firstLine`: 1-based line of its first
   * character), or `undefined` when the document is not in the subset this reader answers for.
   */
  public static build(text: string, firstLine: number): BlockIndex | undefined {
    if (UNUSUAL_CHARS.test(text) && UNUSUAL_TEXT.test(text)) return undefined;
    const ix = new BlockIndex();
    return ix.read(text, firstLine) ? ix : undefined;
  }

  /** The position {@link ChunkAst.locate} gives `path`, or {@link UNKNOWN}. */
  public locate(path: WirePath): SourcePosition | typeof UNKNOWN {
    let node = 0;
    let at = 0;
    for (const seg of path) {
      const kind = this.kind[node];
      if (kind === OPAQUE) return UNKNOWN;
      let found = -1;
      const large = this.end[node] - node > INDEXED_FROM;
      if (kind === MAP) {
        const want = String(seg);
        if (large) found = this.mapIndex(node).get(want) ?? -1;
        else for (let c = node + 1; c < this.end[node]; c = this.end[c]) if (this.key[c] === want) found = c;
        if (found < 0 && this.merges.has(node)) return UNKNOWN;
      } else if (kind === SEQ && typeof seg === 'number' && seg >= 0) {
        if (large) found = this.seqIndex(node)[seg] ?? -1;
        else {
          let i = 0;
          for (let c = node + 1; c < this.end[node]; c = this.end[c], i++) {
            if (i === seg) {
              found = c;
              break;
            }
          }
        }
      }
      if (found < 0) break;
      node = found;
      at = found;
    }
    return { line: this.line[at], column: this.column[at] };
  }

  /** A mapping's entries by key (the last of a repeated key, as PyYAML keeps), made on first use. */
  private mapIndex(node: number): Map<string, number> {
    let index = this.mapIndexes.get(node);
    if (index === undefined) {
      index = new Map();
      for (let c = node + 1; c < this.end[node]; c = this.end[c]) {
        const k = this.key[c];
        if (k !== undefined) index.set(k, c);
      }
      this.mapIndexes.set(node, index);
    }
    return index;
  }

  /** A sequence's items in order, made on first use. */
  private seqIndex(node: number): number[] {
    let index = this.seqIndexes.get(node);
    if (index === undefined) {
      index = [];
      for (let c = node + 1; c < this.end[node]; c = this.end[c]) index.push(c);
      this.seqIndexes.set(node, index);
    }
    return index;
  }

  private add(kind: number, line: number, column: number, key: string | undefined): number {
    const i = this.kind.length;
    this.kind.push(kind);
    this.line.push(line);
    this.column.push(column);
    this.key.push(key);
    this.end.push(i + 1);
    return i;
  }

  /** Reads the whole text; `false` when it leaves the subset. */
  private read(text: string, firstLine: number): boolean {
    // Entry 0 is the root collection, placed at its first key or item.
    this.add(LEAF, 0, 0, undefined);
    const stack: Open[] = [];
    /** An entry whose value is on the following lines (`key:` or `key: &anchor`): its column. */
    let pending = -1;
    let pendingCol = -1;
    let pendingIsKey = false;
    let scalarParent = -1; // inside a block scalar whose parent is at this column
    let quote = 0; // inside a multi-line quoted scalar: its quote character
    let flowDepth = 0; // inside a multi-line flow collection
    let continuedFrom = -1; // column of the entry a quoted scalar or flow collection continues
    let started = false; // the `---` or the first content has been seen
    let ended = false; // after `...`
    let lineNo = firstLine - 1;

    const close = (): void => {
      const top = stack.pop()!;
      this.end[top.node] = this.kind.length;
    };
    /** The container for an entry of `kind` at column `col`, opened if the pending entry takes it. */
    const containerAt = (col: number, kind: typeof MAP | typeof SEQ, line: number): number => {
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        // a sequence at its key's own column ends at the next key of that mapping
        if (top.indent > col || (top.indent === col && top.kind === SEQ && kind === MAP && stack.length > 1)) close();
        else break;
      }
      if (pending >= 0) {
        const p = pending;
        pending = -1;
        if (col > pendingCol || (col === pendingCol && kind === SEQ && pendingIsKey)) {
          this.kind[p] = kind;
          stack.push({ node: p, indent: col, kind });
          return p;
        }
      }
      const top = stack[stack.length - 1];
      if (top === undefined) {
        if (this.kind.length !== 1) return -1;
        this.kind[0] = kind;
        this.line[0] = line;
        this.column[0] = col + 1;
        stack.push({ node: 0, indent: col, kind });
        return 0;
      }
      return top.indent === col && top.kind === kind ? top.node : -1;
    };

    for (let pos = 0; pos < text.length; ) {
      const nl = text.indexOf('\n', pos);
      let end = nl < 0 ? text.length : nl;
      const lineStart = pos;
      pos = end + 1;
      lineNo++;
      if (end > lineStart && text.charCodeAt(end - 1) === 13) end--;
      let c = lineStart;
      while (c < end && text.charCodeAt(c) === 32) c++;
      const indent = c - lineStart;
      const blank = c >= end;

      // continuation lines go deeper than their entry (the yaml package ends the entry otherwise)
      if ((quote !== 0 || flowDepth > 0) && !blank && indent <= continuedFrom) return false;
      if (quote !== 0) {
        const q = closingQuote(text, lineStart, end, quote);
        if (q < 0) continue;
        quote = 0;
        if (!restIsEmpty(text, q + 1, end)) return false;
        continue;
      }
      if (flowDepth > 0) {
        const b = bracketBalance(text, lineStart, end);
        if (b === undefined) return false;
        flowDepth += b;
        if (flowDepth < 0) return false;
        continue;
      }
      if (scalarParent >= 0) {
        if (blank || indent > scalarParent) continue;
        scalarParent = -1;
      }
      if (blank) continue;
      const first = text.charCodeAt(c);
      if (first === 9) return false; // a tab in the indentation
      if (first === 35 /* # */) continue;
      if (ended) return false;
      if (indent === 0 && (first === 45 || first === 46) && isMarker(text, c, end)) {
        if (first === 46) {
          ended = true;
          continue;
        }
        if (started || !restIsEmpty(text, c + 3, end)) return false;
        started = true;
        continue;
      }
      if (first === 37 /* % */) return false;
      started = true;

      // One line may hold nested entries: `- - key: value`.
      for (;;) {
        const col = c - lineStart;
        const ch = text.charCodeAt(c);
        if (ch === 45 /* - */ && (c + 1 >= end || isBlank(text.charCodeAt(c + 1)))) {
          const seq = containerAt(col, SEQ, lineNo);
          if (seq < 0) return false;
          let v = c + 1;
          while (v < end && isBlank(text.charCodeAt(v))) v++;
          if (v >= end || text.charCodeAt(v) === 35) return false; // content on the next line
          const item = this.add(LEAF, lineNo, v - lineStart + 1, undefined);
          const vc = text.charCodeAt(v);
          if (vc === 45 && (v + 1 >= end || isBlank(text.charCodeAt(v + 1)))) {
            pending = item;
            pendingCol = col;
            pendingIsKey = false;
            c = v;
            continue;
          }
          const key = readKey(text, v, end);
          if (key === null) return false;
          if (key !== undefined) {
            pending = item;
            pendingCol = col;
            pendingIsKey = false;
            c = v;
            continue;
          }
          const value = this.readValue(text, v, end, item);
          if (value === FAIL) return false;
          if (value === BLOCK) scalarParent = col;
          else if (value === PENDING) return false;
          else if (typeof value === 'object') {
            continuedFrom = col;
            if ('quote' in value) quote = value.quote;
            else flowDepth = value.depth;
          }
          break;
        }
        const key = readKey(text, c, end);
        if (key === undefined || key === null) return false;
        const merge = keyRead.merge;
        const map = containerAt(col, MAP, lineNo);
        if (map < 0) return false;
        const entry = this.add(LEAF, lineNo, col + 1, merge ? undefined : key);
        if (merge) this.merges.add(map);
        let v = keyRead.end;
        while (v < end && isBlank(text.charCodeAt(v))) v++;
        const value = this.readValue(text, v, end, entry);
        if (value === FAIL) return false;
        if (value === PENDING) {
          pending = entry;
          pendingCol = col;
          pendingIsKey = true;
        } else if (value === BLOCK) scalarParent = col;
        else if (typeof value === 'object') {
          continuedFrom = col;
          if ('quote' in value) quote = value.quote;
          else flowDepth = value.depth;
        }
        break;
      }
    }
    if (quote !== 0 || flowDepth !== 0 || this.kind[0] === LEAF) return false;
    while (stack.length > 0) close();
    return true;
  }

  /**
   * Reads the value that starts at `v` on its line, for the entry `entry`: a leaf, a block scalar
   * header, the start of a multi-line quoted scalar or flow collection, or nothing (the value is
   * on the following lines).
   */
  private readValue(text: string, v: number, end: number, entry: number): ValueStart {
    if (v >= end || text.charCodeAt(v) === 35) return PENDING;
    let ch = text.charCodeAt(v);
    if (ch === 38 /* & */ && this.key[entry] !== undefined) {
      // an anchor on a mapping value: the value itself is where it always is
      while (v < end && !isBlank(text.charCodeAt(v))) v++;
      while (v < end && isBlank(text.charCodeAt(v))) v++;
      if (v >= end || text.charCodeAt(v) === 35) return PENDING;
      ch = text.charCodeAt(v);
    }
    switch (ch) {
      case 124: // |
      case 62: // >
        return BLOCK;
      case 34: // "
      case 39: {
        // '
        const q = closingQuote(text, v + 1, end, ch);
        if (q < 0) return { quote: ch };
        return restIsEmpty(text, q + 1, end) ? LEAF_VALUE : FAIL;
      }
      case 91: // [
      case 123: {
        // {
        const depth = bracketBalance(text, v, end);
        if (depth === undefined || depth < 0) return FAIL;
        const empty = depth === 0 && text.charCodeAt(skipBlanks(text, v + 1, end)) === (ch === 91 ? 93 : 125) && restIsEmpty(text, skipBlanks(text, v + 1, end) + 1, end);
        this.kind[entry] = empty ? (ch === 91 ? SEQ : MAP) : OPAQUE;
        return depth > 0 ? { depth } : LEAF_VALUE;
      }
      case 42: // * an alias
        this.kind[entry] = OPAQUE;
        return LEAF_VALUE;
      case 38: // & on an item
      case 33: // ! a tag
      case 63: // ?
      case 58: // :
      case 44: // ,
      case 93: // ]
      case 125: // }
      case 64: // @
      case 96: // `
      case 37: // %
        return FAIL;
      case 45: // -
        if (v + 1 >= end || isBlank(text.charCodeAt(v + 1))) return FAIL;
        break;
    }
    // A plain scalar: one line, and nothing on it that would make it a mapping (a `:` before a
    // blank, unless a comment has started).
    for (let i = text.indexOf(':', v); i >= 0 && i < end; i = text.indexOf(':', i + 1)) {
      if (i + 1 < end && !isBlank(text.charCodeAt(i + 1))) continue;
      for (let j = v + 1; j < i; j++) if (text.charCodeAt(j) === 35 && isBlank(text.charCodeAt(j - 1))) return LEAF_VALUE;
      return FAIL;
    }
    return LEAF_VALUE;
  }
}

const FAIL = 0;
const LEAF_VALUE = 1;
const PENDING = 2;
const BLOCK = 3;
type ValueStart = typeof FAIL | typeof LEAF_VALUE | typeof PENDING | typeof BLOCK | { quote: number } | { depth: number };

function isMarker(text: string, at: number, end: number): boolean {
  const c = text.charCodeAt(at);
  return text.charCodeAt(at + 1) === c && text.charCodeAt(at + 2) === c && (at + 3 >= end || isBlank(text.charCodeAt(at + 3)));
}

function skipBlanks(text: string, at: number, end: number): number {
  while (at < end && isBlank(text.charCodeAt(at))) at++;
  return at;
}

/** Nothing but blanks and a comment from `at` to the end of the line. */
function restIsEmpty(text: string, at: number, end: number): boolean {
  const i = skipBlanks(text, at, end);
  return i >= end || (text.charCodeAt(i) === 35 && (i === at ? i === 0 || isBlank(text.charCodeAt(i - 1)) : true));
}

/** Characters a plain key is read up to or refused for: `:`, `#`, and flow indicators. */
const KEY_CHAR = new Uint8Array(128);
for (const c of ':#{}[],') KEY_CHAR[c.charCodeAt(0)] = 1;

/** Where the value of the key {@link readKey} last read starts, and whether that key is `<<`. */
const keyRead = { end: 0, merge: false };

/**
 * A mapping key at `at`: its name as the loaded data has it (where its value starts, and whether
 * it is a merge key, in {@link keyRead}); `undefined` when the line is not a key; `null` when it
 * might be one this reader cannot spell.
 */
function readKey(text: string, at: number, end: number): string | undefined | null {
  const ch = text.charCodeAt(at);
  if (ch === 34 || ch === 39) {
    const close = closingQuote(text, at + 1, end, ch);
    if (close < 0) return undefined;
    let colon = close + 1;
    while (colon < end && (text.charCodeAt(colon) === 32 || text.charCodeAt(colon) === 9)) colon++;
    if (text.charCodeAt(colon) !== 58 || (colon + 1 < end && !isBlank(text.charCodeAt(colon + 1)))) return undefined;
    const raw = text.slice(at + 1, close);
    if (ch === 34 && raw.includes('\\')) return null;
    keyRead.merge = false;
    keyRead.end = colon + 1;
    return ch === 39 ? raw.replace(/''/g, "'") : raw;
  }
  // indicators that cannot start a plain key (or start one this reader does not follow)
  if (ch === 123 || ch === 91 || ch === 93 || ch === 125 || ch === 44 || ch === 35 || ch === 38 || ch === 42 || ch === 33 || ch === 124 || ch === 62 || ch === 37 || ch === 64 || ch === 96 || ch === 63 || ch === 58) {
    return ch === 42 || ch === 38 || ch === 33 || ch === 63 || ch === 58 || ch === 123 || ch === 91 ? null : undefined;
  }
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || KEY_CHAR[c] === 0) continue;
    if (c === 58 /* : */ && (i + 1 >= end || isBlank(text.charCodeAt(i + 1)))) {
      let e = i;
      while (e > at && isBlank(text.charCodeAt(e - 1))) e--;
      if (e === at || i - at > 1024) return null;
      const spelled = text.slice(at, e);
      keyRead.merge = spelled === '<<';
      keyRead.end = i + 1;
      return keyRead.merge || keyIsItsText(ch) ? spelled : resolvedKey(spelled);
    }
    if (c === 35 && isBlank(text.charCodeAt(i - 1))) return undefined;
    // flow indicators inside a block key: the yaml package and PyYAML may split it differently
    if (c === 123 || c === 125 || c === 91 || c === 93 || c === 44) return null;
  }
  return undefined;
}

// Keys repeat from document to document (`namespace`, `no_hooks`): resolved once each.
const resolvedKeys = new Map<string, string>();

function resolvedKey(spelled: string): string {
  let name = resolvedKeys.get(spelled);
  if (name === undefined) {
    name = plainKeyString(spelled);
    if (resolvedKeys.size < 10_000) resolvedKeys.set(detached(spelled), (name = detached(name)));
  }
  return name;
}

/** Offset of the quote that closes a scalar opened before `from`, or -1 when the line has none. */
function closingQuote(text: string, from: number, end: number, quote: number): number {
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (quote === 34 && c === 92) i++;
    else if (c === quote) {
      if (quote === 39 && text.charCodeAt(i + 1) === 39) i++;
      else return i;
    }
  }
  return -1;
}

/** Opening minus closing brackets on a line, quoted text and comments aside; `undefined` for a quote left open. */
function bracketBalance(text: string, from: number, end: number): number | undefined {
  let depth = 0;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const close = closingQuote(text, i + 1, end, c);
      if (close < 0) return undefined;
      i = close;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
    else if (c === 35 && (i === from || isBlank(text.charCodeAt(i - 1)))) break;
  }
  return depth;
}
