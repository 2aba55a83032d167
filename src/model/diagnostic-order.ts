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
 * (or even an order key) for each.
 */
import { DeferredDiagnostic, Diagnostic, OriginSource } from './diagnostics';

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

/** Where a diagnostic sorts; `exact` false: `line` is its document's start, a lower bound. */
interface OrderKey {
  /** Index among the diagnostics: the last tie-breaker. */
  readonly i: number;
  /** Order of the diagnostic's file among the files of all the diagnostics. */
  readonly rank: number;
  line: number;
  column: number;
  exact: boolean;
}

/** The document of a deferred diagnostic, when it has one (placed or not). */
function sourceOf(d: Diagnostic): OriginSource | undefined {
  return deferring && d instanceof DeferredDiagnostic ? d.origin.source : undefined;
}

/**
 * The input order of one list of diagnostics, referred to by index. Order keys are made only for
 * the diagnostics compared, and a position is looked up only where documents cannot decide.
 */
export class InputOrder {
  private readonly ranks = new Map<string, number>();
  private readonly keys = new Map<number, OrderKey>();

  constructor(public readonly diagnostics: readonly Diagnostic[]) {
    // Files are ranked in the order they first appear.
    for (let i = 0; i < diagnostics.length; i++) {
      const s = sourceOf(diagnostics[i]);
      if (s !== undefined) this.rankOf(s.file);
      else this.key(i);
    }
  }

  /** Input order of the diagnostics at `a` and `b`. */
  public compare(a: number, b: number): number {
    const ka = this.key(a);
    const kb = this.key(b);
    if (ka.rank !== kb.rank) return ka.rank - kb.rank;
    if (!ka.exact || !kb.exact) {
      // Documents of one file do not overlap: a diagnostic not yet located lies at or after its
      // document's start and before every later document's, so a different start decides.
      if (!ka.exact && !kb.exact) {
        if (ka.line !== kb.line) return ka.line - kb.line;
      } else if (!ka.exact) {
        if (kb.line < ka.line) return 1;
      } else if (ka.line < kb.line) {
        return -1;
      }
      this.locate(ka);
      this.locate(kb);
    }
    return ka.line - kb.line || ka.column - kb.column || ka.i - kb.i;
  }

  /** The indexes `of` (every diagnostic by default) in input order. */
  public sorted(of?: readonly number[]): number[] {
    const all = of ? [...of] : this.diagnostics.map((_, i) => i);
    return all.sort((a, b) => this.compare(a, b));
  }

  /**
   * The first of `members` in input order (not empty), locating only the diagnostics of the
   * first document that has any (and plain ones before the next document).
   */
  public earliest(members: readonly number[]): number {
    // The first file, and the first line any of its diagnostics can be on.
    let rank = Infinity;
    let line = Infinity;
    for (const i of members) {
      const r = this.rankAt(i);
      const l = this.lineAt(i);
      if (r < rank || (r === rank && l < line)) {
        rank = r;
        line = l;
      }
    }
    // Where the next document of that file starts: every diagnostic of a later document is after
    // every diagnostic of the one starting at `line`, and after every plain one before it.
    let next = Infinity;
    for (const i of members) {
      if (!this.exactAt(i) && this.rankAt(i) === rank) {
        const l = this.lineAt(i);
        if (l > line && l < next) next = l;
      }
    }
    let best = -1;
    for (const i of members) {
      if (this.rankAt(i) !== rank || (this.exactAt(i) ? this.lineAt(i) >= next : this.lineAt(i) !== line)) continue;
      if (best < 0 || this.compare(i, best) < 0) best = i;
    }
    return best;
  }

  /**
   * The documents of `members` (a diagnostic with no document counts by its location), each
   * once, in the input order of their first diagnostic.
   */
  public documents(members: readonly number[]): string[] {
    const ds = this.diagnostics;
    const label = (i: number) => sourceOf(ds[i])?.document ?? ds[i].document ?? ds[i].location;
    if (members.every((i) => sourceOf(ds[i]) !== undefined)) {
      // All of documents: a document's first diagnostic sorts with its document's start, and one
      // document has one label, so the starts order the labels.
      const first = new Map<string, number>();
      for (const i of members) {
        const s = sourceOf(ds[i])!;
        const seen = first.get(s.document);
        if (seen === undefined || this.documentBefore(i, seen)) first.set(s.document, i);
      }
      const ordered = [...first.entries()].sort(([, a], [, b]) => (this.documentBefore(a, b) ? -1 : this.documentBefore(b, a) ? 1 : a - b));
      // Two documents starting on one line (one piece of a stream) are ordered by position below.
      if (ordered.every(([, i], j) => j === 0 || this.documentBefore(ordered[j - 1][1], i))) return ordered.map(([l]) => l);
    }
    return [...new Set(this.sorted(members).map(label))];
  }

  /** Whether the document of `a` starts before that of `b` (both of documents). */
  private documentBefore(a: number, b: number): boolean {
    const sa = sourceOf(this.diagnostics[a])!;
    const sb = sourceOf(this.diagnostics[b])!;
    const ra = this.rankOf(sa.file);
    const rb = this.rankOf(sb.file);
    return ra < rb || (ra === rb && sa.startLine < sb.startLine);
  }

  private rankOf(file: string): number {
    let r = this.ranks.get(file);
    if (r === undefined) this.ranks.set(file, (r = this.ranks.size));
    return r;
  }

  // Bounds read without making a key: a deferred diagnostic not yet keyed answers from its document.
  private rankAt(i: number): number {
    const k = this.keys.get(i);
    if (k !== undefined) return k.rank;
    const s = sourceOf(this.diagnostics[i]);
    return s !== undefined ? this.rankOf(s.file) : this.key(i).rank;
  }
  private lineAt(i: number): number {
    const k = this.keys.get(i);
    if (k !== undefined) return k.line;
    const s = sourceOf(this.diagnostics[i]);
    return s !== undefined ? s.startLine : this.key(i).line;
  }
  private exactAt(i: number): boolean {
    const k = this.keys.get(i);
    if (k !== undefined) return k.exact;
    return sourceOf(this.diagnostics[i]) === undefined;
  }

  private key(i: number): OrderKey {
    let k = this.keys.get(i);
    if (k !== undefined) return k;
    const d = this.diagnostics[i];
    const s = sourceOf(d);
    if (s !== undefined && !(d as DeferredDiagnostic).placed) {
      k = { i, rank: this.rankOf(s.file), line: s.startLine, column: 0, exact: false };
    } else {
      const p = parseLocation(d.location);
      k = { i, rank: this.rankOf(p.file), line: p.line, column: p.column, exact: true };
    }
    this.keys.set(i, k);
    return k;
  }

  /** Looks the position of `k` up (once). */
  private locate(k: OrderKey): void {
    if (k.exact) return;
    const p = parseLocation(this.diagnostics[k.i].location);
    k.line = p.line;
    k.column = p.column;
    k.exact = true;
  }
}

/** `ds` in input order. */
export function inInputOrder(ds: readonly Diagnostic[]): Diagnostic[] {
  const order = new InputOrder(ds);
  return order.sorted().map((i) => ds[i]);
}
