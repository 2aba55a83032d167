/**
 * Diagnostics in input order (files in the order they first appear, then line and column, then
 * the order the rules found them), with positions looked up only where the order depends on
 * them.
 *
 * A {@link DeferredDiagnostic} of a document knows, without locating anything, the file and the
 * line its document starts on, and its position lies between that line and the start of the
 * file's next document. Two such diagnostics of different documents are therefore ordered by
 * their documents alone; only within one document, or next to a diagnostic that has a plain
 * location, is a position looked up. A report that prints one line for thousands of like
 * warnings thus locates a few of them, and lists the documents of the rest, without a position
 * for each.
 */
import { DeferredDiagnostic, Diagnostic, OriginSource } from './diagnostics';

/** Where a diagnostic sorts; `exact` false: `line` is its document's start, a lower bound. */
export interface OrderKey {
  readonly d: Diagnostic;
  /** Index among the diagnostics given: the last tie-breaker. */
  readonly i: number;
  /** Order of the diagnostic's file among the files of all the diagnostics given. */
  readonly rank: number;
  line: number;
  column: number;
  exact: boolean;
  /** The document, for a diagnostic not yet located. */
  readonly source?: OriginSource;
}

let deferring = true;

/**
 * Turns deferred locating off (`false`: every diagnostic is located before it is ordered, the
 * slow path) or on, so that tests can compare the two on the same inputs. Returns the previous
 * setting.
 */
export function deferLocating(on: boolean): boolean {
  const was = deferring;
  deferring = on;
  return was;
}

/** The order keys of `ds`, none located unless its location is already known. */
export function orderKeys(ds: readonly Diagnostic[]): OrderKey[] {
  const ranks = new Map<string, number>();
  const rankOf = (file: string) => {
    let r = ranks.get(file);
    if (r === undefined) ranks.set(file, (r = ranks.size));
    return r;
  };
  return ds.map((d, i) => {
    const source = deferring && d instanceof DeferredDiagnostic && !d.placed ? d.origin.source : undefined;
    if (source !== undefined) return { d, i, rank: rankOf(source.file), line: source.startLine, column: 0, exact: false, source };
    const p = parseLocation(d.location);
    return { d, i, rank: rankOf(p.file), line: p.line, column: p.column, exact: true };
  });
}

/** `file:line:column` split, or the whole location as the file, at line 0 (construct paths, `STDIN`). */
export function parseLocation(location: string): { file: string; line: number; column: number } {
  const c2 = location.lastIndexOf(':');
  const c1 = c2 > 0 ? location.lastIndexOf(':', c2 - 1) : -1;
  if (c1 >= 0 && isDigits(location, c1 + 1, c2) && isDigits(location, c2 + 1, location.length)) {
    return { file: location.slice(0, c1), line: Number(location.slice(c1 + 1, c2)), column: Number(location.slice(c2 + 1)) };
  }
  return { file: location, line: 0, column: 0 };
}

function isDigits(s: string, from: number, to: number): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Looks the position of `k` up (once). */
function locate(k: OrderKey): void {
  if (k.exact) return;
  const p = parseLocation(k.d.location);
  k.line = p.line;
  k.column = p.column;
  k.exact = true;
}

/** Input order of two keys, locating them only when their documents cannot tell. */
export function compareKeys(a: OrderKey, b: OrderKey): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (!a.exact || !b.exact) {
    // Documents of one file do not overlap: a diagnostic not yet located lies at or after its
    // document's start and before every later document's, so a different start decides.
    if (!a.exact && !b.exact) {
      if (a.line !== b.line) return a.line - b.line;
    } else if (!a.exact) {
      if (b.line < a.line) return 1;
    } else if (a.line < b.line) {
      return -1;
    }
    locate(a);
    locate(b);
  }
  return a.line - b.line || a.column - b.column || a.i - b.i;
}

/** `ds` in input order. */
export function inInputOrder(ds: readonly Diagnostic[]): Diagnostic[] {
  return orderKeys(ds)
    .sort(compareKeys)
    .map((k) => k.d);
}

/**
 * The first of `keys` in input order (`keys` not empty), locating only the diagnostics of the
 * first document that has any (and plain ones before the next document).
 */
export function earliest(keys: readonly OrderKey[]): OrderKey {
  // The first file, and the first line any of its diagnostics can be on.
  let rank = Infinity;
  let line = Infinity;
  for (const k of keys) {
    if (k.rank < rank || (k.rank === rank && k.line < line)) ({ rank, line } = k);
  }
  // Where the next document of that file starts: every diagnostic of a later document is after
  // every diagnostic of the one starting at `line`, and after every plain one before it.
  let next = Infinity;
  for (const k of keys) if (!k.exact && k.rank === rank && k.line > line && k.line < next) next = k.line;
  let best: OrderKey | undefined;
  for (const k of keys) {
    if (k.rank !== rank || (k.exact ? k.line >= next : k.line !== line)) continue;
    if (best === undefined || compareKeys(k, best) < 0) best = k;
  }
  return best!;
}

/**
 * The documents of `keys` (a diagnostic with no document counts by its location), each once, in
 * the input order of their first diagnostic.
 */
export function documentsInOrder(keys: readonly OrderKey[]): string[] {
  const label = (k: OrderKey) => k.source?.document ?? k.d.document ?? k.d.location;
  if (keys.every((k) => k.source !== undefined)) {
    // All unlocated: a document's first diagnostic sorts with its document's start, and one
    // document has one label, so the starts order the labels.
    const first = new Map<string, OrderKey>();
    for (const k of keys) {
      const l = label(k);
      const seen = first.get(l);
      if (seen === undefined || k.rank < seen.rank || (k.rank === seen.rank && k.line < seen.line)) first.set(l, k);
    }
    const ordered = [...first.entries()].sort(([, a], [, b]) => a.rank - b.rank || a.line - b.line || a.i - b.i);
    // Two documents starting on one line (one piece of a stream) are ordered by position below.
    if (ordered.every(([, k], j) => j === 0 || k.rank !== ordered[j - 1][1].rank || k.line !== ordered[j - 1][1].line)) return ordered.map(([l]) => l);
  }
  return [...new Set([...keys].sort(compareKeys).map(label))];
}
