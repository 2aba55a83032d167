/**
 * Where something is in a loaded document: a path in wire terms, and a line and column. The
 * vocabulary of every part of the loader that reports positions (the block index read from the
 * text, the AST, the outline, the validators), kept apart so that none depends on another for it.
 */

/** A 1-based line and column. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** A path inside a document, in wire terms: `['data', 'wait', 'resources', 0, 'min_ready']`. */
export type WirePath = readonly (string | number)[];

/** A stable map key for a wire path (indices and keys of the same spelling cannot meet at one level). */
export function pathKey(path: WirePath): string {
  return path.join('\u0001');
}
