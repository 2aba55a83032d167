import type { SpecialValue } from './document';
import { pathKey } from './wire-path';
import { ConstructFailure, FloatMarker, PyTimestamp } from './py-values';

/** A constructor failure found in a built document, with its root path. */
export interface FoundFailure {
  readonly path: (string | number)[];
  readonly failure: ConstructFailure;
}

/** More than this many notes in one document is an alias bomb, not a manifest: stop noting. */
const MAX_NOTES = 100_000;

/**
 * Replaces the loader's markers in a freshly built document by plain values (in place) and notes
 * where the values JSON cannot express were. Containers reached twice through aliases are walked
 * once; each path that reaches them gets the notes.
 */
export function collectSpecials(root: unknown): { value: unknown; specials: Map<string, SpecialValue>; failures: FoundFailure[] } {
  const specials = new Map<string, SpecialValue>();
  const failures: FoundFailure[] = [];
  type Note = { path: (string | number)[]; special?: SpecialValue | undefined; failure?: ConstructFailure | undefined };
  const memo = new Map<object, Note[]>();
  const onStack = new Set<object>();
  let budget = MAX_NOTES;

  const noteFor = (v: unknown): Note | undefined => {
    if (v instanceof FloatMarker) return { path: [], special: { kind: 'float', value: v.value } };
    if (v instanceof ConstructFailure) return { path: [], failure: v };
    if (v instanceof PyTimestamp) return { path: [], special: { kind: 'timestamp' } };
    if (v instanceof Uint8Array) return { path: [], special: { kind: 'bytes' } };
    if (typeof v === 'bigint') return { path: [], special: { kind: 'integer' } };
    return undefined;
  };
  const plain = (v: unknown): unknown => (v instanceof FloatMarker ? v.value : v instanceof ConstructFailure ? v.text : v);

  const visit = (c: object): Note[] => {
    const done = memo.get(c);
    if (done) return done;
    if (onStack.has(c) || budget <= 0) return [];
    onStack.add(c);
    const out: Note[] = [];
    const slot = (k: string | number, v: unknown, set: (x: unknown) => void) => {
      const note = noteFor(v);
      if (note) {
        set(plain(v));
        out.push({ ...note, path: [k] });
        budget--;
      } else if (v !== null && typeof v === 'object') {
        for (const n of visit(v)) {
          out.push({ ...n, path: [k, ...n.path] });
          if (--budget <= 0) break;
        }
      }
    };
    if (Array.isArray(c)) {
      for (let i = 0; i < c.length; i++) slot(i, c[i], (x) => (c[i] = x));
    } else {
      const rec = c as Record<string, unknown>;
      for (const k of Object.keys(rec)) slot(k, rec[k], (x) => (rec[k] = x));
    }
    onStack.delete(c);
    memo.set(c, out);
    return out;
  };

  let value = root;
  let notes: Note[] = [];
  const top = noteFor(root);
  if (top) {
    value = plain(root);
    notes = [top];
  } else if (root !== null && typeof root === 'object') notes = visit(root);

  for (const n of notes) {
    if (n.failure) failures.push({ path: n.path, failure: n.failure });
    else if (n.special) specials.set(pathKey(n.path), n.special);
  }
  return { value, specials, failures };
}
