/**
 * A js-yaml schema that resolves and constructs scalars the way PyYAML's `SafeLoader` does
 * (YAML 1.1 as PyYAML implements it, not the YAML 1.2 core schema js-yaml uses by default), so a
 * manifest means here what it means to Armada, which reads every file with `yaml.safe_load_all`.
 *
 * The regular expressions are PyYAML's own (`yaml/resolver.py`, `yaml/constructor.py`), which
 * is why `1e3` is a string (PyYAML's float needs a dot), `0755` is octal, `1:20` is 80 and `y`
 * is a string.
 */
import type * as JsYaml from 'js-yaml';
import { jsyaml } from './js-yaml';
import { ConstructFailure, FloatMarker, PyTimestamp } from './py-values';

/**
 * How many values the constructors made that need a second look once the document is built:
 * markers to replace (whole-number floats, constructor failures) and values that are not JSON
 * (timestamps, binary), how many `<<` were seen, and how many values PyYAML refuses were made. The loader reads them before and after each
 * document, so that the common document, which has none, costs no extra walk.
 */
export const constructStats = { specials: 0, merges: 0, failures: 0 };

const BOOL_VALUES: Record<string, boolean> = {
  yes: true, Yes: true, YES: true, no: false, No: false, NO: false,
  true: true, True: true, TRUE: true, false: false, False: false, FALSE: false,
  on: true, On: true, ON: true, off: false, Off: false, OFF: false,
};

/** Own keys only: `!!bool constructor` must not find Object.prototype's members. */
const boolValue = (s: string): boolean | undefined => (Object.hasOwn(BOOL_VALUES, s) ? BOOL_VALUES[s] : undefined);

const FLOAT_RE =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const INT_RE = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const TIMESTAMP_RE =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/;
const TIMESTAMP_PARTS_RE =
  /^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?$/;

// First characters PyYAML's resolver looks at before trying each expression.
const isDigit = (c: number) => c >= 48 && c <= 57;
const isNumberStart = (c: number) => isDigit(c) || c === 43 /* + */ || c === 45; /* - */

function resolveNull(s: string | null): boolean {
  return s === null || s === '' || s === '~' || s === 'null' || s === 'Null' || s === 'NULL';
}

function resolveBool(s: string | null): boolean {
  return s !== null && s.length >= 2 && s.length <= 5 && Object.prototype.hasOwnProperty.call(BOOL_VALUES, s);
}

function resolveInt(s: string | null): boolean {
  return s !== null && s.length > 0 && isNumberStart(s.charCodeAt(0)) && INT_RE.test(s);
}

function resolveFloat(s: string | null): boolean {
  if (s === null || s.length === 0) return false;
  const c = s.charCodeAt(0);
  return (isNumberStart(c) || c === 46) /* . */ && FLOAT_RE.test(s);
}

function resolveTimestamp(s: string | null): boolean {
  return s !== null && s.length >= 8 && isDigit(s.charCodeAt(0)) && s.charCodeAt(4) === 45 && TIMESTAMP_RE.test(s);
}

function special<T>(v: T): T {
  constructStats.specials++;
  if (v instanceof ConstructFailure) constructStats.failures++;
  return v;
}

const DIGITS: Record<number, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };

function parseDigits(text: string, base: number): number | undefined {
  return DIGITS[base].test(text) ? parseInt(text, base) : undefined;
}

/** PyYAML's `construct_yaml_int`, including what Python's `int()` refuses; exact beyond 2^53 (a bigint). */
function constructInt(text: string): number | bigint | ConstructFailure {
  let v = text.replace(/_/g, '');
  const sign = v[0] === '-' ? -1 : 1;
  if (v[0] === '-' || v[0] === '+') v = v.slice(1);
  if (v === '0') return 0;
  let base = 10;
  let n: number | undefined;
  if (v.startsWith('0b')) n = parseDigits(v.slice(2), (base = 2));
  else if (v.startsWith('0x')) n = parseDigits(v.slice(2), (base = 16));
  else if (v[0] === '0') n = parseDigits(v, (base = 8));
  else if (v.includes(':')) {
    n = 0;
    for (const part of v.split(':')) {
      const d = parseDigits(part, 10);
      if (d === undefined) return special(new ConstructFailure(text, `invalid literal for int() with base 10: ${pyStr(part)}`));
      n = n * 60 + d;
    }
  } else n = parseDigits(v, 10);
  if (n === undefined) {
    const shown = base === 2 || base === 16 ? v.slice(2) : v;
    return special(new ConstructFailure(text, `invalid literal for int() with base ${base}: ${pyStr(shown)}`));
  }
  if (!Number.isSafeInteger(n)) return special(exactInt(v, base, sign));
  return n === 0 ? 0 : sign * n;
}

/** Python ints have no size limit: past 2^53 the digits are read again, exactly. */
function exactInt(v: string, base: number, sign: number): bigint {
  let n: bigint;
  if (v.includes(':')) n = v.split(':').reduce((acc, part) => acc * 60n + BigInt(part), 0n);
  else n = BigInt(base === 10 ? v : base === 8 ? `0o${v.slice(1)}` : v);
  return sign < 0 ? -n : n;
}

const PY_FLOAT_TEXT = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[-+]?[0-9]+)?$/;

/** PyYAML's `construct_yaml_float`, including what Python's `float()` refuses. */
function constructFloat(text: string): number | FloatMarker | ConstructFailure {
  let v = text.replace(/_/g, '').toLowerCase();
  const sign = v[0] === '-' ? -1 : 1;
  if (v[0] === '-' || v[0] === '+') v = v.slice(1);
  let x: number;
  if (v === '.inf') x = sign * Infinity;
  else if (v === '.nan') x = NaN;
  else if (v.includes(':')) {
    x = 0;
    for (const part of v.split(':')) {
      if (!PY_FLOAT_TEXT.test(part)) return special(new ConstructFailure(text, `could not convert string to float: ${pyStr(part)}`));
      x = x * 60 + Number(part);
    }
    x *= sign;
  } else if (v === 'inf' || v === 'infinity') x = sign * Infinity;
  else if (v === 'nan') x = NaN;
  else if (PY_FLOAT_TEXT.test(v)) x = sign * Number(v);
  else return special(new ConstructFailure(text, `could not convert string to float: ${pyStr(v)}`));
  return Number.isInteger(x) || !Number.isFinite(x) ? special(new FloatMarker(x)) : x;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** PyYAML's `construct_yaml_timestamp`, with the range checks Python's `datetime` makes. */
function constructTimestamp(text: string): PyTimestamp | ConstructFailure {
  const m = TIMESTAMP_PARTS_RE.exec(text);
  if (!m) return special(new ConstructFailure(text, `${pyStr(text)} is not a timestamp`));
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const fail = (why: string) => special(new ConstructFailure(text, `cannot construct a timestamp from ${pyStr(text)}: ${why}`));
  if (year < 1) return fail(`year ${year} is out of range`);
  if (month < 1 || month > 12) return fail('month must be in 1..12');
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const dim = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  if (day < 1 || day > dim) return fail('day is out of range for month');
  if (m[4] === undefined) return special(new PyTimestamp(year, month, day));
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (hour > 23) return fail('hour must be in 0..23');
  if (minute > 59) return fail('minute must be in 0..59');
  if (second > 59) return fail('second must be in 0..59');
  const microsecond = m[7] ? Number(m[7].slice(0, 6).padEnd(6, '0')) : 0;
  let offset: number | undefined;
  if (m[9] !== undefined) {
    offset = (Number(m[10]) * 60 + Number(m[11] ?? 0)) * (m[9] === '-' ? -1 : 1);
    if (Math.abs(offset) >= 24 * 60) return fail('offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24)');
  } else if (m[8] !== undefined) offset = 0;
  return special(new PyTimestamp(year, month, day, hour, minute, second, microsecond, offset));
}

/** Python's `repr()` of a short string, for constructor messages. */
function pyStr(s: string): string {
  return s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

const noConstructor = (tag: string) => `could not determine a constructor for the tag '${tag}'`;

const TAG = 'tag:yaml.org,2002:';

const nullType = new jsyaml.Type(`${TAG}null`, { kind: 'scalar', resolve: resolveNull, construct: () => null });
const boolType = new jsyaml.Type(`${TAG}bool`, { kind: 'scalar', resolve: resolveBool, construct: (s: string) => boolValue(s) });
const intType = new jsyaml.Type(`${TAG}int`, { kind: 'scalar', resolve: resolveInt, construct: constructInt });
const floatType = new jsyaml.Type(`${TAG}float`, { kind: 'scalar', resolve: resolveFloat, construct: constructFloat });
const timestampType = new jsyaml.Type(`${TAG}timestamp`, { kind: 'scalar', resolve: resolveTimestamp, construct: constructTimestamp });
// js-yaml applies the merge itself when a key resolves to this tag; as a value, PyYAML has no
// constructor for it.
const mergeType = new jsyaml.Type(`${TAG}merge`, {
  kind: 'scalar',
  resolve: (s: string | null) => s === '<<',
  construct: (s: string) => {
    constructStats.merges++;
    return special(new ConstructFailure(s, noConstructor(`${TAG}merge`)));
  },
});
// PyYAML resolves a plain `=` to the YAML 1.1 "value" type and then has no constructor for it:
// `safe_load` raises a ConstructorError. As a mapping key it is turned into the string '='.
const valueType = new jsyaml.Type(`${TAG}value`, {
  kind: 'scalar',
  resolve: (s: string | null) => s === '=',
  construct: (s: string) => special(new ConstructFailure(s, noConstructor(`${TAG}value`))),
});

// With an explicit tag (`!!int 1e3`) PyYAML skips the resolver and hands the text straight to the
// constructor, so these accept anything and let the constructor decide.
const explicitInt = new jsyaml.Type(`${TAG}int`, { kind: 'scalar', resolve: (s: string | null) => s !== null, construct: constructInt });
const explicitFloat = new jsyaml.Type(`${TAG}float`, { kind: 'scalar', resolve: (s: string | null) => s !== null, construct: constructFloat });
const explicitBool = new jsyaml.Type(`${TAG}bool`, {
  kind: 'scalar',
  resolve: (s: string | null) => s !== null,
  construct: (s: string) => {
    const v = boolValue(s.toLowerCase());
    return v !== undefined ? v : special(new ConstructFailure(s, `cannot construct a boolean from ${pyStr(s)}`));
  },
});
const explicitNull = new jsyaml.Type(`${TAG}null`, { kind: 'scalar', resolve: () => true, construct: () => null });
const binaryType = new jsyaml.Type(`${TAG}binary`, { kind: 'scalar', resolve: () => true, construct: (s: string | null) => special(constructBinary(s ?? '')) });

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * PyYAML's `construct_yaml_binary`: Python's `base64.decodebytes`, which skips every character
 * outside the alphabet (line breaks, spaces, even `~`) and stops at the padding that completes a
 * group; what it refuses is refused.
 */
function constructBinary(text: string): Uint8Array | ConstructFailure {
  if (/[^\x00-\x7f]/.test(text)) return new ConstructFailure(text, `failed to convert base64 data into ascii: ${pyStr(text.slice(0, 40))} holds a character that is not ASCII`);
  const out: number[] = [];
  let quad = 0;
  let left = 0;
  let pads = 0;
  let complete = false;
  for (let i = 0; i < text.length && !complete; i++) {
    const c = text[i];
    if (c === '=') {
      if (quad >= 2 && quad + ++pads >= 4) complete = true;
      continue;
    }
    const v = BASE64.indexOf(c);
    if (v < 0) continue;
    pads = 0;
    if (quad === 0) left = v;
    else if (quad === 1) {
      out.push(((left << 2) | (v >> 4)) & 0xff);
      left = v & 0xf;
    } else if (quad === 2) {
      out.push(((left << 4) | (v >> 2)) & 0xff);
      left = v & 0x3;
    } else out.push(((left << 6) | v) & 0xff);
    quad = (quad + 1) % 4;
  }
  if (!complete && quad === 1) return new ConstructFailure(text, `failed to decode base64 data: Invalid base64-encoded string: number of data characters (${Math.floor(out.length / 3) * 4 + 1}) cannot be 1 more than a multiple of 4`);
  if (!complete && quad !== 0) return new ConstructFailure(text, 'failed to decode base64 data: Incorrect padding');
  return Uint8Array.from(out);
}

// PyYAML builds a Python set for !!set and a list of tuples for !!omap and !!pairs: neither has a
// stand-in here that validation and the writers would treat as Armada does (a set is no JSON
// object to Armada's schemas, a tuple no array), so they are refused rather than built as
// something else.
const unrepresentable = (tag: string, kind: 'mapping' | 'sequence', python: string, instead: string) =>
  new jsyaml.Type(`${TAG}${tag}`, {
    kind,
    construct: () => special(new ConstructFailure(`!!${tag}`, `'!!${tag}': PyYAML builds ${python} here, which armada-cdk cannot carry faithfully (Armada's schemas and writers do not treat it as a ${kind === 'mapping' ? 'mapping' : 'list'}); write ${instead} instead`)),
  });
const setType = unrepresentable('set', 'mapping', 'a Python set', 'a mapping with null values');
const omapType = unrepresentable('omap', 'sequence', 'a list of tuples', 'a list of one-key mappings or a mapping');
const pairsType = unrepresentable('pairs', 'sequence', 'a list of tuples', 'a list of two-item lists');

/**
 * The implicit types in the order js-yaml tries them on a plain scalar: the first whose `resolve`
 * accepts the text constructs the value. The block-style fast path (`fast-block.ts`)
 * resolves with these same objects, so that both paths give the same values and counts.
 */
export const PYYAML_IMPLICIT_TYPES: readonly JsYaml.Type[] = [nullType, boolType, intType, floatType, timestampType, mergeType, valueType];

/**
 * The schema to pass to js-yaml's `load`/`loadAll` for PyYAML `SafeLoader` semantics. Used
 * directly, it leaves its markers in the result: a {@link FloatMarker} for each whole-number
 * float and a {@link ConstructFailure} for each value PyYAML refuses; {@link parseYamlStream}
 * turns those into plain values and diagnostics.
 */
export const PYYAML_SAFE_SCHEMA: JsYaml.Schema = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [...PYYAML_IMPLICIT_TYPES],
  explicit: [explicitInt, explicitFloat, explicitBool, explicitNull, binaryType, omapType, pairsType, setType],
});

/** The part of js-yaml's parser state a listener sees. */
interface ListenerState {
  tag: string | null;
  kind: string | null;
  result: unknown;
  anchor: string | null;
  anchorMap: Record<string, unknown>;
  implicitTypes: readonly JsYaml.Type[];
}

/**
 * A js-yaml `listener` that gives a scalar tagged with the non-specific `!` the value PyYAML gives
 * it: PyYAML resolves it as if it were plain, whatever its style (`! "0x10"` is the int 16,
 * `! ~` is None), where js-yaml keeps the text.
 */
export function resolveNonSpecificTag(event: 'open' | 'close', state: ListenerState): void {
  if (event !== 'close' || state.tag !== '!' || (state.kind !== 'scalar' && state.result !== null)) return;
  const text = state.result as string | null;
  for (const type of state.implicitTypes as (JsYaml.Type & { tag: string; resolve(s: unknown): boolean; construct(s: unknown): unknown })[]) {
    if (type.resolve(text)) {
      state.result = type.construct(text);
      state.tag = type.tag;
      break;
    }
  }
  if (state.tag === '!') state.result = text ?? '';
  // js-yaml registers the anchor of a '!' node nowhere: an alias to it must find it.
  if (state.anchor !== null) state.anchorMap[state.anchor] = state.result;
}

const NON_SPECIFIC_TAG = /(?:^|[ \t[{,])!(?=[ \t\n,\]}]|$)/m;

/** Cheap test: may `text` hold a node tagged with the non-specific `!` (see {@link resolveNonSpecificTag})? */
export function mayHaveNonSpecificTag(text: string): boolean {
  return text.includes('!') && NON_SPECIFIC_TAG.test(text);
}

/**
 * What PyYAML makes of a plain (unquoted) scalar, with the stand-ins of this loader (a
 * {@link FloatMarker} for whole-number floats). Quoted and block scalars are always strings.
 */
export function resolvePlainScalar(text: string): unknown {
  if (resolveNull(text)) return null;
  if (resolveBool(text)) return boolValue(text);
  if (resolveInt(text)) return constructInt(text);
  if (resolveFloat(text)) return constructFloat(text);
  if (resolveTimestamp(text)) return constructTimestamp(text);
  if (text === '=') return new ConstructFailure(text, noConstructor(`${TAG}value`));
  return text;
}

/** The string js-yaml makes of a mapping key, which is how keys are named in the loaded data. */
export function plainKeyString(text: string): string {
  const before = constructStats.specials;
  const v = resolvePlainScalar(text);
  constructStats.specials = before;
  return String(v);
}

/** The Python type PyYAML gives a mapping key: keys of different types are different dict keys. */
export type PyKeyType = 'str' | 'int' | 'float' | 'bool' | 'NoneType' | 'datetime.date' | 'datetime.datetime' | 'other';

/** A mapping key as PyYAML reads it, and as it is written, for messages. */
export interface PyKey {
  readonly type: PyKeyType;
  /** The key as written (`1`, `"1"`, `~`). */
  readonly written: string;
  /** The float's value, for `type: 'float'`. */
  readonly float?: number | undefined;
}

const TAGGED_KEY_TYPES: Record<string, PyKeyType> = {
  '!': 'str',
  [`${TAG}str`]: 'str',
  [`${TAG}int`]: 'int',
  [`${TAG}float`]: 'float',
  [`${TAG}bool`]: 'bool',
  [`${TAG}null`]: 'NoneType',
};

/**
 * What PyYAML makes of a key: `text` is its content, `plain` whether it was written unquoted (only
 * those are resolved), `tag` its explicit tag, if any.
 */
export function pyKeyOf(text: string, written: string, plain: boolean, tag?: string): PyKey {
  if (tag !== undefined) return { type: Object.hasOwn(TAGGED_KEY_TYPES, tag) ? TAGGED_KEY_TYPES[tag] : 'other', written };
  if (!plain) return { type: 'str', written };
  if (resolveNull(text)) return { type: 'NoneType', written };
  if (resolveBool(text)) return { type: 'bool', written };
  if (resolveInt(text)) return { type: 'int', written };
  if (resolveFloat(text)) {
    const before = constructStats.specials;
    const v = constructFloat(text);
    constructStats.specials = before;
    return { type: 'float', written, float: typeof v === 'number' ? v : v instanceof FloatMarker ? v.value : undefined };
  }
  if (resolveTimestamp(text)) return { type: text.length > 10 ? 'datetime.datetime' : 'datetime.date', written };
  return { type: text === '=' ? 'other' : 'str', written };
}
