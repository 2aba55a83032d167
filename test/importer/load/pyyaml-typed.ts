/**
 * PyYAML's `safe_load_all` of many texts in one python3 process, in a JSON form that keeps every
 * Python type apart (int, float, bool, None, str, bytes, date, datetime, set, tuple) and names
 * mapping keys the way this loader names them, so that the two can be compared with `toEqual`.
 */
import { spawnSync } from 'child_process';

// Keys are named as the loader names them (str(1) = '1', True = 'true', None = 'null', a float by
// its repr, a date by its str); keys of other types, and Python keys that would get one name,
// are tagged so that a comparison with the loader's value fails on them.
const PY_TYPED_DUMP = `
import sys, json, yaml, datetime
def canon(v):
    if v is None or isinstance(v, (bool, str)): return v
    if isinstance(v, int): return v if abs(v) < 2**53 else {"$bigint": str(v)}
    if isinstance(v, float): return {"$float": repr(v)}
    if isinstance(v, datetime.datetime): return {"$datetime": repr(v)}
    if isinstance(v, datetime.date): return {"$date": repr(v)}
    if isinstance(v, bytes): return {"$bytes": repr(v)}
    if isinstance(v, (set, frozenset)): return {"$set": sorted(key(x) for x in v)}
    if isinstance(v, tuple): return {"$tuple": [canon(x) for x in v]}
    if isinstance(v, list): return [canon(x) for x in v]
    if isinstance(v, dict):
        names = [key(k) for k in v]
        if len(set(names)) < len(names): return {"$collision": names}
        return {key(k): canon(x) for k, x in v.items()}
    return {"$other": repr(v)}
def key(k):
    if k is True: return "true"
    if k is False: return "false"
    if k is None: return "null"
    if isinstance(k, float): return repr(k)
    if isinstance(k, (str, int, datetime.date)): return str(k)
    return "$" + type(k).__name__ + ":" + repr(k)
out = []
for text in json.load(sys.stdin):
    try:
        docs = list(yaml.safe_load_all(text))
    except Exception as e:
        out.append({"error": type(e).__name__ + ": " + (str(e).splitlines() or [""])[0]})
        continue
    try:
        out.append({"docs": [canon(d) for d in docs]})
    except RecursionError:
        out.append({"docs": [{"$recursive": True}]})
json.dump(out, sys.stdout)
`;

/** What PyYAML made of one text: its documents in typed form, or the exception it raised. */
export type PyResult = { docs: unknown[] } | { error: string };

// Pegleg's reading (pegleg/engine/site.py, get_rendered_docs): SafeLoader with a catch-all
// constructor, so that every tag it has no constructor for builds None.
const UNKNOWN_TAGS_AS_NONE = `
import yaml
yaml.SafeLoader.add_multi_constructor('', lambda loader, suffix, node: None)
`;

/**
 * PyYAML's `safe_load_all` of each text, in the typed form above; with `unknownTagsAsNull`, after
 * Pegleg's catch-all constructor is added (unknown tags, `=` and `<<` values are None).
 */
export function pyyamlTypedLoadAll(texts: readonly string[], options: { unknownTagsAsNull?: boolean } = {}): PyResult[] {
  const script = options.unknownTagsAsNull ? UNKNOWN_TAGS_AS_NONE + PY_TYPED_DUMP : PY_TYPED_DUMP;
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as PyResult[];
}

/** Whether PyYAML's value holds a type this loader refuses on purpose (it has no faithful stand-in). */
export function holdsUnrepresentable(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(holdsUnrepresentable);
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  if ('$set' in o || '$tuple' in o) return true;
  return Object.keys(o).some((k) => k.startsWith('$bytes:')) || Object.values(o).some(holdsUnrepresentable);
}

/** Whether PyYAML's value has a mapping with two keys this loader would give one name (`1` and `'1'`). */
export function holdsKeyCollision(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(holdsKeyCollision);
  if (v === null || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return '$collision' in o || Object.values(o).some(holdsKeyCollision);
}
