/**
 * Python's `repr()` of loaded values, because Armada's messages come from Python's jsonschema,
 * which quotes the offending value with `%r`: `'600' is not of type 'integer'`, `None`, `True`.
 */
import { pyFloatRepr, PyTimestamp } from './py-values';

/** Options of {@link pyRepr}. */
export interface PyReprOptions {
  /**
   * Tells whether the number at a path (relative to the value) was written as a float: `600.0`
   * and `600` are the same JavaScript number.
   * @default - only non-integral numbers are floats
   */
  readonly isFloat?: ((path: readonly (string | number)[]) => boolean) | undefined;
  /**
   * Longer results are cut and end with `...` (a whole `values` tree helps nobody in a message).
   * @default 160
   */
  readonly maxLength?: number | undefined;
}

// What Python's str.isprintable() refuses: other, separator (but the space), unassigned. Built
// on first use (only a character beyond ASCII needs it): as a literal, the engine would build its
// Unicode sets whenever this module is loaded.
let nonPrintable: RegExp | undefined;
function isPrintable(ch: string): boolean {
  return !(nonPrintable ??= new RegExp(String.raw`[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]`, 'u')).test(ch);
}

/**
 * Python's `repr(str)`.
 * @param limit stop after about this many characters of `s` (the closing quote is then left out).
 * @default limit - the whole string
 */
export function pyStrRepr(s: string, limit = Infinity): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const cut = s.length > limit;
  if (cut) s = s.slice(0, limit);
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f || ch === ' ') out += ch;
    else if (isPrintable(ch)) out += ch;
    else if (cp < 0x100) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return cut ? out : out + quote;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Python's `repr()` of a value as PyYAML would have built it. */
export function pyRepr(value: unknown, options: PyReprOptions = {}): string {
  const max = options.maxLength ?? 160;
  const isFloat = options.isFloat;
  const path: (string | number)[] = [];
  const active = new Set<object>();
  let out = '';
  // Stops early once the result is long enough to be cut: a huge tree costs nothing.
  const emit = (s: string) => {
    out += s;
    return out.length <= max;
  };
  const walk = (v: unknown): boolean => {
    if (v === null || v === undefined) return emit('None');
    if (v === true) return emit('True');
    if (v === false) return emit('False');
    if (typeof v === 'string') return emit(pyStrRepr(v, max + 1));
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || (isFloat && isFloat(path))) return emit(pyFloatRepr(v));
      return emit(Math.abs(v) >= 1e21 ? BigInt(v).toString() : String(v === 0 ? 0 : v));
    }
    if (typeof v === 'bigint') return emit(v.toString());
    if (v instanceof PyTimestamp) return emit(v.pyRepr());
    if (v instanceof Uint8Array) return emit(bytesRepr(v));
    if (typeof v !== 'object') return emit(String(v));
    if (active.has(v)) return emit(Array.isArray(v) ? '[...]' : '{...}');
    active.add(v);
    let ok: boolean;
    if (Array.isArray(v)) {
      ok = emit('[');
      for (let i = 0; ok && i < v.length; i++) {
        if (i > 0) ok = emit(', ');
        path.push(i);
        ok = ok && walk(v[i]);
        path.pop();
      }
      ok = ok && emit(']');
    } else {
      ok = emit('{');
      let first = true;
      for (const k of Object.keys(v)) {
        if (!ok) break;
        if (!first) ok = emit(', ');
        first = false;
        path.push(k);
        ok = ok && emit(`${pyStrRepr(k)}: `) && walk((v as Record<string, unknown>)[k]);
        path.pop();
      }
      ok = ok && emit('}');
    }
    active.delete(v);
    return ok;
  };
  walk(value);
  return out.length <= max ? out : `${out.slice(0, Math.max(0, max - 3))}...`;
}

function bytesRepr(b: Uint8Array): string {
  let s = "b'";
  for (const c of b) {
    if (c === 0x27 || c === 0x5c) s += `\\${String.fromCharCode(c)}`;
    else if (c === 9) s += '\\t';
    else if (c === 10) s += '\\n';
    else if (c === 13) s += '\\r';
    else if (c < 0x20 || c >= 0x7f) s += `\\x${hex(c, 2)}`;
    else s += String.fromCharCode(c);
  }
  return `${s}'`;
}
