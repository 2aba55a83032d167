/**
 * Whether Deckhand documents are rendered, judged by what rendering would still change rather than
 * by their metadata: Deckhand's output keeps `layeringDefinition.parentSelector`, `actions` and
 * `substitutions` on the documents it has layered and substituted, so those keys prove nothing.
 * A document is unrendered when it is abstract (never output), when it is a layering child whose
 * data is not its parent's data after its actions, when a substitution's destination does not hold
 * the source's value, or when a replaced parent is still beside its replacement. Pure: it reads
 * the documents' values only.
 */
import { DataPath, formatDataPath, parseDataPath, valueAt } from './deckhand-path';
import { pyEqual } from './py-equal';

/** One thing rendering would still change, with the field (from the document root) that shows it. */
export interface RenderingLeft {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

type Doc = Record<string, unknown>;

const isMap = (v: unknown): v is Doc => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);
const meta = (d: Doc): Doc => (isMap(d.metadata) ? d.metadata : {});
const layering = (d: Doc): Doc => (isMap(meta(d).layeringDefinition) ? (meta(d).layeringDefinition as Doc) : {});
const labelsOf = (d: Doc): Doc => (isMap(meta(d).labels) ? (meta(d).labels as Doc) : {});

/**
 * For each document of `raws` (a whole stream, in order) that rendering would still change, why;
 * documents that are not mappings are skipped. Only what the stream itself shows is judged: a
 * child whose parent is not in the stream (Deckhand drops abstract parents from its output) or a
 * substitution whose source is not in it cannot be checked, and is taken as rendered.
 */
export function renderingLeft(raws: readonly unknown[]): Map<number, RenderingLeft[]> {
  const docs = raws.map((r) => (isMap(r) ? r : undefined));
  const out = new Map<number, RenderingLeft[]>();
  const add = (i: number, r: RenderingLeft) => {
    const list = out.get(i);
    if (list) list.push(r);
    else out.set(i, [r]);
  };
  const layerOrder = firstLayerOrder(docs);
  const byKey = new Map<string, number[]>();
  docs.forEach((d, i) => {
    if (!d || typeof d.schema !== 'string' || typeof meta(d).name !== 'string') return;
    const key = `${d.schema}\u0000${meta(d).name as string}`;
    const list = byKey.get(key);
    if (list) list.push(i);
    else byKey.set(key, [i]);
  });

  docs.forEach((d, i) => {
    if (!d) return;
    const ld = layering(d);
    if (ld.abstract === true) {
      add(i, { path: ['metadata', 'layeringDefinition', 'abstract'], message: 'it is abstract (metadata.layeringDefinition.abstract: true): Deckhand never hands it to Armada, only its children' });
    }
    const subs = Array.isArray(meta(d).substitutions) ? (meta(d).substitutions as unknown[]) : [];
    const destPaths = substitutionDestinations(subs);
    const parent = layerOrder ? findParent(docs, i, layerOrder) : undefined;
    if (parent !== undefined && meta(d).replacement !== true) {
      const why = childDifference(docs[parent]!, d, destPaths);
      if (why) add(i, { path: ['data', ...why.path], message: `it is a layering child of ${label(docs[parent]!)} and its data is not its parent's data after its actions (${why.message}): the layering is still to be done` });
    }
    if (meta(d).replacement === true && typeof d.schema === 'string' && typeof meta(d).name === 'string') {
      const same = byKey.get(`${d.schema}\u0000${meta(d).name as string}`) ?? [];
      if (same.some((j) => j !== i && meta(docs[j]!).replacement !== true)) {
        add(i, { path: ['metadata', 'replacement'], message: 'it replaces its parent (metadata.replacement: true), and the parent is in the stream too: Deckhand outputs the replacement only' });
      }
    }
    subs.forEach((sub, k) => {
      const why = substitutionLeft(d, sub, destPaths, byKey, docs);
      if (why) add(i, { path: ['metadata', 'substitutions', k], message: why });
    });
  });
  return out;
}

function label(d: Doc): string {
  return `${String(d.schema)} ${String(meta(d).name)}`;
}

function firstLayerOrder(docs: readonly (Doc | undefined)[]): string[] | undefined {
  for (const d of docs) {
    if (d && typeof d.schema === 'string' && d.schema.startsWith('deckhand/LayeringPolicy/')) {
      const order = isMap(d.data) ? d.data.layerOrder : undefined;
      return Array.isArray(order) ? order.filter((l): l is string => typeof l === 'string') : undefined;
    }
  }
  return undefined;
}

/**
 * Deckhand's parent of document `i`: a document of the same schema whose labels include every
 * entry of the child's `parentSelector`, in a higher layer, the nearest such layer. Undefined when
 * there is none, or more than one in that layer (Deckhand refuses that; not judged here).
 */
function findParent(docs: readonly (Doc | undefined)[], i: number, layerOrder: readonly string[]): number | undefined {
  const child = docs[i]!;
  const selector = layering(child).parentSelector;
  if (!isMap(selector) || Object.keys(selector).length === 0) return undefined;
  const childLayer = layerOrder.indexOf(String(layering(child).layer));
  if (childLayer < 0) return undefined;
  let best: number | undefined;
  let bestLayer = -1;
  let ties = 0;
  docs.forEach((d, j) => {
    if (!d || j === i || d.schema !== child.schema) return;
    const labels = labelsOf(d);
    if (!Object.entries(selector).every(([k, v]) => Object.hasOwn(labels, k) && pyEqual(labels[k], v))) return;
    const layer = layerOrder.indexOf(String(layering(d).layer));
    if (layer < 0 || layer >= childLayer) return;
    if (layer > bestLayer) {
      best = j;
      bestLayer = layer;
      ties = 0;
    } else if (layer === bestLayer) ties++;
  });
  return ties > 0 ? undefined : best;
}

/** Every destination path of a document's substitutions (parsed; unreadable ones left out). */
function substitutionDestinations(subs: readonly unknown[]): DataPath[] {
  const out: DataPath[] = [];
  for (const sub of subs) {
    if (!isMap(sub)) continue;
    for (const dest of Array.isArray(sub.dest) ? sub.dest : [sub.dest]) {
      if (!isMap(dest) || typeof dest.path !== 'string') continue;
      const p = parseDataPath(dest.path);
      if ('path' in p) out.push(p.path);
    }
  }
  return out;
}

/** Outcomes of a child's actions kept at most: past this, the child is taken as rendered. */
const MAX_OUTCOMES = 64;

/**
 * Where the child's data differs from its parent's after the child's actions, with the child's
 * own substitution destinations taken as they are (substitution comes after layering). Undefined
 * when they agree, or when the actions cannot be applied (Deckhand would refuse the site; the
 * document is then not judged here).
 *
 * A `delete` removes the first node, in Deckhand's walk of the data, whose value equals the value
 * at the path; that walk follows the key order of the files Deckhand read, which a rendered
 * stream does not keep (Pegleg writes keys sorted). So each node of equal value is a possible
 * outcome, and the child is rendered when one of them gives its data.
 */
function childDifference(parent: Doc, child: Doc, destPaths: readonly DataPath[]): { path: DataPath; message: string } | undefined {
  const actions = layering(child).actions;
  const childData = child.data ?? {};
  let outcomes: unknown[] = [structuredClone(parent.data ?? {})];
  for (const action of Array.isArray(actions) ? actions : []) {
    if (!isMap(action) || typeof action.path !== 'string') return undefined;
    const next: unknown[] = [];
    for (const data of outcomes) {
      const results = applyAction(String(action.method), action.path, data, childData);
      if (results === undefined) return undefined;
      next.push(...results);
    }
    if (next.length > MAX_OUTCOMES) return undefined;
    outcomes = next;
  }
  let first: DataPath | undefined;
  for (let data of outcomes) {
    for (const p of destPaths) {
      const actual = valueAt(childData, p);
      if (actual !== undefined) data = setAt(data, p, structuredClone(actual));
    }
    const at = firstDifference(data, childData, []);
    if (at === undefined) return undefined;
    first ??= at;
  }
  return first && { path: first, message: `${formatDataPath(first)} differs` };
}

/** One layering action as Deckhand applies it to a copy of the parent's data: its possible results; undefined when it cannot be applied. */
function applyAction(method: string, rawPath: string, overall: unknown, childData: unknown): unknown[] | undefined {
  let p = rawPath;
  if (p.startsWith('.data')) p = p.slice(5);
  else if (p.startsWith('$.data')) p = p.slice(6);
  if (!(p.startsWith('.') || p.startsWith('$.'))) p = `.${p}`;
  const parsed = parseDataPath(p);
  if (!('path' in parsed)) return undefined;
  const path = parsed.path;
  if (method === 'delete') {
    if (path.length === 0) return [{}];
    const target = valueAt(overall, path);
    if (target === undefined || target === null) return undefined;
    const candidates = equalNodes(target, overall);
    if (candidates.length === 0) return [overall];
    return candidates.map((at) => deleteAt(structuredClone(overall), at, target));
  }
  const fromChild = path.length === 0 ? childData : valueAt(childData, path);
  if (fromChild === undefined || fromChild === null) return undefined;
  if (method === 'replace') return [setAt(overall, path, structuredClone(fromChild))];
  if (method !== 'merge') return undefined;
  const fromOverall = path.length === 0 ? overall : valueAt(overall, path);
  if (isMap(fromOverall) && isMap(fromChild)) {
    deepMerge(fromOverall, structuredClone(fromChild));
    return [path.length === 0 ? fromOverall : setAt(overall, path, fromOverall)];
  }
  return [setAt(overall, path, structuredClone(fromChild))];
}

/** Deckhand's deep merge: mappings merged key by key, anything else (lists too) replaced by the child's. */
function deepMerge(into: Doc, from: Doc): void {
  for (const k of Object.keys(from)) {
    if (Object.hasOwn(into, k) && isMap(into[k]) && isMap(from[k])) deepMerge(into[k] as Doc, from[k] as Doc);
    else into[k] = from[k];
  }
}

/**
 * The nodes Deckhand's `deep_delete` may remove: every node below the root whose value equals
 * `target`, in any key order (not below one: it is removed whole). Deckhand removes the first of
 * them its walk meets.
 */
function equalNodes(target: unknown, value: unknown, path: (string | number)[] = [], out: DataPath[] = []): DataPath[] {
  if (path.length > 0 && pyEqual(value, target)) {
    out.push([...path]);
    return out;
  }
  if (Array.isArray(value)) value.forEach((v, i) => equalNodes(target, v, [...path, i], out));
  else if (isMap(value)) for (const k of Object.keys(value)) equalNodes(target, value[k], [...path, k], out);
  return out;
}

/** Removes the node at `at` as `deep_delete` does: from a list, the list's first item of equal value. */
function deleteAt(root: unknown, at: DataPath, target: unknown): unknown {
  const holder = valueAt(root, at.slice(0, -1));
  const last = at[at.length - 1]!;
  if (Array.isArray(holder)) holder.splice(holder.findIndex((v) => pyEqual(v, target)), 1);
  else if (isMap(holder)) delete holder[last as string];
  return root;
}

/** Sets `path` under `root` to `value`, creating missing mappings (and padding lists with `{}`) on the way. */
function setAt(root: unknown, path: DataPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const top: unknown = root === null || typeof root !== 'object' ? (typeof path[0] === 'number' ? [] : {}) : root;
  let node = top as Record<string | number, unknown>;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    const last = i === path.length - 1;
    if (Array.isArray(node) && typeof seg === 'number') while (node.length <= seg) node.push({});
    if (last) {
      node[seg] = value;
      break;
    }
    let next = node[seg];
    if (next === null || typeof next !== 'object') {
      next = typeof path[i + 1] === 'number' ? [] : {};
      node[seg] = next;
    }
    node = next as Record<string | number, unknown>;
  }
  return top;
}

/** The first path where `a` and `b` differ (Python equality), or undefined. */
function firstDifference(a: unknown, b: unknown, path: (string | number)[]): DataPath | undefined {
  if (pyEqual(a, b)) return undefined;
  if (isMap(a) && isMap(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], [...path, k]);
      if (d) return d;
    }
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], [...path, i]);
      if (d) return d;
    }
  }
  return path;
}

/**
 * Why one substitution is still to be done, or undefined: its destination does not hold the
 * source's value (later substitutions into paths under the destination taken as they are), or,
 * with a destination pattern, the destination string still matches the pattern. A source not in
 * the stream (or not unique), a path that cannot be read, or a pattern JavaScript cannot compile
 * is not judged.
 */
function substitutionLeft(d: Doc, sub: unknown, destPaths: readonly DataPath[], byKey: ReadonlyMap<string, number[]>, docs: readonly (Doc | undefined)[]): string | undefined {
  if (!isMap(sub) || !isMap(sub.src)) return undefined;
  const src = sub.src;
  const found = byKey.get(`${String(src.schema)}\u0000${String(src.name)}`);
  if (!found || found.length !== 1 || typeof src.path !== 'string') return undefined;
  const srcPath = parseDataPath(src.path);
  if (!('path' in srcPath)) return undefined;
  let value = valueAt(docs[found[0]]!.data, srcPath.path);
  if (value === undefined) return undefined;
  if (typeof src.pattern === 'string') {
    const re = compile(src.pattern);
    const m = re && typeof value === 'string' ? re.exec(value) : null;
    if (!m) return undefined;
    value = m[typeof src.match_group === 'number' ? src.match_group : 0];
  }
  for (const dest of Array.isArray(sub.dest) ? sub.dest : [sub.dest]) {
    if (!isMap(dest) || typeof dest.path !== 'string') continue;
    const p = parseDataPath(dest.path);
    if (!('path' in p)) continue;
    const actual = valueAt(d.data, p.path);
    const where = `${formatDataPath(p.path)} from ${String(src.schema)} ${String(src.name)} ${formatDataPath(srcPath.path)}`;
    if (typeof dest.pattern === 'string') {
      const re = compile(dest.pattern);
      if (!re) continue;
      if (stillMatches(actual, re, dest.recurse !== undefined) && !re.test(pyStr(value))) return `the substitution into ${where} is still to be done: the destination still matches its pattern ${JSON.stringify(dest.pattern)}`;
      continue;
    }
    let expected: unknown = structuredClone(value);
    for (const q of destPaths) {
      if (q.length <= p.path.length || !p.path.every((s, i) => s === q[i])) continue;
      const under = valueAt(actual, q.slice(p.path.length));
      if (under !== undefined) expected = setAt(expected, q.slice(p.path.length), structuredClone(under));
    }
    if (!pyEqual(expected, actual)) return `the substitution into ${where} is still to be done: the destination does not hold the source's value`;
  }
  return undefined;
}

function stillMatches(v: unknown, re: RegExp, recurse: boolean): boolean {
  if (typeof v === 'string') return re.test(v);
  if (!recurse) return false;
  if (Array.isArray(v)) return v.some((x) => stillMatches(x, re, true));
  if (isMap(v)) return Object.values(v).some((x) => stillMatches(x, re, true));
  return false;
}

/** A Python regular expression as JavaScript reads it, or undefined when it cannot (not judged). */
function compile(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern);
  } catch {
    return undefined;
  }
}

/** Python's `str()` of a value, for the few scalars a pattern meets. */
function pyStr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  return typeof v === 'string' ? v : String(v);
}
