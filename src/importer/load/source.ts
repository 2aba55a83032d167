/**
 * A stream's text cut into one piece per document, by the document markers alone.
 *
 * Each piece is parsed on its own, so a syntax error costs only its own document (PyYAML would
 * give up on the whole stream; we report the error and keep the rest), and the position AST of
 * one document can be built without re-parsing a 50 MB file. Cutting at the markers is exact:
 * `---` or `...` at column 0 followed by a blank always ends what came before it (YAML forbids
 * them inside scalars, and PyYAML's scanner stops there too).
 */

/** A file (or stdin) as text, named the way diagnostics should name it. */
export interface SourceText {
  /** The name used in diagnostics: the path as given, or `<stdin>`. */
  readonly file: string;
  readonly text: string;
}

/** One document's slice of a stream. */
export interface Chunk {
  readonly start: number;
  readonly end: number;
  /** 1-based line of `start`. */
  readonly line: number;
  /** The chunk begins with a `---` marker (possibly after `%` directives). */
  readonly explicitStart: boolean;
  /** 1-based line of the `---` marker, or of the first content line of an implicit document. */
  readonly docLine: number;
  /**
   * The chunk follows a `...` and does not open with `---`, which PyYAML refuses ("expected
   * '<document start>'"): the offset of its first content, if it has any.
   */
  readonly missingStartAt?: number | undefined;
}

const MARKER_RE = /^(?:---|\.\.\.)(?=[ \t\r\n]|$)/gm;

/**
 * Cuts `text` into document chunks; comment-only stretches become chunks with no document. With
 * `limit`, at most `limit + 1` chunks are made (the last only says that there are more), and the
 * markers after it are not even looked for: a stream of millions of them costs no more than that.
 * @default limit - every chunk
 */
export function splitDocuments(text: string, limit = Infinity): Chunk[] {
  // The cuts, found one at a time: where each marker ends what came before it.
  let last = 0;
  MARKER_RE.lastIndex = 0;
  const nextCut = (): number | undefined => {
    for (let m = MARKER_RE.exec(text); m !== null; m = MARKER_RE.exec(text)) {
      if (m[0] === '---') {
        if (m.index > last) return (last = m.index);
        continue;
      }
      const nl = text.indexOf('\n', m.index);
      const next = nl < 0 ? text.length : nl + 1;
      MARKER_RE.lastIndex = next;
      return (last = next);
    }
    return undefined;
  };
  const chunks: Chunk[] = [];
  const lines = new LineTracker(text);
  let pendingStart: number | undefined; // directives waiting for their `---`
  for (let at: number | undefined = 0, following = nextCut(), i = 0; at !== undefined && chunks.length <= limit; at = following, following = at === undefined ? undefined : nextCut(), i++) {
    const start = pendingStart ?? at;
    const end = following ?? text.length;
    if (end <= at && pendingStart === undefined) continue;
    const opensWithMarker = text.startsWith('---', at) && isMarkerEnd(text, at + 3);
    const first = firstContent(text, at, end);
    if (!opensWithMarker && first === undefined && pendingStart === undefined) continue;
    if (!opensWithMarker && first !== undefined && text.charCodeAt(first) === 37 /* % */ && onlyDirectives(text, first, end)) {
      pendingStart = start;
      continue;
    }
    pendingStart = undefined;
    const line = lines.lineOf(start);
    const docLine = opensWithMarker ? lines.lineOf(at) : first !== undefined ? lines.lineOf(first) : line;
    const chunk: Chunk = { start, end, line, explicitStart: opensWithMarker, docLine };
    if (!opensWithMarker && first !== undefined && i > 0) (chunk as { missingStartAt?: number | undefined }).missingStartAt = first;
    chunks.push(chunk);
  }
  if (pendingStart !== undefined && chunks.length <= limit) {
    // Directives with no document after them: let the parser report it.
    chunks.push({ start: pendingStart, end: text.length, line: lines.lineOf(pendingStart), explicitStart: false, docLine: lines.lineOf(pendingStart) });
  }
  return chunks;
}

function isMarkerEnd(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const c = text.charCodeAt(at);
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Offset of the first character of the first line in [from, to) that is neither blank nor a comment. */
function firstContent(text: string, from: number, to: number): number | undefined {
  let pos = from;
  while (pos < to) {
    let c = text.charCodeAt(pos);
    while (pos < to && (c === 32 || c === 9 || c === 13)) c = text.charCodeAt(++pos);
    if (pos >= to) return undefined;
    if (c !== 10 && c !== 35 /* # */ && !isEndMarker(text, pos)) return pos;
    const nl = text.indexOf('\n', pos);
    if (nl < 0 || nl >= to) return undefined;
    pos = nl + 1;
  }
  return undefined;
}

function isEndMarker(text: string, pos: number): boolean {
  return (pos === 0 || text.charCodeAt(pos - 1) === 10) && text.startsWith('...', pos) && isMarkerEnd(text, pos + 3);
}

function onlyDirectives(text: string, from: number, to: number): boolean {
  for (let pos: number | undefined = from; pos !== undefined; ) {
    if (text.charCodeAt(pos) !== 37) return false;
    const nl = text.indexOf('\n', pos);
    if (nl < 0 || nl + 1 >= to) return true;
    pos = firstContent(text, nl + 1, to);
  }
  return true;
}

/** Line numbers of increasing offsets, counting each newline once. */
export class LineTracker {
  private offset = 0;
  private line = 1;
  constructor(private readonly text: string) {}
  /** 1-based line of `offset`; offsets must not decrease between calls. */
  public lineOf(offset: number): number {
    if (offset < this.offset) {
      this.offset = 0;
      this.line = 1;
    }
    let nl = this.text.indexOf('\n', this.offset);
    while (nl >= 0 && nl < offset) {
      this.line++;
      nl = this.text.indexOf('\n', nl + 1);
    }
    this.offset = offset;
    return this.line;
  }
}

/** 1-based line and column of `offset` in `text`, counted from the start (for rare error paths). */
export function positionOf(text: string, offset: number, from = 0, fromLine = 1): { line: number; column: number } {
  let line = fromLine;
  let lineStart = from;
  for (let nl = text.indexOf('\n', from); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
