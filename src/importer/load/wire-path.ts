/**
 * Where something is in a loaded document: a path in wire terms, and a line and column. The
 * vocabulary of every part of the loader that reports positions (the block index read from the
 * text, the AST, the validators), kept apart so that none depends on another for it.
 */
import type { PyKey } from './pyyaml-schema';

/** A 1-based line and column. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  /**
   * The whole location, when the value is not written in the document's own text: the
   * `file:line:column` in the `--values` file that put it there (`line` and `column` are then in
   * that file), or the `--set[N]` argument that set it (`line` and `column` are 0).
   * @default - in the document's own file, at `line` and `column`
   */
  readonly elsewhere?: string | undefined;
}

/** `position` as diagnostics name it: `file:line:column`, or where an override put the value. */
export function formatPosition(file: string, position: SourcePosition): string {
  return position.elsewhere ?? `${file}:${position.line}:${position.column}`;
}

/** A path inside a document, in wire terms: `['data', 'wait', 'resources', 0, 'min_ready']`. */
export type WirePath = readonly (string | number)[];

/** A stable map key for a wire path (indices and keys of the same spelling cannot meet at one level). */
export function pathKey(path: WirePath): string {
  return path.join('\u0001');
}

/** The path a {@link pathKey} was made of, with its list indexes as strings. */
export function keyPath(key: string): string[] {
  return key.split('\u0001');
}

/**
 * A key written twice in one mapping, as the loader names keys (so `1` and `"1"` meet here), with
 * what PyYAML makes of each copy, which decides whether Python sees one key or two.
 */
export interface DuplicateKey {
  readonly key: string;
  readonly path: (string | number)[];
  readonly first: SourcePosition;
  readonly again: SourcePosition;
  readonly firstKey: PyKey;
  readonly againKey: PyKey;
}
