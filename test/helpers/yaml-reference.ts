/**
 * The YAML writer as it was before it was tuned for speed, kept verbatim as the reference the
 * tuned one must match byte for byte (test/model/yaml-fast.test.ts).
 *
 * A small, fast block-style YAML writer for the CLI's output, deterministic and safe for YAML 1.1
 * readers (PyYAML, which `armada apply` uses, and go-yaml v2) as well as YAML 1.2 ones: any
 * string that either would read as something else (a boolean, a number, null, a timestamp, a
 * merge key...) is double-quoted, and multi-line text is written as literal blocks.
 */

/** Strings PyYAML (YAML 1.1) or a YAML 1.2 core reader would not read back as strings. */
const IMPLICIT = [
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^(?:~|null|Null|NULL)$/,
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
  if (!PLAIN.test(s) || s.endsWith(':')) return true;
  return IMPLICIT.some((re) => re.test(s));
}

/** Control characters a literal block cannot carry (tab and newline can). */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]/u;

/** JSON's double quotes, with what JSON leaves as it is and YAML 1.1 does not take escaped too. */
function doubleQuoted(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A scalar as written after `key: ` or `- `. `keyIndent` is the indentation of the key (or dash)
 * the scalar belongs to: literal block lines go two spaces deeper.
 */
function inline(v: unknown, keyIndent: string): string {
  if (v === null || v === undefined) return 'null';
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
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonEmpty(v: unknown): boolean {
  return Array.isArray(v) ? v.length > 0 : isMap(v) ? Object.keys(v).length > 0 : false;
}

function key(k: string): string {
  return k === '' || needsQuotes(k) ? doubleQuoted(k) : k;
}

/** `key: value` at `indent`; `first` replaces the indentation of the first line (after `- `). */
function entry(k: string, v: unknown, indent: string, out: string[], first?: string): void {
  const lead = first ?? indent;
  if (nonEmpty(v)) {
    out.push(`${lead}${key(k)}:`);
    block(v, indent + '  ', out);
  } else {
    out.push(`${lead}${key(k)}: ${inline(v, indent)}`);
  }
}

/** A non-empty collection as block lines at `indent`. */
function block(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (isMap(item) && nonEmpty(item)) {
        const entries = Object.entries(item);
        entry(entries[0][0], entries[0][1], indent + '  ', out, `${indent}- `);
        for (const [k, x] of entries.slice(1)) entry(k, x, indent + '  ', out);
      } else if (Array.isArray(item) && nonEmpty(item)) {
        out.push(`${indent}-`);
        block(item, indent + '  ', out);
      } else {
        out.push(`${indent}- ${inline(item, indent)}`);
      }
    }
    return;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) entry(k, x, indent, out);
}

/** One YAML document. */
export function toYamlDocument(value: unknown): string {
  const out: string[] = [];
  if (nonEmpty(value)) block(value, '', out);
  else out.push(inline(value, ''));
  return out.join('\n') + '\n';
}

/** A multi-document stream, each document starting with `---`. */
export function toYamlStream(values: readonly unknown[]): string {
  return values.map((v) => '---\n' + toYamlDocument(v)).join('');
}
