/**
 * Python `re` patterns, as substitution `pattern`s are written for Deckhand, run by JavaScript's
 * engine: `re.search(...).group(n)` and `re.sub(pattern, str(value), text)`.
 *
 * A pattern is translated once (`(?P<n>...)`, `(?P=n)`, `\Z`, `\A`, Python's `$`, `{,n}`, a
 * leading `]` in a class, leading inline flags); what JavaScript cannot express the same way
 * (scoped flags, atomic groups, possessive quantifiers, conditionals, `\U`, `\N{...}`) is refused
 * with {@link PatternError} rather than run with another meaning. One known difference is kept:
 * `\d`, `\w` and `\b` are ASCII-only here, Unicode-aware in Python (only non-ASCII text differs).
 */
import { PyException } from './python';

/** A pattern this module will not translate: the message says what and where. `pythonRejects`: Python's `re` refuses it too. */
export class PatternError extends Error {
  constructor(
    message: string,
    public readonly pythonRejects = false,
  ) {
    super(message);
  }
}

/** A Python pattern translated for JavaScript. */
export interface PyRegex {
  readonly source: string;
  readonly flags: string;
  /** Number of capturing groups. */
  readonly groups: number;
  /** Capturing group names, in order. */
  readonly names: readonly string[];
}

const cache = new Map<string, PyRegex | PatternError>();

// Escapes Python accepts in a pattern; another ASCII letter after a backslash is an error there.
const PY_LETTER_ESCAPES = new Set(['a', 'b', 'B', 'd', 'D', 'f', 'n', 'r', 's', 'S', 't', 'v', 'w', 'W', 'x', 'u', 'A', 'Z']);

/** Translates `pattern`, or throws {@link PatternError}. */
export function translatePattern(pattern: string): PyRegex {
  let hit = cache.get(pattern);
  if (hit === undefined) {
    try {
      hit = translate(pattern);
    } catch (e) {
      if (!(e instanceof PatternError)) throw e;
      hit = e;
    }
    cache.set(pattern, hit);
  }
  if (hit instanceof PatternError) throw hit;
  return hit;
}

function translate(p: string): PyRegex {
  let flags = '';
  let i = 0;
  // Leading global flags: (?i), (?s), (?m), (?a), (?u).
  for (let m = /^\(\?([aiLmsux]+)\)/.exec(p); m !== null; m = /^\(\?([aiLmsux]+)\)/.exec(p.slice(i))) {
    for (const f of m[1]!) {
      if (f === 'i' || f === 'm' || f === 's') {
        if (!flags.includes(f)) flags += f;
      } else if (f === 'x' || f === 'L') {
        throw new PatternError(`the inline flag (?${f}) of pattern ${JSON.stringify(p)} has no JavaScript equivalent`);
      }
    }
    i += m[0].length;
  }
  const multiline = flags.includes('m');
  let out = '';
  let groups = 0;
  const names: string[] = [];
  const refuse = (what: string, at: number): never => {
    throw new PatternError(`${what} at offset ${at} of pattern ${JSON.stringify(p)} cannot be run the way Python runs it`);
  };
  while (i < p.length) {
    const ch = p[i]!;
    if (ch === '\\') {
      const next = p[i + 1];
      if (next === undefined) throw new PatternError(`pattern ${JSON.stringify(p)} ends with a lone backslash (Python: bad escape (end of pattern))`, true);
      if (next === 'A') out += '^';
      else if (next === 'Z') out += '$';
      else if (next === 'a') out += '\\x07';
      else if (next === 'U' || next === 'N') refuse(`\\${next}`, i);
      else if (/[A-Za-z]/.test(next) && !PY_LETTER_ESCAPES.has(next)) throw new PatternError(`pattern ${JSON.stringify(p)} has the escape \\${next}, which Python refuses (bad escape)`, true);
      else out += `\\${next}`;
      i += 2;
      continue;
    }
    if (ch === '[') {
      // A class: copied to its closing bracket; a `]` right after `[` or `[^` is literal in Python.
      let j = i + 1;
      out += '[';
      if (p[j] === '^') {
        out += '^';
        j++;
      }
      if (p[j] === ']') {
        out += '\\]';
        j++;
      }
      for (; j < p.length && p[j] !== ']'; j++) {
        if (p[j] === '\\') {
          const next = p[j + 1] ?? '';
          if (next === 'A' || next === 'Z' || next === 'b' || next === 'B') refuse(`\\${next} inside a class`, j);
          if (/[A-Za-z]/.test(next) && !PY_LETTER_ESCAPES.has(next)) throw new PatternError(`pattern ${JSON.stringify(p)} has the escape \\${next}, which Python refuses (bad escape)`, true);
          out += next === 'a' ? '\\x07' : `\\${next}`;
          j++;
        } else if (p[j] === '[') out += '\\[';
        else out += p[j];
      }
      if (j >= p.length) throw new PatternError(`pattern ${JSON.stringify(p)} has an unterminated character set at offset ${i}`, true);
      out += ']';
      i = j + 1;
      continue;
    }
    if (ch === '(') {
      if (p[i + 1] !== '?') {
        groups++;
        out += '(';
        i++;
        continue;
      }
      const rest = p.slice(i + 2);
      let m: RegExpExecArray | null;
      if ((m = /^P<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest))) {
        groups++;
        names.push(m[1]!);
        out += `(?<${m[1]}>`;
        i += 2 + m[0].length;
      } else if ((m = /^P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest))) {
        out += `\\k<${m[1]}>`;
        i += 2 + m[0].length;
      } else if ((m = /^#[^)]*\)/.exec(rest))) {
        i += 2 + m[0].length;
      } else if (/^(?::|=|!|<=|<!)/.test(rest)) {
        const len = rest.startsWith('<') ? 3 : 2;
        out += p.slice(i, i + len + 1);
        i += len + 1;
      } else {
        refuse(`the group (?${rest.slice(0, 1)}`, i);
      }
      continue;
    }
    if (ch === '$' && !multiline) {
      // Python's `$` also matches before a newline that ends the text.
      out += '(?=\\n?$)';
      i++;
      continue;
    }
    if (ch === '{') {
      const m = /^\{(\d*)(?:,(\d*))?\}/.exec(p.slice(i));
      if (m) {
        if (m[1] === '' && m[2] === undefined) out += '\\{\\}';
        else out += `{${m[1] === '' ? '0' : m[1]}${m[2] !== undefined ? `,${m[2]}` : ''}}`;
        i += m[0].length;
        if (p[i] === '+') refuse('a possessive quantifier', i);
        continue;
      }
      out += '\\{';
      i++;
      continue;
    }
    if ((ch === '*' || ch === '+' || ch === '?') && p[i + 1] === '+' && i > 0 && p[i - 1] !== '\\') refuse('a possessive quantifier', i);
    out += ch;
    i++;
  }
  try {
    new RegExp(out, flags);
  } catch (e) {
    throw new PatternError(`pattern ${JSON.stringify(p)} is not a valid regular expression: ${(e as Error).message}`);
  }
  return { source: out, flags, groups, names };
}

/** `re.search(pattern, text).group(group)`: undefined when nothing matches, null for a group that took no part. */
export function pySearchGroup(pattern: string, text: string, group: unknown): string | null | undefined {
  const rx = translatePattern(pattern);
  const m = new RegExp(rx.source, rx.flags).exec(text);
  if (m === null) return undefined;
  let index: number;
  if (typeof group === 'number' && Number.isInteger(group)) index = group;
  else if (typeof group === 'boolean') index = group ? 1 : 0;
  else if (typeof group === 'string' && rx.names.includes(group)) return m.groups?.[group] ?? null;
  else throw new PyException('no such group');
  if (index < 0 || index > rx.groups) throw new PyException('no such group');
  return m[index] ?? null;
}

type TemplatePiece = string | { readonly group: number | string };

/** Python's processing of a replacement string: escapes and group references. */
function parseTemplate(repl: string, rx: PyRegex): TemplatePiece[] {
  const pieces: TemplatePiece[] = [];
  let lit = '';
  const flush = () => {
    if (lit !== '') pieces.push(lit);
    lit = '';
  };
  const groupRef = (g: number | string) => {
    if (typeof g === 'number' ? g > rx.groups : !rx.names.includes(g)) throw new PyException('invalid group reference in the replacement');
    flush();
    pieces.push({ group: g });
  };
  for (let i = 0; i < repl.length; i++) {
    const ch = repl[i]!;
    if (ch !== '\\') {
      lit += ch;
      continue;
    }
    const next = repl[i + 1];
    if (next === undefined) throw new PyException('bad escape (end of pattern) in the replacement');
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b', '\\': '\\' };
    if (next in simple) {
      lit += simple[next];
      i++;
    } else if (next === 'g') {
      const m = /^<([^>]*)>/.exec(repl.slice(i + 2));
      if (!m) throw new PyException('missing group name in the replacement');
      const name = m[1]!;
      groupRef(/^\d+$/.test(name) ? Number(name) : name);
      i += 1 + m[0].length;
    } else if (next === '0' || (/[0-7]/.test(next) && /[0-7]{2}/.test(repl.slice(i + 2, i + 4)) && next !== '0')) {
      const m = /^[0-7]{1,3}/.exec(repl.slice(i + 1))!;
      lit += String.fromCharCode(parseInt(m[0], 8));
      i += m[0].length;
    } else if (/[1-9]/.test(next)) {
      const two = /^[0-9]{2}/.test(repl.slice(i + 1, i + 3));
      groupRef(Number(repl.slice(i + 1, i + (two ? 3 : 2))));
      i += two ? 2 : 1;
    } else if (/[A-Za-z]/.test(next)) {
      throw new PyException('bad escape in the replacement (the substituted value has a backslash before a letter Python refuses)');
    } else {
      lit += `\\${next}`;
      i++;
    }
  }
  flush();
  return pieces;
}

/** `re.sub(pattern, repl, text)`: every match replaced, `repl` read as Python reads a template. */
export function pySub(pattern: string, repl: string, text: string): string {
  const rx = translatePattern(pattern);
  const template = parseTemplate(repl, rx);
  const re = new RegExp(rx.source, rx.flags.includes('g') ? rx.flags : rx.flags + 'g');
  return text.replace(re, (...args: unknown[]) => {
    const named = typeof args[args.length - 1] === 'object' ? (args[args.length - 1] as Record<string, string | undefined>) : undefined;
    let out = '';
    for (const piece of template) {
      if (typeof piece === 'string') out += piece;
      else if (typeof piece.group === 'number') out += (args[piece.group] as string | undefined) ?? '';
      else out += named?.[piece.group] ?? '';
    }
    return out;
  });
}
