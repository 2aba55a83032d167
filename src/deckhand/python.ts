/**
 * The few Python value semantics Deckhand's output depends on: `==` (where `1 == 1.0 == True`),
 * truthiness, `str()`, `copy.copy`, `copy.deepcopy` (which keeps shared nodes shared) and
 * `json.dumps` of a string. Values are the loader's: plain objects, arrays, strings, numbers,
 * booleans and null.
 */
import { pyRepr as loadedPyRepr } from '../importer/load/py-repr';
import { pyFloatRepr, PyTimestamp } from '../importer/load/py-values';

/** A Python `dict` as loaded: a plain object. */
export type Dict = Record<string, unknown>;

/** Raised where Python would raise: Deckhand catches some of these (a warning), not others (fatal). */
export class PyException extends Error {}

/** Whether `v` is a mapping (a plain object, as the loader builds them). */
export function isDict(v: unknown): v is Dict {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** `key in d` for a dict. */
export function hasKey(d: Dict, key: string): boolean {
  return hasOwnProperty.call(d, key);
}

/** `d[key]`, own keys only (a key named `constructor` is data, not the prototype's). */
export function getKey(d: Dict, key: string): unknown {
  return hasOwnProperty.call(d, key) ? d[key] : undefined;
}

/** `d[key] = value` without ever touching a prototype (a key `__proto__` is data). */
export function setKey(d: Dict, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(d, key, { value, writable: true, enumerable: true, configurable: true });
  else d[key] = value;
}

/** `d.pop(key)`. */
export function deleteKey(d: Dict, key: string): void {
  delete d[key];
  intKeys.get(d)?.delete(key);
  floats.get(d)?.delete(key);
}

// Keys that were integers in the YAML (`1:`): loaded keys are strings, but Pegleg writes an int key
// back unquoted and sorts it as a number. Recorded beside the dict, by identity, and carried by
// every copy the engine makes.
const intKeys = new WeakMap<object, Map<string, string>>();

/** Records that `key` of `d` is the Python int written `text` (its decimal form). */
export function markIntKey(d: Dict, key: string, text: string): void {
  let m = intKeys.get(d);
  if (m === undefined) intKeys.set(d, (m = new Map()));
  m.set(key, text);
}

/** The decimal text of `key` of `d` when it is a Python int, else undefined. */
export function intKeyText(d: object, key: string): string | undefined {
  return intKeys.get(d)?.get(key);
}

/** Gives `to[toKey]` the key type of `from[fromKey]` (`to` gets the key from `from`). */
export function copyKeyType(from: Dict, fromKey: string, to: Dict, toKey = fromKey): void {
  const text = intKeys.get(from)?.get(fromKey);
  if (text !== undefined) markIntKey(to, toKey, text);
  else intKeys.get(to)?.delete(toKey);
}

// Numbers that were Python floats with a whole value (`1.0`): one JavaScript number with `1`, but
// Pegleg writes `1.0` and `str()` gives `'1.0'`. Recorded by container and key (a list's index as
// a string), as the loader found them, and carried by the engine's copies and writes.
const floats = new WeakMap<object, Set<string>>();

/** Records whether `container[key]` is a Python float. */
export function markFloat(container: object, key: string | number, isFloat = true): void {
  let set = floats.get(container);
  if (!isFloat) {
    set?.delete(String(key));
    return;
  }
  if (set === undefined) floats.set(container, (set = new Set()));
  set.add(String(key));
}

/** Whether `container[key]` is a Python float (a number written as one in the YAML). */
export function isFloatAt(container: unknown, key: string | number): boolean {
  return container !== null && typeof container === 'object' && floats.get(container)?.has(String(key)) === true;
}

/** `to[toKey]` now holds the value of `from[fromKey]`: it is a float when that was one. */
export function copyValueType(from: unknown, fromKey: string | number, to: object, toKey: string | number = fromKey): void {
  markFloat(to, toKey, isFloatAt(from, fromKey));
}

function copyKeyTypes(from: object, to: object): void {
  const m = intKeys.get(from);
  if (m !== undefined) intKeys.set(to, new Map(m));
  const f = floats.get(from);
  if (f !== undefined) floats.set(to, new Set(f));
}

/** A new empty dict (no prototype lookups reach `Object.prototype` through a data key). */
export function newDict(): Dict {
  return {};
}

/** Python's truthiness. */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0; // NaN is true
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isDict(v)) return Object.keys(v).length > 0;
  return true;
}

function isNumeric(v: unknown): v is number | boolean | bigint {
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint';
}

/** Python's `a == b` on loaded values (`True == 1`, dicts equal whatever their key order). */
export function pyEq(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEq(a[i], b[i])) return false;
    return true;
  }
  if (isDict(a)) {
    if (!isDict(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!hasKey(b, k) || !pyEq(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** `copy.copy`: a new top-level list or dict whose items are the same objects. */
export function shallowCopy<T>(v: T): T {
  if (Array.isArray(v)) {
    const out = v.slice();
    copyKeyTypes(v, out);
    return out as T;
  }
  if (isDict(v)) {
    const out = newDict();
    for (const k of Object.keys(v)) setKey(out, k, v[k]);
    copyKeyTypes(v, out);
    return out as T;
  }
  return v;
}

/** `copy.deepcopy`: nodes shared inside `v` (YAML aliases, earlier shallow copies) stay shared in the copy. */
export function deepCopy<T>(v: T, memo: Map<object, unknown> = new Map()): T {
  if (v === null || typeof v !== 'object') return v;
  const seen = memo.get(v as object);
  if (seen !== undefined) return seen as T;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    memo.set(v, out);
    for (const item of v) out.push(deepCopy(item, memo));
    copyKeyTypes(v, out);
    return out as T;
  }
  if (isDict(v)) {
    const out = newDict();
    memo.set(v, out);
    for (const k of Object.keys(v)) setKey(out, k, deepCopy(v[k], memo));
    copyKeyTypes(v, out);
    return out as T;
  }
  return v; // immutable special values (timestamps, binary)
}

/** Python's name for the type of `v`, for messages. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (isDict(v)) return 'dict';
  return 'object';
}

/**
 * Python's `repr()` of a loaded value, whole (never cut): the loader's own, so that the engine
 * writes strings (`str.isprintable()`'s escapes), floats, timestamps and bytes as Python does.
 */
export function pyRepr(v: unknown, isFloat = false): string {
  if (typeof v === 'number' && isFloat) return pyFloatRepr(v);
  return loadedPyRepr(v, { maxLength: Infinity, isFloat: (path) => path.length > 0 && isFloatAt(valueAtSteps(v, path.slice(0, -1)), path[path.length - 1]!) });
}

function valueAtSteps(v: unknown, path: readonly (string | number)[]): unknown {
  let cur = v;
  for (const seg of path) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string | number, unknown>)[seg] : undefined;
  return cur;
}

/** Python's `str()`: a string as is, anything else as its `repr()`. */
export function pyStr(v: unknown, isFloat = false): string {
  if (typeof v === 'string') return v;
  // `str(datetime)` is its ISO form; only inside a container does Python show its `repr()`.
  if (v instanceof PyTimestamp) return v.toString();
  return pyRepr(v, isFloat);
}

/** Python's `json.dumps(s)` of a string (`ensure_ascii`: every non-ASCII character escaped). */
export function jsonDumpsString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}
