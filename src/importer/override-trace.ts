/**
 * Where the values overrides wrote came from, so that a diagnostic about one names the override
 * (the line of the `--values` file, or the `--set` argument) rather than the line of the document
 * it changed. Built only when a run has overrides; loaded with them.
 */
import type { LoadedArmadaDocument, LoadedDocument, SourcePosition, WirePath } from './load';
import { formatPosition, keyPath } from './load/wire-path';
import { documentInternals, noteInternals, SpecialValue } from './load/document';

/** What wrote a value into a document: a `--values` document or a `--set` argument. */
export interface ValueSource {
  /** Where `path` (from the root of the document the value was written into) is written. */
  locate(path: WirePath): SourcePosition;
  /**
   * The loaded document the values were read from, whose notes type them (a whole-number float).
   * @default - none: the values are strings
   */
  readonly document?: LoadedDocument | undefined;
}

/**
 * A `--values` document as the source of what it merged in. Its `data` merges into the target's
 * `data`, so a path means the same in both.
 */
export function valuesSource(doc: LoadedDocument): ValueSource {
  return {
    document: doc,
    locate: (path) => {
      const p = doc.locate(path);
      return { line: p.line, column: p.column, elsewhere: formatPosition(doc.file, p) };
    },
  };
}

/** The `index`th `--set` argument: it has no line, so every value it wrote is placed at it. */
export function setSource(index: number): ValueSource {
  const at: SourcePosition = { line: 0, column: 0, elsewhere: `--set[${index}]` };
  return { locate: () => at };
}

interface TraceNode {
  source?: ValueSource | undefined;
  children?: Map<string, TraceNode> | undefined;
}

/**
 * The paths one document's overrides wrote, each with its source. Writing a path replaces the
 * value there, so it forgets what earlier overrides wrote under it: the last one applied wins,
 * as in Armada. Merging into a mapping writes its keys, not the mapping.
 */
export class OverrideTrace {
  private readonly root: TraceNode = {};
  /** Every source recorded, in the order first recorded. */
  public readonly sources = new Set<ValueSource>();

  /** Nothing was written. */
  public get empty(): boolean {
    return this.root.children === undefined;
  }

  /** `source` wrote the value at `path` (from the document root: `['data', 'wait', 'timeout']`). */
  public record(path: readonly string[], source: ValueSource): void {
    let node = this.root;
    for (const key of path) {
      node.children ??= new Map();
      let next = node.children.get(key);
      if (next === undefined) node.children.set(key, (next = {}));
      node = next;
    }
    node.source = source;
    node.children = undefined;
    this.sources.add(source);
  }

  /** The source of the value at `path`: that of the deepest written path it lies in. */
  public find(path: WirePath): ValueSource | undefined {
    let node = this.root;
    let found: ValueSource | undefined;
    for (const key of path) {
      // Overrides write mapping keys only: a list item lies in a list written whole, or in none.
      const next = typeof key === 'string' ? node.children?.get(key) : undefined;
      if (next === undefined) break;
      node = next;
      found = node.source ?? found;
    }
    return found;
  }
}

/**
 * A document with the data overrides made of it: its own file, place and label, and each path
 * placed where the override that wrote its value is, or in its own text when none did.
 */
export class OverriddenDocument implements LoadedArmadaDocument {
  public readonly file: string;
  public readonly index: number;
  public readonly startLine: number;
  public readonly schema: LoadedArmadaDocument['schema'];
  public readonly name: string;
  public readonly label: string;
  public readonly raw: unknown;
  public readonly overridden = true;

  constructor(
    private readonly base: LoadedArmadaDocument,
    public readonly data: Record<string, unknown>,
    private readonly trace: OverrideTrace,
  ) {
    this.file = base.file;
    this.index = base.index;
    this.startLine = base.startLine;
    this.schema = base.schema;
    this.name = base.name;
    this.label = base.label;
    this.raw = { ...(base.raw as Record<string, unknown>), data };
    noteInternals(this, { specials: overriddenSpecials(base, trace) });
  }

  public locate(path: WirePath = []): SourcePosition {
    return this.trace.find(path)?.locate(path) ?? this.base.locate(path);
  }

  /** {@link locate} for several paths, those of the document's own text in one pass where it can. */
  public locateMany(paths: readonly WirePath[]): SourcePosition[] {
    const sources = paths.map((p) => this.trace.find(p));
    const own = paths.filter((_, i) => sources[i] === undefined);
    const many = (this.base as { locateMany?: (p: readonly WirePath[]) => SourcePosition[] }).locateMany;
    const located = typeof many === 'function' ? many.call(this.base, own) : own.map((p) => this.base.locate(p));
    let next = 0;
    return paths.map((p, i) => sources[i]?.locate(p) ?? located[next++]);
  }

  public location(path: WirePath = []): string {
    return formatPosition(this.file, this.locate(path));
  }
}

/**
 * The values of the overridden document PyYAML typed beyond JSON (whole-number floats, integers
 * beyond 2^53, timestamps, binary), by `pathKey`: those of the document the overrides left in
 * place, and those of the `--values` documents that wrote the values now there.
 */
function overriddenSpecials(base: LoadedDocument, trace: OverrideTrace): Map<string, SpecialValue> {
  const out = new Map<string, SpecialValue>();
  // List indexes come back from the keys as strings, and cannot meet a written key: an override
  // writes no key inside a list (merging a mapping onto one fails).
  for (const [key, value] of documentInternals(base).specials) if (trace.find(keyPath(key)) === undefined) out.set(key, value);
  for (const source of trace.sources) {
    if (source.document === undefined) continue;
    for (const [key, value] of documentInternals(source.document).specials) if (trace.find(keyPath(key)) === source) out.set(key, value);
  }
  return out;
}
