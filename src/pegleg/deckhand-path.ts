/**
 * The JSONPath forms Deckhand documents use in substitutions and layering actions (`.a.b`,
 * `$.a.b[0]`, `a.b`, `.` for the root, names with `-`), as a list of keys and indexes. Deckhand
 * hands them to jsonpath-ng after putting `$` in front of a leading `.`; only the plain child and
 * index steps real sites use are read here, anything else is refused with the reason.
 */

/** A path inside a document's `data`: keys and list indexes. */
export type DataPath = readonly (string | number)[];

/** A parsed path, or why it cannot be read. */
export type ParsedPath = { readonly path: DataPath } | { readonly problem: string };

const STEP = /^(?:\.?([^.[\]'"]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\])/;

/** Parses a Deckhand JSONPath (`.values.endpoints[0].host`, `$`, `.`) relative to `data`. */
export function parseDataPath(jsonpath: string): ParsedPath {
  let rest = jsonpath.trim();
  if (rest === '.' || rest === '$' || rest === '$.' || rest === '') return { path: [] };
  if (rest.startsWith('$')) rest = rest.slice(1);
  const out: (string | number)[] = [];
  while (rest.length > 0) {
    const m = STEP.exec(rest);
    if (!m) return { problem: `cannot read the JSONPath ${JSON.stringify(jsonpath)} at ${JSON.stringify(rest)}: only .key, [n] and ['key'] steps are read` };
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(m[3] ?? m[4]!);
    rest = rest.slice(m[0].length);
  }
  return { path: out };
}

/** The value at `path` under `root`, or `undefined` when a step is missing. */
export function valueAt(root: unknown, path: DataPath): unknown {
  let v = root;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (!Array.isArray(v) || seg >= v.length) return undefined;
      v = v[seg];
    } else {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, seg)) return undefined;
      v = (v as Record<string, unknown>)[seg];
    }
  }
  return v;
}

/** `data.a.b[0]`, the form diagnostics name fields in. */
export function formatDataPath(path: DataPath, root = 'data'): string {
  let out = root;
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : `.${seg}`;
  return out;
}
