/**
 * Diagnostics in input order (files in the order given, then line and column, then the order the
 * rules found them), with positions looked up only where the order depends on them.
 *
 * A {@link DeferredDiagnostic} of a document knows, without locating anything, the file and the
 * line its document starts on, and its position lies between that line and the start of the
 * file's next document. Two such diagnostics of different documents are therefore ordered by
 * their documents alone; only within one document, or next to a diagnostic that has a plain
 * location, is a position looked up. A report that prints one line for thousands of like
 * warnings thus locates a few of them, and lists the documents of the rest, without a position
 * (or even an order key) for each.
 */
import { DeferredDiagnostic, Diagnostic, OriginSource, parseLocation } from './diagnostics';

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

/** The document of a deferred diagnostic, when it has one (placed or not). */
function sourceOf(d: Diagnostic): OriginSource | undefined {
  return deferring && d instanceof DeferredDiagnostic ? d.origin.source : undefined;
}

/**
 * The input order of one list of diagnostics, referred to by index. Each diagnostic's file rank
 * and first possible line are read once, from its document where it has one; a position is
 * looked up only where documents cannot decide.
 */
export class InputOrder {
  private readonly ranks = new Map<string, number>();
  /** File rank of each diagnostic. */
  private readonly rank: Int32Array;
  /** Its line, or (not `exact`) its document's start. */
  private readonly line: Int32Array;
  private readonly column: Int32Array;
  private readonly exact: Uint8Array;
  /** The document of each diagnostic that has one, placed or not. */
  private readonly sources: (OriginSource | undefined)[];

  /**
   * @param files - the input files in the order given, as diagnostics name them: their
   *   diagnostics come in this order, those of any other file after them, as it first appears
   */
  constructor(
    public readonly diagnostics: readonly Diagnostic[],
    files: readonly string[] = [],
  ) {
    for (const f of files) this.rankOf(f);
    const n = diagnostics.length;
    this.rank = new Int32Array(n);
    this.line = new Int32Array(n);
    this.column = new Int32Array(n);
    this.exact = new Uint8Array(n);
    this.sources = new Array(n);
    // Files are ranked in the order they first appear; one document's diagnostics share their
    // file's string, so the last one found is tried first.
    let lastFile: string | undefined;
    let lastRank = -1;
    for (let i = 0; i < n; i++) {
      const d = diagnostics[i];
      const s = sourceOf(d);
      this.sources[i] = s;
      if (s !== undefined && !(d as DeferredDiagnostic).placed) {
        if (s.file !== lastFile) {
          lastFile = s.file;
          lastRank = this.rankOf(s.file);
        }
        this.rank[i] = lastRank;
        this.line[i] = s.startLine;
      } else {
        const p = parseLocation(d.location);
        this.rank[i] = this.rankOf(p.file);
        this.line[i] = p.line;
        this.column[i] = p.column;
        this.exact[i] = 1;
      }
    }
  }

  /** Input order of the diagnostics at `a` and `b`. */
  public compare(a: number, b: number): number {
    if (this.rank[a] !== this.rank[b]) return this.rank[a] - this.rank[b];
    const ea = this.exact[a];
    const eb = this.exact[b];
    if (!ea || !eb) {
      // Documents of one file do not overlap: a diagnostic not yet located lies at or after its
      // document's start and before every later document's, so a different start decides.
      if (!ea && !eb) {
        if (this.line[a] !== this.line[b]) return this.line[a] - this.line[b];
      } else if (!ea) {
        if (this.line[b] < this.line[a]) return 1;
      } else if (this.line[a] < this.line[b]) {
        return -1;
      }
      this.locate(a);
      this.locate(b);
    }
    return this.line[a] - this.line[b] || this.column[a] - this.column[b] || a - b;
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
    const { rank: ranks, line: lines, exact } = this;
    // The first file, and the first line any of its diagnostics can be on.
    let rank = Infinity;
    let line = Infinity;
    // Index loops: a report runs these once over thousands of members, before V8 optimizes them,
    // and an unoptimized for...of makes an object per step.
    for (let m = 0; m < members.length; m++) {
      const i = members[m];
      if (ranks[i] < rank || (ranks[i] === rank && lines[i] < line)) {
        rank = ranks[i];
        line = lines[i];
      }
    }
    // Where the next document of that file starts: every diagnostic of a later document is after
    // every diagnostic of the one starting at `line`, and after every plain one before it.
    let next = Infinity;
    for (let m = 0; m < members.length; m++) {
      const i = members[m];
      if (!exact[i] && ranks[i] === rank && lines[i] > line && lines[i] < next) next = lines[i];
    }
    let best = -1;
    for (let m = 0; m < members.length; m++) {
      const i = members[m];
      if (ranks[i] !== rank || (exact[i] ? lines[i] >= next : lines[i] !== line)) continue;
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
    const sources = this.sources;
    if (members.every((i) => sources[i] !== undefined)) {
      // All of documents: a document's first diagnostic sorts with its document's start, and one
      // document has one label, so the starts order the labels.
      const ordered = [...this.firstOfEachDocument(members)].sort(([, a], [, b]) => this.documentOrder(a, b));
      // Two documents starting on one line (one piece of a stream) are ordered by position below.
      if (this.strictlyOrdered(ordered)) return ordered.map(([l]) => l);
    }
    return [...new Set(this.sorted(members).map((i) => sources[i]?.document ?? ds[i].document ?? ds[i].location))];
  }

  /**
   * {@link documents} without `except`, cut to its first `count`, and how many there are in all:
   * what a grouped report line names. Only the first few are put in order.
   */
  public firstDocuments(members: readonly number[], count: number, except?: string): { first: string[]; total: number } {
    if (members.every((i) => this.sources[i] !== undefined)) {
      const first = this.firstOfEachDocument(members, except);
      // The first count + 1 by insertion: the one after the last named shows whether a tie decides.
      const top: [string, number][] = [];
      first.forEach((i, label) => {
        if (top.length > count && this.documentOrder(i, top[count][1]) >= 0) return;
        let at = top.length;
        while (at > 0 && this.documentOrder(i, top[at - 1][1]) < 0) at--;
        top.splice(at, 0, [label, i]);
        if (top.length > count + 1) top.pop();
      });
      if (this.strictlyOrdered(top)) return { first: top.slice(0, count).map(([l]) => l), total: first.size };
    }
    const all = this.documents(members).filter((x) => x !== except);
    return { first: all.slice(0, count), total: all.length };
  }

  /** Each document's label (all of `members` have one), with its member whose document starts first. */
  private firstOfEachDocument(members: readonly number[], except?: string): Map<string, number> {
    const first = new Map<string, number>();
    for (let m = 0; m < members.length; m++) {
      const i = members[m];
      const label = this.sources[i]!.document;
      if (label === except) continue;
      const seen = first.get(label);
      if (seen === undefined || this.documentBefore(i, seen)) first.set(label, i);
    }
    return first;
  }

  /** Document start order of `a` and `b`, then the order found. */
  private documentOrder(a: number, b: number): number {
    return this.documentBefore(a, b) ? -1 : this.documentBefore(b, a) ? 1 : a - b;
  }

  /** Whether no two neighbours of `list` start on one line (a tie only a position can decide). */
  private strictlyOrdered(list: readonly [string, number][]): boolean {
    return list.every(([, i], j) => j === 0 || this.documentBefore(list[j - 1][1], i));
  }

  /** Whether the document of `a` starts before that of `b` (both of documents). */
  private documentBefore(a: number, b: number): boolean {
    const ra = this.rank[a];
    const rb = this.rank[b];
    return ra < rb || (ra === rb && this.sources[a]!.startLine < this.sources[b]!.startLine);
  }

  private rankOf(file: string): number {
    let r = this.ranks.get(file);
    if (r === undefined) this.ranks.set(file, (r = this.ranks.size));
    return r;
  }

  /** Looks the position of diagnostic `i` up (once). */
  private locate(i: number): void {
    if (this.exact[i]) return;
    const p = parseLocation(this.diagnostics[i].location);
    this.line[i] = p.line;
    this.column[i] = p.column;
    this.exact[i] = 1;
  }
}

/** `ds` in input order (see {@link InputOrder} for `files`). */
export function inInputOrder(ds: readonly Diagnostic[], files?: readonly string[]): Diagnostic[] {
  const order = new InputOrder(ds, files);
  return order.sorted().map((i) => ds[i]);
}
