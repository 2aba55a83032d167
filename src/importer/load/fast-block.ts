/**
 * A fast path for the document most manifests are made of: block mappings and sequences, simple
 * keys, one-line scalars. It builds exactly the value that js-yaml builds with
 * {@link PYYAML_SAFE_SCHEMA} (the same objects, keys in the same order, scalars resolved by the
 * same type objects, so that the constructors' counts move alike), in about half js-yaml's CPU
 * time (garbage collection included).
 *
 * Anything outside that subset makes it give up, and the caller loads the document with js-yaml:
 * flow collections other than `[]` and `{}`, multi-line and block scalars, escapes, anchors,
 * aliases, tags, quoted or complex keys, keys that are not plain strings (`1:`, `true:`, `<<`),
 * repeated keys, tabs, CR, directives, and every indentation js-yaml would not read the same way.
 * So it never returns a value for a text js-yaml refuses or reads differently: when in doubt, it
 * gives up. Errors and their positions always come from js-yaml. A document it builds has no
 * anchor, no alias, no tag and no key but a plain string.
 */
import type * as JsYaml from 'js-yaml';
import { constructStats, PYYAML_IMPLICIT_TYPES } from './pyyaml-schema';
import { detached } from '../../model/detached';
import { fastObject } from '../../model/fast-object';

let enabled = true;

/**
 * Turns the fast path on or off (on by default) and returns the previous setting; for tests that
 * compare the loader's output with and without it.
 */
export function useFastBlockLoader(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}

/** Thrown inside the parser to give up; never escapes {@link loadBlockDocument}. */
class NotBlockStyle {}
const GIVE_UP = new NotBlockStyle();

const SPACE = 32;
const HASH = 35;
const DASH = 45;
const COLON = 58;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;

/**
 * The deepest nesting built here. js-yaml recurses more per level than this parser, so past a few
 * thousand levels it overflows the stack (and throws) where this parser would still return a
 * value; far below that, manifests are never this deep.
 */
const MAX_DEPTH = 100;

/** Characters a key may be made of: enough for Armada's and Helm's keys, nothing YAML reads specially. */
function isKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === DASH || c === 47;
}

function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Characters that cannot start a plain scalar here (or start one this path leaves to js-yaml). */
function isIndicator(c: number): boolean {
  return (
    c === 38 /* & */ || c === 42 /* * */ || c === 33 /* ! */ || c === 124 /* | */ || c === 62 /* > */ || c === 37 /* % */ ||
    c === 64 /* @ */ || c === 96 /* ` */ || c === 44 /* , */ || c === 91 /* [ */ || c === 93 /* ] */ || c === 123 /* { */ ||
    c === 125 /* } */ || c === 63 /* ? */ || c === COLON || c === HASH
  );
}

// js-yaml's typings leave out the two functions every type has.
type ResolvingType = JsYaml.Type & { resolve(s: string): boolean; construct(s: string): unknown };
const IMPLICIT = PYYAML_IMPLICIT_TYPES as readonly ResolvingType[];

// Keys repeat across documents (every chart has `namespace`, `wait`, ...): whether each is a
// plain string key is decided once.
const plainKeys = new Map<string, boolean>();

/** Whether js-yaml would make `key` a mapping key that is this very string. */
function isPlainStringKey(key: string): boolean {
  let ok = plainKeys.get(key);
  if (ok === undefined) {
    ok = key.length <= 1024 && key !== '__proto__' && !IMPLICIT.some((t) => t.resolve(key));
    if (plainKeys.size < 10_000) plainKeys.set(detached(key), ok);
  }
  return ok;
}

/** A plain scalar as js-yaml makes it: the first implicit type that resolves it constructs it. */
function plainScalar(s: string): unknown {
  for (let i = 0; i < IMPLICIT.length; i++) if (IMPLICIT[i].resolve(s)) return IMPLICIT[i].construct(s);
  return s;
}

class BlockParser {
  /** Start of the first line not consumed yet. */
  private pos = 0;
  /** The next content line (not blank, not a comment) from `pos`, found by {@link peek}. */
  private peekedFrom = -1;
  private lineStart = 0;
  private indent = -1;
  private lineEnd = 0;
  /** The deepest indentation of a comment line {@link peek} stepped over. */
  private commentIndent = -1;
  /** How many mappings and sequences are open. */
  private depth = 0;

  constructor(private readonly text: string) {}

  public document(): unknown {
    let indent = this.peek();
    if (indent < 0) throw GIVE_UP;
    const t = this.text;
    if (indent === 0 && t.startsWith('---', this.lineStart) && this.restIsEmpty(this.lineStart + 3)) {
      this.consume();
      indent = this.peek();
      if (indent < 0) throw GIVE_UP;
    }
    const value = this.node(indent);
    indent = this.peek();
    if (indent >= 0) {
      if (indent !== 0 || !t.startsWith('...', this.lineStart) || !this.restIsEmpty(this.lineStart + 3)) throw GIVE_UP;
      this.consume();
      if (this.peek() >= 0) throw GIVE_UP;
    }
    return value;
  }

  /** The next content line's indentation, or -1 at the end; blank and comment lines are skipped. */
  private peek(): number {
    if (this.peekedFrom === this.pos) return this.indent;
    const t = this.text;
    const len = t.length;
    let i = this.pos;
    let commentIndent = -1;
    this.indent = -1;
    while (i < len) {
      let j = i;
      while (j < len && t.charCodeAt(j) === SPACE) j++;
      let end = t.indexOf('\n', j);
      if (end < 0) end = len;
      if (j === end) {
        i = end + 1;
        continue;
      }
      if (t.charCodeAt(j) === HASH) {
        if (j - i > commentIndent) commentIndent = j - i;
        i = end + 1;
        continue;
      }
      this.lineStart = i;
      this.indent = j - i;
      this.lineEnd = end;
      break;
    }
    this.commentIndent = commentIndent;
    this.peekedFrom = this.pos;
    return this.indent;
  }

  private consume(): void {
    this.pos = this.lineEnd + 1;
  }

  /** Whether the current line holds nothing from `at` on but spaces and, after one, a comment. */
  private restIsEmpty(at: number): boolean {
    const t = this.text;
    const end = this.lineEnd;
    if (at < end && t.charCodeAt(at) !== SPACE) return false;
    let i = at;
    while (i < end && t.charCodeAt(i) === SPACE) i++;
    return i === end || t.charCodeAt(i) === HASH;
  }

  private isDashLine(): boolean {
    const at = this.lineStart + this.indent;
    return this.text.charCodeAt(at) === DASH && (at + 1 === this.lineEnd || this.text.charCodeAt(at + 1) === SPACE);
  }

  /** The block node whose first line (already peeked) is at `indent`. */
  private node(indent: number): unknown {
    return this.isDashLine() ? this.sequence(indent) : this.mapping(indent, this.lineStart + indent);
  }

  /** A block mapping at `indent`, its first key at offset `first` of the current line. */
  private mapping(indent: number, first: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) throw GIVE_UP;
    const out: Record<string, unknown> = {};
    this.entry(out, indent, first);
    let keys = 1;
    for (;;) {
      const i = this.peek();
      if (i < indent) {
        this.depth--;
        return fastObject(out, keys);
      }
      if (i > indent) throw GIVE_UP;
      this.entry(out, indent, this.lineStart + indent);
      keys++;
    }
  }

  /** Where the simple key starting at `at` ends (at its `:`), or -1 if none starts there. */
  private keyEnd(at: number): number {
    const t = this.text;
    const end = this.lineEnd;
    if (!isKeyStart(t.charCodeAt(at))) return -1;
    let k = at + 1;
    while (k < end && isKeyChar(t.charCodeAt(k))) k++;
    if (k >= end || t.charCodeAt(k) !== COLON) return -1;
    if (k + 1 < end && t.charCodeAt(k + 1) !== SPACE) return -1;
    return k;
  }

  private entry(out: Record<string, unknown>, indent: number, at: number): void {
    const t = this.text;
    const k = this.keyEnd(at);
    if (k < 0) throw GIVE_UP;
    const key = t.slice(at, k);
    if (!isPlainStringKey(key) || Object.prototype.hasOwnProperty.call(out, key)) throw GIVE_UP;
    let v = k + 1;
    const end = this.lineEnd;
    while (v < end && t.charCodeAt(v) === SPACE) v++;
    if (v === end || t.charCodeAt(v) === HASH) {
      this.consume();
      out[key] = this.nested(indent, true);
    } else {
      out[key] = this.scalar(v, indent);
    }
  }

  /**
   * The value of a key (or dash) with nothing after it on its line: a block node on the lines
   * below, deeper than `indent`, or (for a key) a sequence at the key's own indentation, or null.
   */
  private nested(indent: number, sequenceAtIndent: boolean): unknown {
    const i = this.peek();
    if (i > indent) return this.node(i);
    if (i === indent && sequenceAtIndent && this.isDashLine()) return this.sequence(indent);
    return null;
  }

  private sequence(indent: number): unknown[] {
    if (++this.depth > MAX_DEPTH) throw GIVE_UP;
    const out: unknown[] = [];
    const t = this.text;
    for (;;) {
      const i = this.peek();
      if (i > indent) throw GIVE_UP;
      if (i < indent || !this.isDashLine()) {
        this.depth--;
        return out;
      }
      const end = this.lineEnd;
      let v = this.lineStart + indent + 1;
      while (v < end && t.charCodeAt(v) === SPACE) v++;
      if (v === end || t.charCodeAt(v) === HASH) {
        this.consume();
        const item = this.nested(indent, false);
        // js-yaml's quirk: after an empty item it reads on without checking the indentation, so a
        // dash on a shallower line (`-\n  -\n- x`) becomes an item of this sequence, not of its
        // parent's. Left to js-yaml, which builds what it builds.
        if (item === null && this.peek() >= 0 && this.indent < indent && this.isDashLine()) throw GIVE_UP;
        out.push(item);
      } else if (this.keyEnd(v) >= 0) {
        out.push(this.mapping(v - this.lineStart, v));
      } else {
        out.push(this.scalar(v, indent));
      }
    }
  }

  /**
   * The one-line scalar at offset `v` of the current line, which must end there: the lines after
   * it, comments included, must not be deeper than `indent` (they would continue it).
   */
  private scalar(v: number, indent: number): unknown {
    const t = this.text;
    const end = this.lineEnd;
    const c = t.charCodeAt(v);
    let value: unknown;
    let after = end;
    if (c === DOUBLE_QUOTE) {
      const close = t.indexOf('"', v + 1);
      if (close < 0 || close >= end) throw GIVE_UP;
      const s = t.slice(v + 1, close);
      if (s.includes('\\')) throw GIVE_UP;
      value = s;
      after = close + 1;
    } else if (c === SINGLE_QUOTE) {
      let q = t.indexOf("'", v + 1);
      while (q >= 0 && q + 1 < end && t.charCodeAt(q + 1) === SINGLE_QUOTE) q = t.indexOf("'", q + 2);
      if (q < 0 || q >= end) throw GIVE_UP;
      const s = t.slice(v + 1, q);
      value = s.includes("'") ? s.replace(/''/g, "'") : s;
      after = q + 1;
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (t.charCodeAt(v + 1) !== c + 2 /* ] or } */) throw GIVE_UP;
      value = c === 91 ? [] : {};
      after = v + 2;
    } else {
      if (isIndicator(c)) throw GIVE_UP;
      if (c === DASH && (v + 1 === end || t.charCodeAt(v + 1) === SPACE)) throw GIVE_UP;
      let last = v + 1;
      for (let i = v + 1; i < end; i++) {
        const ch = t.charCodeAt(i);
        if (ch === SPACE) continue;
        if (ch === HASH && t.charCodeAt(i - 1) === SPACE) break;
        if (ch === COLON && (i + 1 === end || t.charCodeAt(i + 1) === SPACE)) throw GIVE_UP;
        last = i + 1;
      }
      value = plainScalar(t.slice(v, last));
    }
    if (after < end && !this.restIsEmpty(after)) throw GIVE_UP;
    this.consume();
    if (this.peek() > indent || this.commentIndent > indent) throw GIVE_UP;
    return value;
  }
}

/**
 * The documents js-yaml's `loadAll(text, null, { schema: PYYAML_SAFE_SCHEMA })` returns for one
 * document's text in plain block style, or undefined when the text is anything else (load it with
 * js-yaml then). The text must not hold characters PyYAML refuses: the caller checks the stream.
 */
export function loadBlockDocument(text: string): unknown[] | undefined {
  if (!enabled || text.includes('\t') || text.includes('\r')) return undefined;
  const { specials, merges, failures } = constructStats;
  try {
    return [new BlockParser(text).document()];
  } catch (e) {
    // Giving up, or a stack too shallow for the nesting: js-yaml decides. The scalars built
    // before giving up must not count: the caller reads the counters around both paths, and
    // would take js-yaml's document for one with markers or merges to look for.
    if (e === GIVE_UP || e instanceof RangeError) {
      constructStats.specials = specials;
      constructStats.merges = merges;
      constructStats.failures = failures;
      return undefined;
    }
    throw e;
  }
}
