/**
 * Deckhand's JSONPath: `jsonpath_parse` and `jsonpath_replace` of `deckhand/common/utils.py`,
 * on top of jsonpath-ng 1.8's `find` and `update`, for the forms real sites use: `$`, `.`,
 * `.a.b`, `$.a-b`, `.a[0].b`, `a.b` (no leading dot), quoted names. Wildcards, `..`, slices and
 * filters are refused with {@link JsonPathError}.
 *
 * Python's quirks are kept because rendered sites show them: a missing destination is created
 * from the path's text split on dots (lists padded with `{}`); a list written at an index gives
 * its first item; a write reaches the data through shallow copies, so nested containers are
 * written in place.
 */
import { Dict, getKey, hasKey, isDict, isFloatAt, markFloat, PyException, pyEq, pyStr, pyTypeName, setKey, shallowCopy, truthy } from './python';
import { pySearchGroup, pySub } from './python-regex';

/** A path jsonpath-ng would not parse, or (`unsupported`) one it would but this module does not. */
export class JsonPathError extends Error {
  constructor(
    message: string,
    public readonly unsupported = false,
  ) {
    super(message);
  }
}

/** One step of a path; `root` is a `$` after a dot (`$.a.$`), which jsonpath-ng reads as the root again. */
export type Step = { readonly field: string } | { readonly index: number } | { readonly root: true };

/** A parsed path. */
export interface JsonPath {
  /** The text as given to jsonpath-ng (after Deckhand's normalisation). */
  readonly text: string;
  readonly steps: readonly Step[];
}

const cache = new Map<string, JsonPath | JsonPathError>();
const ID_RE = /^(?:[a-zA-Z_@\u4E00-\u9FA5]|\uD83D[\uDE00-\uDE4F])(?:[a-zA-Z0-9_@\-\u4E00-\u9FA5]|\uD83D[\uDE00-\uDE4F])*/;
const RESERVED = new Set(['where', 'wherenot']);

/** Deckhand's `_normalize_jsonpath`: `.` is `$`, `.a` is `$.a`. */
export function normalizeJsonPath(path: string): string {
  if (path === '.') return '$';
  return path.startsWith('.') ? '$' + path : path;
}

/** Parses `text` as jsonpath-ng would (for the supported forms). */
export function parseJsonPath(text: string): JsonPath {
  let hit = cache.get(text);
  if (hit === undefined) {
    try {
      hit = { text, steps: parseSteps(text) };
    } catch (e) {
      if (!(e instanceof JsonPathError)) throw e;
      hit = e;
    }
    cache.set(text, hit);
  }
  if (hit instanceof JsonPathError) throw hit;
  return hit;
}

function parseSteps(text: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const skip = () => {
    while (text[i] === ' ' || text[i] === '\t') i++;
  };
  const bad = (what: string, unsupported = false): never => {
    throw new JsonPathError(`JSONPath ${JSON.stringify(text)}: ${what} at column ${i + 1}`, unsupported);
  };
  const name = (): string => {
    skip();
    const q = text[i];
    if (q === "'" || q === '"') {
      let out = '';
      for (i++; i < text.length && text[i] !== q; i++) {
        if (text[i] === '\\' && i + 1 < text.length) i++;
        out += text[i];
      }
      if (i >= text.length) bad('unterminated quoted name');
      i++;
      return out;
    }
    const num = /^-?\d+/.exec(text.slice(i));
    if (num) {
      i += num[0].length;
      return String(Number(num[0]));
    }
    const id = ID_RE.exec(text.slice(i));
    if (!id) return text[i] === '*' ? bad('wildcards are not supported', true) : bad(`unexpected ${text[i] === undefined ? 'end' : JSON.stringify(text[i])}`);
    if (RESERVED.has(id[0])) bad(`"${id[0]}" is a jsonpath-ng keyword`);
    i += id[0].length;
    return id[0];
  };
  const index = () => {
    i++; // [
    skip();
    const num = /^-?\d+/.exec(text.slice(i));
    if (!num) bad('only [n] indexes are supported', true);
    i += num![0].length;
    skip();
    if (text[i] !== ']') bad('only [n] indexes are supported', true);
    i++;
    steps.push({ index: Number(num![0]) });
  };
  skip();
  if (text[i] === '$') i++;
  else if (text[i] === '[') index();
  else steps.push({ field: name() });
  for (;;) {
    skip();
    if (i >= text.length) break;
    if (text.startsWith('..', i)) bad('".." (descendants) is not supported', true);
    if (text[i] === '.') {
      i++;
      skip();
      if (text[i] === '[') index();
      else if (text[i] === '$') {
        i++;
        steps.push({ root: true });
      } else steps.push({ field: name() });
    } else if (text[i] === '[') index();
    else bad(`unexpected ${JSON.stringify(text[i])}`);
  }
  return steps;
}

/** Every container a lookup went through, outermost first: where a write lands. */
export type Chain = unknown[];

/** jsonpath-ng's `find` of one step: the value, or `undefined` for no match (null is a match). */
function stepFind(value: unknown, step: { readonly field: string } | { readonly index: number }): { v: unknown } | undefined {
  if ('field' in step) {
    if (!isDict(value) || !hasKey(value, step.field)) return undefined;
    return { v: value[step.field] };
  }
  // `if datum.value and len(datum.value) > index`, then `datum.value[index]`.
  if (!truthy(value)) return undefined;
  if (Array.isArray(value) || typeof value === 'string') {
    if (value.length <= step.index) return undefined;
    const at = step.index < 0 ? value.length + step.index : step.index;
    if (at < 0) throw new PyException(`${pyTypeName(value)} index out of range`);
    return { v: Array.isArray(value) ? value[at] : value[at] };
  }
  if (isDict(value)) {
    if (Object.keys(value).length <= step.index) return undefined;
    throw new PyException(`KeyError: ${step.index}`);
  }
  throw new PyException(`object of type '${pyTypeName(value)}' has no len()`);
}

/** The first match of `path` in `data`, with the containers on the way, or undefined. */
export function findPath(data: unknown, path: JsonPath, chain?: Chain): { value: unknown } | undefined {
  let cur = data;
  for (const step of path.steps) {
    chain?.push(cur);
    if ('root' in step) {
      cur = data;
      continue;
    }
    const r = stepFind(cur, step);
    if (r === undefined) return undefined;
    cur = r.v;
  }
  return { value: cur };
}

/** Deckhand's `jsonpath_parse(data, path)`: the first match, or null (a null value reads as missing too). */
export function jsonpathParse(data: unknown, path: string): unknown {
  const r = findPath(data, parseJsonPath(normalizeJsonPath(path)));
  return r === undefined ? null : r.value;
}

/** Called with each container a write changes, and the path of the write inside the document's data. */
export type WriteHook = (container: object, chain: Chain, steps: readonly Step[]) => void;

/** jsonpath-ng's `update(data, val)`: returns the new root (a root path returns `val`). */
export function updatePath(data: unknown, path: JsonPath, val: unknown, onWrite?: WriteHook, valIsFloat = false): unknown {
  if (path.steps.length === 0) return val;
  const chain: Chain = [];
  const parent = findPath(data, { text: path.text, steps: path.steps.slice(0, -1) }, chain);
  if (parent === undefined) return data;
  const target = parent.value;
  const last = path.steps[path.steps.length - 1]!;
  // `Child.update` drops what `Root.update` returns: writing at a trailing `$` changes nothing.
  if ('root' in last) return data;
  if ('field' in last) {
    // `if type(data) is not bool and field in data: data[field] = val`
    if (target === null || target === undefined || typeof target === 'boolean') return data;
    if (isDict(target)) {
      if (hasKey(target, last.field)) {
        onWrite?.(target, [...chain, target], path.steps);
        setKey(target, last.field, val);
        markFloat(target, last.field, valIsFloat);
      }
    } else if (Array.isArray(target)) {
      if (target.some((x) => pyEq(x, last.field))) throw new PyException('list indices must be integers or slices, not str');
    } else if (typeof target === 'string') {
      if (target.includes(last.field)) throw new PyException("'str' object does not support item assignment");
    } else {
      throw new PyException(`argument of type '${pyTypeName(target)}' is not iterable`);
    }
    return data;
  }
  if (Array.isArray(target)) {
    if (target.length > last.index) {
      const at = last.index < 0 ? target.length + last.index : last.index;
      if (at < 0) throw new PyException('list assignment index out of range');
      let item = val;
      let itemIsFloat = valIsFloat;
      if (Array.isArray(val)) {
        // jsonpath-ng 1.8: "somelist[5,1,2] = [a, b, c]" takes the list's first item.
        if (val.length === 0) throw new PyException('pop from empty list');
        itemIsFloat = isFloatAt(val, 0);
        item = val.shift();
      }
      onWrite?.(target, [...chain, target], path.steps);
      target[at] = item;
      markFloat(target, at, itemIsFloat);
    }
    return data;
  }
  if (target === null || target === undefined || typeof target === 'number' || typeof target === 'boolean') {
    throw new PyException(`object of type '${pyTypeName(target)}' has no len()`);
  }
  if (typeof target === 'string') {
    if (target.length > last.index) throw new PyException("'str' object does not support item assignment");
    return data;
  }
  if (isDict(target) && Object.keys(target).length > last.index) throw new PyException('a dict cannot be written at an integer index');
  return data;
}

const ARRAY_RE = /^.*\[\d+\]/;

/** Deckhand's `_execute_data_expansion`: creates what is missing on the way to `jsonpath`, from its text. */
function expand(data: unknown, jsonpath: string, onWrite?: WriteHook): void {
  let d: unknown = data;
  const chain: Chain = [];
  const fail = (what: string): never => {
    throw new PyException(what);
  };
  for (const raw of jsonpath.split('.').slice(1)) {
    let piece = raw;
    chain.push(d);
    if (ARRAY_RE.test(piece)) {
      const parts = piece.split('[');
      const name = parts[0]!;
      const idxText = parts[1]!.slice(0, -1);
      if (/^\s*[+-]?\d+\s*$/.test(idxText)) {
        const idx = Number(idxText);
        if (!isDict(d)) fail(`'${pyTypeName(d)}' object has no attribute 'setdefault'`);
        const dict = d as Dict;
        if (!hasKey(dict, name)) {
          onWrite?.(dict, [...chain], []);
          setKey(dict, name, []);
        }
        const list = dict[name];
        if (Array.isArray(list)) {
          while (list.length < idx + 1) {
            onWrite?.(list, [...chain, list], []);
            list.push({});
          }
          // Python's negative indexes count from the end.
          const at = idx < 0 ? list.length + idx : idx;
          if (at < 0 || at >= list.length) fail('list index out of range');
          d = list[at];
          continue;
        }
        if (list === null || list === undefined || typeof list === 'number' || typeof list === 'boolean') fail(`object of type '${pyTypeName(list)}' has no len()`);
        if (typeof list === 'string' || isDict(list)) {
          if ((typeof list === 'string' ? list.length : Object.keys(list).length) < idx + 1) fail(`'${pyTypeName(list)}' object has no attribute 'append'`);
          if (typeof list === 'string') {
            d = list[idx < 0 ? list.length + idx : idx];
            continue;
          }
          fail(`KeyError: ${idx}`);
        }
      }
      // `int()` refused the index: falls through to `d = d.get(path)`.
    } else {
      if (isDict(d)) {
        if (!hasKey(d, piece)) {
          piece = stripQuotes(piece);
          if (!hasKey(d, piece)) {
            onWrite?.(d, [...chain], []);
            setKey(d, piece, {});
          }
        }
      } else if (Array.isArray(d)) {
        fail("'list' object has no attribute 'setdefault'");
      } else if (typeof d === 'string') {
        fail(d.includes(piece) ? "'str' object has no attribute 'get'" : "'str' object has no attribute 'setdefault'");
      } else {
        fail(`argument of type '${pyTypeName(d)}' is not iterable`);
      }
    }
    if (!isDict(d)) fail(`'${pyTypeName(d)}' object has no attribute 'get'`);
    d = getKey(d as Dict, piece) ?? null;
  }
}

function stripQuotes(s: string): string {
  let out = s;
  while (out.startsWith("'")) out = out.slice(1);
  while (out.endsWith("'")) out = out.slice(0, -1);
  while (out.startsWith('"')) out = out.slice(1);
  while (out.endsWith('"')) out = out.slice(0, -1);
  return out;
}

/** Options of {@link jsonpathReplace}: a substitution's pattern, recursion and source pattern. */
export interface ReplaceOptions {
  readonly pattern?: string | undefined;
  readonly recurse?: unknown;
  readonly srcPattern?: string | undefined;
  readonly srcMatchGroup?: unknown;
  /** `deepcopy: true` on the source: an independent copy instead of a shallow one. */
  readonly srcDeepcopy?: boolean | undefined;
  /** Told of every container written (to find writes that reach another document's data). */
  readonly onWrite?: WriteHook | undefined;
  /** Whether the value is a Python float (a whole number written `1.0`): `str()` and the output show it. */
  readonly valueIsFloat?: boolean | undefined;
  /** Makes `copy.deepcopy` (the caller's, to keep one memo policy). */
  readonly deepCopy: (v: unknown) => unknown;
}

/**
 * Deckhand's `jsonpath_replace(data, value, jsonpath, ...)`: returns the new data (a shallow copy
 * of `data` with the write, or the value itself for the root). Throws {@link PyException} where
 * Python raises, {@link JsonPathError} for a path it cannot parse.
 */
export function jsonpathReplace(data: unknown, value: unknown, jsonpath: string, options: ReplaceOptions): unknown {
  const dataCopy = shallowCopy(data);
  let valueCopy = options.srcDeepcopy === true ? options.deepCopy(value) : shallowCopy(value);
  if (truthy(options.srcPattern)) {
    if (typeof valueCopy !== 'string') throw new PyException('not all arguments converted during string formatting');
    options = { ...options, valueIsFloat: false };
    const group = options.srcMatchGroup === undefined ? 0 : options.srcMatchGroup;
    const found = pySearchGroup(options.srcPattern!, valueCopy, group);
    if (found !== undefined) valueCopy = found;
  }
  const path = normalizeJsonPath(jsonpath);
  if (path !== '$' && !path.startsWith('$.')) throw new PyException(`The provided jsonpath ${path} does not begin with "." or "$"`);
  const parsed = parseJsonPath(path);
  if (findPath(dataCopy, parsed) === undefined) expand(dataCopy, path, options.onWrite);
  return executeReplace(dataCopy, valueCopy, parsed, options);
}

function executeReplace(data: unknown, value: unknown, path: JsonPath, options: ReplaceOptions): unknown {
  const dataCopy = shallowCopy(data);
  const valueCopy = shallowCopy(value);
  const chain: Chain = [];
  const found = findPath(dataCopy, path, chain);
  if (found === undefined) throw new PyException('list index out of range');
  const toReplace = found.value;
  const pattern = options.pattern;
  if (!truthy(pattern)) return updatePath(dataCopy, path, valueCopy, options.onWrite, options.valueIsFloat === true && typeof valueCopy === 'number');
  const replaceIn = (s: unknown): string => {
    if (typeof s !== 'string') throw new PyException(`MissingDocumentPattern: the value at ${path.text} is ${pyTypeName(s)}, not a string the pattern can be found in`);
    return pySub(pattern!, pyStr(valueCopy, options.valueIsFloat === true), s);
  };
  if (truthy(options.recurse) && (Array.isArray(toReplace) || isDict(toReplace))) {
    const maxDepth = isDict(options.recurse) && hasKey(options.recurse, 'depth') ? options.recurse['depth'] : -1;
    const walk = (cur: unknown, depth: number, at: Chain) => {
      if (pyEq(depth, maxDepth)) return;
      if (isDict(cur)) {
        for (const k of Object.keys(cur)) {
          const v = cur[k];
          if (typeof v === 'string' && v.includes(pattern!)) {
            options.onWrite?.(cur, [...at, cur], path.steps);
            setKey(cur, k, replaceIn(v));
          } else walk(v, depth + 1, [...at, cur]);
        }
      } else if (Array.isArray(cur)) {
        for (let idx = 0; idx < cur.length; idx++) {
          const v = cur[idx];
          if (typeof v === 'string' && v.includes(pattern!)) {
            options.onWrite?.(cur, [...at, cur], path.steps);
            cur[idx] = replaceIn(v);
          } else walk(v, depth + 1, [...at, cur]);
        }
      }
    };
    walk(toReplace, 0, chain);
    return dataCopy;
  }
  return updatePath(dataCopy, path, replaceIn(toReplace), options.onWrite);
}

/** Whether the value at `jsonpath` of `data` is a Python float (see `markFloat`). */
export function floatAt(data: unknown, jsonpath: string): boolean {
  let parsed: JsonPath;
  try {
    parsed = parseJsonPath(normalizeJsonPath(jsonpath));
  } catch {
    return false;
  }
  const last = parsed.steps[parsed.steps.length - 1];
  if (last === undefined || 'root' in last) return false;
  const parent = findPath(data, { text: parsed.text, steps: parsed.steps.slice(0, -1) });
  if (parent === undefined) return false;
  const key = 'field' in last ? last.field : last.index < 0 && Array.isArray(parent.value) ? parent.value.length + last.index : last.index;
  return isFloatAt(parent.value, key);
}
