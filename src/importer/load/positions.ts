/**
 * Source positions, computed only when a diagnostic needs one: the values come from js-yaml (fast).
 * A plain block-style document answers from its {@link BlockIndex}, one line-by-line pass; any
 * other document, and any path into a flow collection, an alias or a merge, from the `yaml`
 * package's AST of that single document, built the first time something in it has to be pointed
 * at.
 */
import type { Alias, Document, LineCounter, Pair, YAMLMap } from 'yaml';
import { BlockIndex, UNKNOWN } from './block-index';
import { PyKey, pyKeyOf, plainKeyString } from './pyyaml-schema';
import { DuplicateKey, SourcePosition, WirePath } from './wire-path';
import { ConstructFailure } from './py-values';
import { pyScalarOf } from './yaml-ast-load';
import { resolveAlias } from './alias-targets';

// The yaml package is loaded only when an AST is needed: most runs never build one.
let yamlModule: typeof import('yaml') | undefined;
function yamlLib(): typeof import('yaml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (yamlModule ??= require('yaml') as typeof import('yaml'));
}
const isAlias = (n: unknown): n is Alias => yamlLib().isAlias(n);
const isMap = (n: unknown): n is YAMLMap => yamlLib().isMap(n);
const isSeq = (n: unknown): n is import('yaml').YAMLSeq => yamlLib().isSeq(n);
const isScalar = (n: unknown): n is import('yaml').Scalar => yamlLib().isScalar(n);

const KEPT_INDEXES = 8;

/**
 * The chunks of one load whose block index is kept, most recent last. Diagnostics about one
 * document come together (its schema errors, then a writer's findings chart by chart), so a few
 * suffice, and a site of thousands of documents does not keep an index of each. It belongs to the
 * load (its documents hold it) and not to the module: a chunk's text is a slice of its whole
 * stream, so a module-wide list would keep the last streams read alive for as long as the process
 * runs.
 */
export class KeptIndexes {
  private readonly recent: ChunkAst[] = [];

  /** Keeps `ast`'s index; returns the chunk whose index is to be dropped, if one is. */
  public keep(ast: ChunkAst): ChunkAst | undefined {
    this.recent.push(ast);
    return this.recent.length > KEPT_INDEXES ? this.recent.shift() : undefined;
  }
}

/** The position AST of one chunk of a stream (normally one document). */
export class ChunkAst {
  private docs: Document.Parsed[] | undefined;
  private lines: LineCounter | undefined;
  private index: BlockIndex | null | undefined;

  constructor(
    private readonly text: string,
    /** 1-based line of the chunk's first character in its file. */
    private readonly firstLine: number,
    /** The load's kept indexes. @default - a list of this chunk's own */
    private readonly kept: KeptIndexes = new KeptIndexes(),
  ) {}

  /** The parsed documents of this chunk, parsed once. */
  public documents(): Document.Parsed[] {
    if (this.docs === undefined) {
      const { LineCounter, parseAllDocuments } = yamlLib();
      this.lines = new LineCounter();
      // failsafe: every scalar stays a string, so keys are resolved with PyYAML's rules (below)
      // and not with the yaml package's own 1.1/1.2 schemas.
      this.docs = parseAllDocuments(this.text, {
        lineCounter: this.lines,
        schema: 'failsafe',
        uniqueKeys: false,
        strict: false,
        prettyErrors: false,
      }) as Document.Parsed[];
    }
    return this.docs;
  }

  /** The last non-blank character before `offset`. */
  public precedingChar(offset: number): string {
    let i = offset - 1;
    while (i >= 0 && (this.text[i] === ' ' || this.text[i] === '\t')) i--;
    return i >= 0 ? this.text[i] : '';
  }

  /**
   * Where the properties (`&anchor`, `!tag`) of the node whose content starts at `offset` begin:
   * where PyYAML's marks place the node. `offset` itself when it has none.
   */
  public propertiesStart(offset: number): number {
    let start = offset;
    for (let n = 0; n < 2; n++) {
      let end = start;
      while (end > 0 && (this.text[end - 1] === ' ' || this.text[end - 1] === '\t')) end--;
      let i = end;
      while (i > 0 && !' \t\n\r'.includes(this.text[i - 1])) i--;
      if (i === end || (this.text[i] !== '!' && this.text[i] !== '&')) break;
      start = i;
    }
    return start;
  }

  /** The file position of an offset in this chunk's text. */
  /** Whether the node at `offset` is an explicit key: `?` and blanks before it on its line. */
  public explicitKeyAt(offset: number): boolean {
    let i = offset - 1;
    while (i >= 0 && (this.text[i] === ' ' || this.text[i] === '\t')) i--;
    return i >= 0 && this.text[i] === '?' && (i === 0 || ' \t\n{[,'.includes(this.text[i - 1]));
  }

  public position(offset: number): SourcePosition {
    this.documents();
    const p = this.lines!.linePos(offset);
    if (p.line === 0) return { line: this.firstLine, column: offset + 1 };
    return { line: this.firstLine + p.line - 1, column: p.col };
  }

  /**
   * Where `path` is written in document `index` of this chunk: the key of a mapping entry, the
   * item of a sequence. A path that goes through an alias or a merge key (`<<`) ends where the
   * anchored content is written. Stops at the deepest part of the path that exists.
   */
  public locate(index: number, path: WirePath): SourcePosition | undefined {
    // The block index reads a plain block-style first document line by line, much faster than an
    // AST is built; it says when it cannot answer (flow collections, aliases, merges).
    if (index === 0) {
      if (this.index === undefined) {
        this.index = BlockIndex.build(this.text, this.firstLine) ?? null;
        if (this.index !== null) {
          const dropped = this.kept.keep(this);
          // dropped, not refused: built again if its document is asked about later
          if (dropped) dropped.index = undefined;
        }
      }
      if (this.index !== null) {
        const at = this.index.locate(path);
        if (at !== UNKNOWN) return at;
      }
    }
    return this.locateInAst(index, path);
  }

  /** {@link locate} from the `yaml` AST alone. */
  public locateInAst(index: number, path: WirePath): SourcePosition | undefined {
    const doc = this.documents()[index];
    if (!doc) return undefined;
    let node: unknown = doc.contents;
    let at = startOf(node) ?? startOf(doc);
    for (const seg of path) {
      node = deref(node, doc);
      if (isMap(node)) {
        const pair = findPair(node, String(seg), doc, 0);
        if (!pair) break;
        at = startOf(pair.key) ?? startOf(pair.value) ?? at;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number' && seg >= 0 && seg < node.items.length) {
        node = node.items[seg];
        at = startOf(node) ?? at;
      } else break;
    }
    return at === undefined ? undefined : this.position(at);
  }

  /**
   * Keys written twice in the same mapping (merge keys aside), with the wire path of the later
   * one. PyYAML builds a dict from the pairs in order, so the last one silently wins. The first
   * `limit` of them.
   */
  public duplicateKeys(index: number, limit = Infinity): DuplicateKey[] {
    const doc = this.documents()[index];
    const out: DuplicateKey[] = [];
    if (!doc) return out;
    const seen = new Set<unknown>();
    const walk = (node: unknown, path: (string | number)[]): void => {
      if (seen.has(node)) return;
      if (isMap(node)) {
        seen.add(node);
        const firstAt = new Map<string, unknown>();
        for (const pair of node.items) {
          const k = keyString(pair.key, doc);
          if (k === undefined) continue;
          if (isMergeKey(pair.key)) {
            // A mapping written as the merge's value is checked too: its keys become this
            // mapping's, at this path. (One named by an alias is checked where it is written.)
            const merged = pair.value;
            if (isSeq(merged)) for (const item of merged.items) walk(item, path);
            else walk(merged, path);
            continue;
          }
          const prev = firstAt.get(k);
          if (prev !== undefined) {
            if (out.length < limit) {
              out.push({ key: k, path: [...path, k], first: this.position(startOf(prev) ?? 0), again: this.position(startOf(pair.key) ?? 0), firstKey: this.pyKey(prev, doc), againKey: this.pyKey(pair.key, doc) });
            }
          } else firstAt.set(k, pair.key);
          walk(pair.value, [...path, k]);
        }
      } else if (isSeq(node)) {
        seen.add(node);
        node.items.forEach((item, i) => walk(item, [...path, i]));
      }
    };
    walk(doc.contents, []);
    return out;
  }

  /** What PyYAML makes of the scalar key `key` (through its alias). */
  private pyKey(key: unknown, doc: Document.Parsed): PyKey {
    const k = deref(key, doc) as import('yaml').Scalar;
    const range = k.range;
    const text = range ? this.text.slice(range[0], range[1]) : String(k.value ?? '');
    const written = k.tag ? `${k.tag.replace('tag:yaml.org,2002:', '!!')} ${text}` : text;
    return pyKeyOf(String(k.value ?? ''), written, k.type === 'PLAIN' || k.type === undefined, k.tag);
  }
}

/** A collection used as a key, where it is written. */
export interface CollectionKeyAt {
  readonly at: SourcePosition;
  /** A mapping right inside a flow mapping (`{{ x }}`): most likely an unrendered template. */
  readonly template: boolean;
  /**
   * A tag SafeLoader has no constructor for (`!!python/tuple [1, 2]`), resolved, and where the
   * node's properties start: PyYAML constructs a key before it hashes it, and fails there first.
   * (js-yaml refuses such a tag, so only the second reader's documents have one.)
   */
  readonly unknownTag?: { readonly tag: string; readonly at: SourcePosition } | undefined;
}

/** The collection tags SafeLoader constructs (and then cannot hash as a key). */
const SAFE_COLLECTION_TAGS: ReadonlySet<string> = new Set(['seq', 'map', 'set', 'omap', 'pairs'].map((t) => `tag:yaml.org,2002:${t}`));

function unknownCollectionTag(tag: string | undefined): string | undefined {
  return tag === undefined || tag === '!' || SAFE_COLLECTION_TAGS.has(tag) ? undefined : tag;
}

/**
 * Keys that are mappings or sequences (`{{ .Values.x }}: ...`, `? [a, b]`): PyYAML refuses them
 * ("found unhashable key"), where js-yaml turns them into strings.
 */
export function collectionKeys(ast: ChunkAst, index: number): CollectionKeyAt[] {
  const doc = ast.documents()[index];
  const out: CollectionKeyAt[] = [];
  if (!doc) return out;
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (seen.has(node) || !(isMap(node) || isSeq(node))) return;
    seen.add(node);
    if (isSeq(node)) return node.items.forEach(walk);
    for (const p of node.items) {
      const k = deref(p.key, doc);
      if (isMap(k) || isSeq(k)) {
        const at = startOf(p.key) ?? 0;
        // `{{ ... }}`: the key is a flow mapping right inside another one
        const tag = isAlias(p.key) ? undefined : unknownCollectionTag(k.tag);
        out.push({ at: ast.position(at), template: isMap(k) && ast.precedingChar(at) === '{', ...(tag !== undefined ? { unknownTag: { tag, at: ast.position(ast.propertiesStart(at)) } } : {}) });
      }
      walk(p.value);
    }
  };
  walk(doc.contents);
  return out;
}

/**
 * Mappings with more than one `<<` whose merged mappings share a key the mapping does not set
 * itself. PyYAML takes such a key from the last `<<`, js-yaml from the first, so the loaded value
 * would differ from Armada's: the caller reports these as errors.
 */
export function conflictingMerges(ast: ChunkAst, index: number): { key: string; at: SourcePosition }[] {
  const doc = ast.documents()[index];
  const out: { key: string; at: SourcePosition }[] = [];
  if (!doc) return out;
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (seen.has(node) || !(isMap(node) || isSeq(node))) return;
    seen.add(node);
    if (isSeq(node)) return node.items.forEach(walk);
    const merges = node.items.filter((p) => isMergeKey(p.key));
    if (merges.length > 1) {
      const own = new Set(node.items.filter((p) => !isMergeKey(p.key)).map((p) => keyString(p.key, doc)));
      const from = new Map<string, number>();
      merges.forEach((m, i) => {
        const value = deref(m.value, doc);
        const sources = isSeq(value) ? value.items.map((n) => deref(n, doc)) : [value];
        const keys = new Set<string>();
        for (const s of sources) if (isMap(s)) for (const k of providedKeys(s, doc, 0)) keys.add(k);
        for (const k of keys) {
          if (own.has(k)) continue;
          const prev = from.get(k);
          if (prev !== undefined && prev !== i) out.push({ key: k, at: ast.position(startOf(m.key) ?? 0) });
          from.set(k, i);
        }
      });
    }
    for (const p of node.items) walk(p.value);
  };
  walk(doc.contents);
  return out;
}

/**
 * Merge keys written as explicit keys (`? <<` then `: *a`): PyYAML merges them like `<<: *a`;
 * js-yaml builds a key named "<<" instead, so the loader reports them rather than keep a value
 * PyYAML never sees.
 */
export function explicitMergeKeys(ast: ChunkAst, index: number): SourcePosition[] {
  const doc = ast.documents()[index];
  const out: SourcePosition[] = [];
  if (!doc) return out;
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (seen.has(node) || !(isMap(node) || isSeq(node))) return;
    seen.add(node);
    if (isSeq(node)) return node.items.forEach(walk);
    for (const p of node.items) {
      const start = startOf(p.key);
      if (isMergeKey(p.key) && start !== undefined && ast.explicitKeyAt(start)) out.push(ast.position(start));
      walk(p.value);
    }
  };
  walk(doc.contents);
  return out;
}

/**
 * Merge keys whose value is not a mapping or a list of mappings: PyYAML refuses them ("expected a
 * mapping or list of mappings for merging"), where js-yaml merges whatever object it gets (the
 * fields of a timestamp, the indexes of a list).
 */
export function badMergeValues(ast: ChunkAst, index: number): { at: SourcePosition; found: string; tag?: string | undefined }[] {
  const doc = ast.documents()[index];
  const out: { at: SourcePosition; found: string; tag?: string | undefined }[] = [];
  if (!doc) return out;
  const seen = new Set<unknown>();
  const kind = (n: unknown) => (isMap(n) ? 'mapping' : isSeq(n) ? 'sequence' : 'scalar');
  const walk = (node: unknown): void => {
    if (seen.has(node) || !(isMap(node) || isSeq(node))) return;
    seen.add(node);
    if (isSeq(node)) return node.items.forEach(walk);
    for (const p of node.items) {
      if (isMergeKey(p.key)) {
        const value = deref(p.value, doc);
        const items = isSeq(value) ? value.items : [p.value];
        for (const item of items) {
          const target = deref(item, doc);
          if (isMap(target) && (target.tag === undefined || target.tag === '!' || target.tag === 'tag:yaml.org,2002:map')) continue;
          const at = startOf(item) ?? startOf(p.value) ?? startOf(p.key) ?? 0;
          out.push({ at: ast.position(at), found: isMap(target) ? `a mapping tagged ${target.tag}` : kind(target), ...(isMap(target) ? { tag: target.tag } : {}) });
        }
      }
      walk(p.value);
    }
  };
  walk(doc.contents);
  return out;
}

/**
 * Scalars PyYAML fails to construct that the built value no longer holds, so that the usual
 * report of constructor failures cannot find them: keys (`!!int x: 1`), and values a repeated
 * key replaced. PyYAML constructs every node, so each is an error.
 */
export function lostConstructFailures(ast: ChunkAst, index: number): { at: SourcePosition; message: string }[] {
  const doc = ast.documents()[index];
  const out: { at: SourcePosition; message: string }[] = [];
  if (!doc) return out;
  const seen = new Set<unknown>();
  const check = (node: unknown, key: boolean): void => {
    if (!isScalar(node)) return;
    const v = pyScalarOf(node);
    if (!(v instanceof ConstructFailure)) return;
    // As a key, a plain '=' is a string to PyYAML and a '<<' merges.
    if (key && (v.text === '=' || v.text === '<<')) return;
    out.push({ at: ast.position(startOf(node) ?? 0), message: v.message });
  };
  const walk = (node: unknown, lost: boolean): void => {
    if (seen.has(node)) return;
    if (lost) check(node, false);
    if (!(isMap(node) || isSeq(node))) return;
    seen.add(node);
    if (isSeq(node)) return node.items.forEach((n) => walk(n, lost));
    const names = node.items.map((p) => keyString(p.key, doc));
    const own = new Set(names.filter((n, i) => n !== undefined && !isMergeKey(node.items[i].key)));
    // Where each name is written last (one pass: a mapping may hold many thousands of keys).
    const last = new Map<string, number>();
    names.forEach((n, i) => n !== undefined && last.set(n, i));
    node.items.forEach((p, i) => {
      check(p.key, true);
      const replaced = names[i] !== undefined && last.get(names[i]!)! > i;
      if (isMergeKey(p.key) && !lost) {
        // A mapping written inside the merge: its values the mapping's own keys replace are lost.
        for (const source of isSeq(p.value) ? p.value.items : [p.value]) {
          if (!isMap(source)) continue;
          for (const q of source.items) {
            const name = keyString(q.key, doc);
            if (name !== undefined && own.has(name)) walk(q.value, true);
          }
        }
      }
      walk(p.value, lost || replaced);
    });
  };
  walk(doc.contents, false);
  return out;
}

function providedKeys(map: YAMLMap, doc: Document.Parsed, depth: number, seen: Set<YAMLMap> = new Set(), out: Set<string> = new Set()): Set<string> {
  for (const p of map.items) {
    if (isMergeKey(p.key)) {
      if (depth > 50) continue;
      const value = deref(p.value, doc);
      for (const s of isSeq(value) ? value.items.map((n) => deref(n, doc)) : [value]) {
        // Each mapping once: merges of merges of one anchor (`<<: [*a, *a]` at every level)
        // would otherwise be read 8^depth times.
        if (!isMap(s) || seen.has(s)) continue;
        seen.add(s);
        providedKeys(s, doc, depth + 1, seen, out);
      }
    } else {
      const k = keyString(p.key, doc);
      if (k !== undefined) out.add(k);
    }
  }
  return out;
}

function startOf(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] | undefined } | null | undefined)?.range;
  return range ? range[0] : undefined;
}

function deref(node: unknown, doc: Document.Parsed): unknown {
  for (let i = 0; i < 100 && isAlias(node); i++) node = resolveAlias(node as Alias, doc);
  return node;
}

/** A plain, untagged `<<` (`!!str <<` is the string '<<' to PyYAML and js-yaml alike). */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && key.type === 'PLAIN' && key.tag === undefined && key.value === '<<';
}

/** The key as js-yaml names it in the loaded data (plain scalars resolved the PyYAML way). */
function keyString(key: unknown, doc: Document.Parsed): string | undefined {
  const k = deref(key, doc);
  if (!isScalar(k)) return undefined;
  const text = String(k.value ?? '');
  if (k.tag !== undefined) return String(pyScalarOf(k));
  return k.type === 'PLAIN' || k.type === undefined ? plainKeyString(text) : text;
}

/**
 * The pair that supplies `key` in `map`, the way PyYAML's `flatten_mapping` orders them: explicit
 * pairs first (the last one wins), then merged mappings, where among several `<<` the later wins
 * and within `<<: [*a, *b]` the earlier wins.
 */
function findPair(map: YAMLMap, key: string, doc: Document.Parsed, depth: number): Pair | undefined {
  for (let i = map.items.length - 1; i >= 0; i--) {
    const pair = map.items[i] as Pair;
    if (!isMergeKey(pair.key) && keyString(pair.key, doc) === key) return pair;
  }
  if (depth > 50) return undefined;
  for (let i = map.items.length - 1; i >= 0; i--) {
    const pair = map.items[i] as Pair;
    if (!isMergeKey(pair.key)) continue;
    const value = deref(pair.value, doc);
    const sources: unknown[] = isSeq(value) ? value.items.map((n) => deref(n, doc)) : [value];
    for (const source of sources) {
      if (!isMap(source)) continue;
      const found = findPair(source, key, doc, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}
