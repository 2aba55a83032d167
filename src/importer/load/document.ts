import { badMergeValues, ChunkAst, collectionKeys, conflictingMerges, explicitMergeKeys, KeptIndexes, lostConstructFailures } from './positions';
import { formatPosition, SourcePosition, WirePath } from './wire-path';
import { Chunk } from './source';

/** One document of a YAML stream, as PyYAML's `safe_load_all` would give it to Armada. */
export interface LoadedDocument {
  /** The file it came from, as named in diagnostics. */
  readonly file: string;
  /** 0-based position of the document in its file's stream. */
  readonly index: number;
  /** 1-based line where the document starts (its `---`, or its first line of content). */
  readonly startLine: number;
  /** `schema`, when it is a string. */
  readonly schema?: string | undefined;
  /** `metadata.name`, when it is a string. */
  readonly name?: string | undefined;
  /** `data`, or `undefined` when the document is not a mapping or has no `data`. */
  readonly data: unknown;
  /** The whole document: `{ schema, metadata, data }` for a well-formed one, anything for others. */
  readonly raw: unknown;
  /**
   * Where `path` (from the document root: `['data', 'wait', 'resources', 0, 'min_ready']`) is
   * written: the key of a mapping entry, the item of a sequence. Falls back to the deepest part of
   * the path that exists, and to the document start. A value an override put there is placed
   * where the override wrote it ({@link SourcePosition.elsewhere}).
   * @default path - `[]`, the document itself
   */
  locate(path?: WirePath): SourcePosition;
  /** {@link locate} as `file:line:column`, the form diagnostics use. */
  location(path?: WirePath): string;
  /**
   * Whether the text the document was read from (the piece of the stream holding it) contains any
   * of `needles`: a cheap way to rule out that any of its strings holds something, where no escape
   * can write it.
   * @default - not known: the document has no text of its own
   */
  textIncludes?(needles: readonly string[]): boolean;
  /**
   * Overrides changed the document, so {@link locate} may place a path outside its text (in a
   * `--values` file, or at a `--set` argument).
   * @default false
   */
  readonly overridden?: boolean | undefined;
  /** `armada/Chart/v1 keystone`: the schema and name, as far as the document has them. */
  readonly label: string;
  /**
   * True when `raw` is a tree of JSON values exactly as the loader built it: its text has no
   * alias (so no node is shared, none is its own parent) and no constructor made a value JSON
   * lacks (a timestamp, a whole-number or infinite float, an integer past 2^53, binary).
   * @default false - not known (a document built or changed after loading)
   */
  readonly plainJson?: boolean | undefined;
}

/** A value PyYAML gives a type JSON does not have, found at a wire path of a loaded document. */
export type SpecialValue = { readonly kind: 'float'; readonly value: number } | { readonly kind: 'timestamp' } | { readonly kind: 'bytes' } | { readonly kind: 'integer' };

/** What the loader learnt about a document beyond its JavaScript value. */
export interface DocumentInternals {
  /** Whole-number floats, timestamps and binary values, by `pathKey` of their root path. */
  readonly specials: ReadonlyMap<string, SpecialValue>;
}

const EMPTY_SPECIALS: ReadonlyMap<string, SpecialValue> = new Map();
const internals = new WeakMap<LoadedDocument, DocumentInternals>();

/** The loader's notes on `doc`; empty for documents this loader did not make. */
export function documentInternals(doc: LoadedDocument): DocumentInternals {
  return internals.get(doc) ?? { specials: EMPTY_SPECIALS };
}

/**
 * Gives `doc`, a document built from loaded ones (the same document with overridden data), the
 * notes that type its values as PyYAML typed them.
 */
export function noteInternals(doc: LoadedDocument, notes: DocumentInternals): void {
  if (notes.specials.size > 0) internals.set(doc, notes);
}

/** The text and chunk shared by the documents cut from one piece of a stream. */
export class ChunkSource {
  private astCache: ChunkAst | undefined;
  constructor(
    private readonly text: string,
    public readonly chunk: Chunk,
    /** The load's kept block indexes, shared by its chunks. @default - a list of this chunk's own */
    private readonly kept: KeptIndexes = new KeptIndexes(),
  ) {}

  public ast(): ChunkAst {
    if (!this.astCache) this.astCache = new ChunkAst(this.text.slice(this.chunk.start, this.chunk.end), this.chunk.line, this.kept);
    return this.astCache;
  }

  public includes(needles: readonly string[]): boolean {
    // A slice shares the text (no copy), and bounds the search to this piece; `includes` is a
    // plain substring search, several times faster here than a regex with alternatives.
    const piece = this.text.slice(this.chunk.start, this.chunk.end);
    return needles.some((n) => piece.includes(n));
  }

  /**
   * The file positions of offsets in this piece of the stream, found in one pass over the text
   * (as many offsets as findings, each its own search would be quadratic).
   */
  public positionsOf(offsets: readonly number[]): SourcePosition[] {
    const order = offsets.map((_, i) => i).sort((a, b) => offsets[a] - offsets[b]);
    const out: SourcePosition[] = new Array(offsets.length);
    let line = this.chunk.line;
    let lineStart = this.chunk.start;
    let nl = this.text.indexOf('\n', lineStart);
    for (const i of order) {
      const at = this.chunk.start + offsets[i];
      while (nl >= 0 && nl < at) {
        line++;
        lineStart = nl + 1;
        nl = this.text.indexOf('\n', lineStart);
      }
      out[i] = { line, column: at - lineStart + 1 };
    }
    return out;
  }

  public locateMany(index: number, paths: readonly WirePath[]): (SourcePosition | undefined)[] {
    if (paths.length === 0) return [];
    const ast = this.ast();
    return paths.map((p) => ast.locate(index, p));
  }
}

export class YamlDocument implements LoadedDocument {
  public readonly schema?: string | undefined;
  public readonly name?: string | undefined;
  public readonly data: unknown;

  constructor(
    private readonly source: ChunkSource,
    /** Its index among the documents of its chunk (normally 0). */
    public readonly indexInChunk: number,
    public readonly file: string,
    public readonly index: number,
    public readonly startLine: number,
    public readonly raw: unknown,
    specials: ReadonlyMap<string, SpecialValue> | undefined,
    public readonly plainJson: boolean = false,
  ) {
    if (isPlainObject(raw)) {
      if (typeof raw.schema === 'string') this.schema = raw.schema;
      const md = raw.metadata;
      if (isPlainObject(md) && typeof md.name === 'string') this.name = md.name;
      this.data = raw.data;
    }
    if (specials && specials.size > 0) internals.set(this, { specials });
  }

  /** Asked once per diagnostic: kept. */
  private labelText: string | undefined;

  public get label(): string {
    return (this.labelText ??= [this.schema, this.name].filter((s) => s !== undefined).join(' '));
  }

  public locate(path: WirePath = []): SourcePosition {
    return this.locateMany([path])[0];
  }

  /** {@link locate} for several paths at once. */
  public locateMany(paths: readonly WirePath[]): SourcePosition[] {
    return this.source.locateMany(this.indexInChunk, paths).map((p) => p ?? { line: this.startLine, column: 1 });
  }

  public location(path: WirePath = []): string {
    return formatPosition(this.file, this.locate(path));
  }

  public textIncludes(needles: readonly string[]): boolean {
    return this.source.includes(needles);
  }

  /** The file positions of offsets in the text of the chunk the document was read from. */
  public positionsOf(offsets: readonly number[]): SourcePosition[] {
    return this.source.positionsOf(offsets);
  }

  /** The position AST of the chunk the document was read from. */
  public ast(): ChunkAst {
    return this.source.ast();
  }

  /** Keys written twice, for the duplicate-key warnings: the first `limit` of them. */
  public duplicateKeys(limit = Infinity) {
    return this.source.ast().duplicateKeys(this.indexInChunk, limit);
  }

  /** Keys that are mappings or sequences, which PyYAML refuses. */
  public collectionKeys() {
    return collectionKeys(this.source.ast(), this.indexInChunk);
  }

  /** Merge keys written as explicit keys (`? <<`), which js-yaml does not merge. */
  public explicitMergeKeys() {
    return explicitMergeKeys(this.source.ast(), this.indexInChunk);
  }

  /** Keys that several `<<` of one mapping supply, where PyYAML and js-yaml disagree. */
  public conflictingMerges() {
    return conflictingMerges(this.source.ast(), this.indexInChunk);
  }

  /** Merge keys whose value is not a mapping or a list of mappings. */
  public badMergeValues() {
    return badMergeValues(this.source.ast(), this.indexInChunk);
  }

  /** Constructor failures in keys, or in values a repeated key replaced. */
  public lostConstructFailures() {
    return lostConstructFailures(this.source.ast(), this.indexInChunk);
  }
}

/** A mapping as the loader builds it (not an array, a timestamp or binary data). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
