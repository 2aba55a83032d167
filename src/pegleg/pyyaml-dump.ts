/**
 * Documents written as `pegleg site render` writes them: PyYAML's `yaml.dump_all` with
 * `default_flow_style=False, explicit_start=True, explicit_end=True` (keys sorted, 80-column
 * folding, PyYAML's choice of plain, single- or double-quoted scalars, non-ASCII escaped, and
 * `&idNNN`/`*idNNN` for a mapping or list that appears twice in one document, as Deckhand's
 * shallow copies make them), with libyaml's folding of double-quoted text, which is what Pegleg's
 * output shows. The same bytes as Pegleg: mapping keys that were integers in the YAML (recorded by
 * `int-keys.ts`) are written and sorted as integers, and floats with a whole value (`1.0`, noted
 * by the loader) as floats, as Pegleg does.
 */
import { intKeyText, isFloatAt } from '../deckhand/python';
import { pyFloatRepr } from '../importer/load/py-values';
import { isYamlTimestamp } from '../model/values';

const BEST_WIDTH = 80;
const BREAKS = '\n\u0085\u2028\u2029';
const WHITESPACE = '\0 \t\r\n\u0085\u2028\u2029';

/** Strings PyYAML's resolver would read as something else than a string, written unquoted. */
const IMPLICIT = [
  /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  /^(?:<<)$/,
  /^(?:~|null|Null|NULL|)$/,
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/,
  /^(?:=)$/,
];

const ESCAPES: Record<string, string> = {
  '\0': '0', '\x07': 'a', '\x08': 'b', '\x09': 't', '\x0A': 'n', '\x0B': 'v', '\x0C': 'f', '\x0D': 'r', '\x1B': 'e',
  '"': '"', '\\': '\\', '\x85': 'N', '\xA0': '_', '\u2028': 'L', '\u2029': 'P',
};

/** The documents as one YAML stream, each between `---` and `...`. */
export function dumpAllLikePyYaml(documents: readonly unknown[]): string {
  const parts: string[] = [];
  for (const doc of documents) parts.push(new DocumentWriter(doc).text);
  return parts.join('');
}

interface Analysis {
  readonly empty: boolean;
  readonly multiline: boolean;
  readonly allowBlockPlain: boolean;
  readonly allowSingleQuoted: boolean;
}

/** PyYAML's `Emitter.analyze_scalar`, for block context and `allow_unicode=False`. */
function analyze(s: string): Analysis {
  if (s.length === 0) return { empty: true, multiline: false, allowBlockPlain: true, allowSingleQuoted: true };
  const chars = Array.from(s);
  let block = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let followedByWhitespace = chars.length === 1 || WHITESPACE.includes(chars[1]);
  let previousSpace = false;
  let previousBreak = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) block = true;
      if ((ch === '?' || ch === ':') && followedByWhitespace) block = true;
      if (ch === '-' && followedByWhitespace) block = true;
    } else {
      if (ch === ':' && followedByWhitespace) block = true;
      if (ch === '#' && precededByWhitespace) block = true;
    }
    if (BREAKS.includes(ch)) lineBreaks = true;
    const code = ch.codePointAt(0)!;
    if (!(ch === '\n' || (code >= 0x20 && code <= 0x7e))) special = true;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (BREAKS.includes(ch)) {
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = WHITESPACE.includes(ch);
    followedByWhitespace = i + 2 >= chars.length || WHITESPACE.includes(chars[i + 2]);
  }
  let allowBlockPlain = true;
  let allowSingleQuoted = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) allowBlockPlain = false;
  if (breakSpace) allowBlockPlain = allowSingleQuoted = false;
  if (spaceBreak || special) allowBlockPlain = allowSingleQuoted = false;
  if (lineBreaks) allowBlockPlain = false;
  if (block) allowBlockPlain = false;
  return { empty: false, multiline: lineBreaks, allowBlockPlain, allowSingleQuoted };
}

/** One document, written by a port of the parts of PyYAML's emitter block output uses. */
class DocumentWriter {
  public text = '';
  private column = 0;
  private whitespace = true;
  private indention = true;
  private readonly anchors = new Map<object, string | null>();
  private readonly written = new Set<object>();
  private lastAnchor = 0;

  constructor(doc: unknown) {
    this.findAnchors(doc);
    this.raw('---');
    this.whitespace = false;
    this.indention = false;
    this.node(doc, 0, 'root');
    this.writeIndentTo(0);
    this.raw('...');
    this.lineBreak();
  }

  /** PyYAML's `Serializer.anchor_node`: an anchor for a collection met a second time, in walk order. */
  private findAnchors(v: unknown): void {
    if (v === null || typeof v !== 'object' || isYamlTimestamp(v) || v instanceof Uint8Array) return;
    if (this.anchors.has(v)) {
      if (this.anchors.get(v) === null) this.anchors.set(v, `id${String(++this.lastAnchor).padStart(3, '0')}`);
      return;
    }
    this.anchors.set(v, null);
    if (Array.isArray(v)) v.forEach((x) => this.findAnchors(x));
    else for (const k of sortedKeys(v as Record<string, unknown>)) this.findAnchors((v as Record<string, unknown>)[k]);
  }

  private raw(s: string): void {
    this.text += s;
    this.column += s.length;
  }

  private lineBreak(): void {
    this.text += '\n';
    this.whitespace = true;
    this.indention = true;
    this.column = 0;
  }

  /** PyYAML's `write_indent` with `self.indent` = `indent`. */
  private writeIndentTo(indent: number): void {
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.lineBreak();
    if (this.column < indent) {
      this.whitespace = true;
      this.text += ' '.repeat(indent - this.column);
      this.column = indent;
    }
  }

  private indicator(s: string, needWhitespace: boolean, whitespace = false, indention = false): void {
    this.raw(this.whitespace || !needWhitespace ? s : ` ${s}`);
    this.whitespace = whitespace;
    this.indention = this.indention && indention;
  }

  /**
   * A node. `indent` is the indentation of the collection that holds it (PyYAML's `self.indent`
   * when the node starts); `context` is where it is.
   */
  private node(v: unknown, indent: number, context: 'root' | 'mapping' | 'sequence', isFloat = false): void {
    if (v !== null && typeof v === 'object' && !isYamlTimestamp(v) && !(v instanceof Uint8Array)) {
      const anchor = this.anchors.get(v);
      if (anchor) {
        if (this.written.has(v)) {
          this.indicator(`*${anchor}`, true);
          return;
        }
        this.written.add(v);
        this.indicator(`&${anchor}`, true);
      }
      if (Array.isArray(v)) {
        if (v.length === 0) return this.indicator('[]', true);
        // A sequence in a mapping is indentless: its dashes at the mapping's indentation.
        const at = context === 'mapping' && !this.indention ? indent : context === 'root' ? indent : indent + 2;
        v.forEach((item, i) => {
          this.writeIndentTo(at);
          this.indicator('-', true, false, true);
          this.node(item, at, 'sequence', isFloatAt(v, i));
        });
        return;
      }
      const keys = sortedKeys(v as Record<string, unknown>);
      if (keys.length === 0) return this.indicator('{}', true);
      const at = context === 'root' ? indent : indent + 2;
      for (const k of keys) {
        this.writeIndentTo(at);
        const intKey = intKeyText(v as Record<string, unknown>, k);
        if (intKey !== undefined) this.plain(intKey, at + 2, false);
        else this.scalar(k, at, true);
        this.indicator(':', false);
        this.node((v as Record<string, unknown>)[k], at, 'mapping', isFloatAt(v, k));
      }
      return;
    }
    if (isFloat && typeof v === 'number' && Number.isInteger(v)) return this.plain(floatText(v), indent + 2, true);
    this.scalar(v, indent, false);
  }

  private scalar(v: unknown, indent: number, simpleKey: boolean): void {
    const scalarIndent = indent + 2;
    if (typeof v !== 'string') {
      if (v instanceof Uint8Array) {
        // PyYAML writes bytes as a !!binary literal block of base64 lines.
        this.indicator('!!binary', true);
        this.indicator('|', true);
        const b64 = Buffer.from(v).toString('base64').replace(/(.{76})/g, '$1\n');
        for (const line of `${b64}\n`.split('\n').slice(0, -1)) {
          this.lineBreak();
          this.text += ' '.repeat(scalarIndent) + line;
          this.column = scalarIndent + line.length;
        }
        this.whitespace = false;
        return;
      }
      this.plain(pyScalar(v), scalarIndent, !simpleKey);
      return;
    }
    const a = analyze(v);
    const implicit = !IMPLICIT.some((re) => re.test(v));
    if (implicit && !(simpleKey && (a.empty || a.multiline)) && a.allowBlockPlain) return this.plain(v, scalarIndent, !simpleKey);
    if (a.allowSingleQuoted && !(simpleKey && a.multiline)) return this.singleQuoted(v, scalarIndent, !simpleKey);
    this.doubleQuoted(v, scalarIndent, !simpleKey);
  }

  private plain(text: string, indent: number, split: boolean): void {
    if (text.length === 0) return;
    if (!this.whitespace) this.raw(' ');
    this.whitespace = false;
    this.indention = false;
    let spaces = false;
    let start = 0;
    for (let end = 0; end <= text.length; end++) {
      const ch = end < text.length ? text[end] : undefined;
      if (spaces) {
        if (ch !== ' ') {
          if (start + 1 === end && this.column > BEST_WIDTH && split) {
            this.writeIndentTo(indent);
            this.whitespace = false;
            this.indention = false;
          } else this.raw(text.slice(start, end));
          start = end;
        }
      } else if (ch === undefined || ch === ' ') {
        this.raw(text.slice(start, end));
        start = end;
      }
      if (ch !== undefined) spaces = ch === ' ';
    }
  }

  private singleQuoted(text: string, indent: number, split: boolean): void {
    this.indicator("'", true);
    let spaces = false;
    let breaks = false;
    let start = 0;
    for (let end = 0; end <= text.length; end++) {
      const ch = end < text.length ? text[end] : undefined;
      if (spaces) {
        if (ch === undefined || ch !== ' ') {
          if (start + 1 === end && this.column > BEST_WIDTH && split && start !== 0 && end !== text.length) this.writeIndentTo(indent);
          else this.raw(text.slice(start, end));
          start = end;
        }
      } else if (breaks) {
        if (ch === undefined || !BREAKS.includes(ch)) {
          if (text[start] === '\n') this.lineBreak();
          for (const br of text.slice(start, end)) {
            if (br === '\n') this.lineBreak();
            else {
              this.text += br;
              this.whitespace = true;
              this.indention = true;
              this.column = 0;
            }
          }
          this.writeIndentTo(indent);
          start = end;
        }
      } else if (ch === undefined || ch === ' ' || BREAKS.includes(ch) || ch === "'") {
        if (start < end) {
          this.raw(text.slice(start, end));
          start = end;
        }
      }
      if (ch === "'") {
        this.raw("''");
        start = end + 1;
      }
      if (ch !== undefined) {
        spaces = ch === ' ';
        breaks = BREAKS.includes(ch);
      }
    }
    this.indicator("'", false);
  }

  /**
   * libyaml's double-quoted writer (PyYAML hands the scalars to it: Pegleg's output folds at a
   * space with no trailing backslash, which is libyaml's way, not the pure-Python emitter's).
   */
  private doubleQuoted(s: string, indent: number, split: boolean): void {
    this.indicator('"', true);
    const text = Array.from(s);
    let spaces = false;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      const code = ch.codePointAt(0)!;
      if (!(code >= 0x20 && code <= 0x7e) || ch === '"' || ch === '\\') {
        this.raw(ESCAPES[ch] !== undefined ? `\\${ESCAPES[ch]}` : code <= 0xff ? `\\x${hex(code, 2)}` : code <= 0xffff ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`);
        spaces = false;
      } else if (ch === ' ') {
        if (split && !spaces && this.column > BEST_WIDTH && i !== 0 && i !== text.length - 1) {
          this.writeIndentTo(indent);
          if (text[i + 1] === ' ') this.raw('\\');
        } else this.raw(' ');
        spaces = true;
      } else {
        this.raw(ch);
        spaces = false;
      }
    }
    this.indicator('"', false);
    this.whitespace = false;
    this.indention = false;
  }
}

function hex(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, '0');
}

/**
 * PyYAML's `sorted(mapping.items())`: strings in code point order, ints (keys that were integers in
 * the YAML) by value. Keys of both kinds cannot be compared in Python: PyYAML then keeps the
 * dict's order, which here is the loaded object's.
 */
function sortedKeys(o: Record<string, unknown>): string[] {
  const keys = Object.keys(o);
  const ints = keys.filter((k) => intKeyText(o, k) !== undefined);
  if (ints.length === 0) return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (ints.length !== keys.length) return keys;
  const value = (k: string) => BigInt(intKeyText(o, k)!);
  return keys.sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0));
}

/** How PyYAML writes a float (`represent_float`): `repr()` lower-cased, `.0` before a bare exponent. */
function floatText(v: number): string {
  const r = pyFloatRepr(v).toLowerCase();
  if (r === 'nan') return '.nan';
  if (r === 'inf' || r === '-inf') return r.replace('inf', '.inf');
  return !r.includes('.') && r.includes('e') ? r.replace('e', '.0e') : r;
}

/** How PyYAML writes a non-string scalar. */
function pyScalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return '.nan';
    if (!Number.isFinite(v)) return v > 0 ? '.inf' : '-.inf';
    if (Number.isInteger(v)) return String(v);
    let r = String(v).toLowerCase().replace(/e([-+])(\d)$/, 'e$10$2');
    if (!r.includes('.') && r.includes('e')) r = r.replace('e', '.0e');
    return r;
  }
  return String(v);
}
