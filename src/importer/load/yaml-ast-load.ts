/**
 * The second reader, for the documents js-yaml refuses although PyYAML reads them: properties on
 * an implicit block key (`&a key: v`, `!!str 1: x`), which js-yaml takes for the properties of
 * the mapping and then fails on ("bad indentation of a mapping entry", "duplication of an anchor
 * property").
 *
 * The text is parsed by the `yaml` package (its AST also gives this loader its positions), and
 * the values are built from the AST with the very types of {@link PYYAML_SAFE_SCHEMA}, the way
 * js-yaml builds them (merge keys, repeated keys, `__proto__`, keys made strings), so that every
 * later check sees the same kind of value as for a js-yaml document. It runs only after js-yaml
 * failed: the common document never comes here.
 */
import type * as JsYaml from 'js-yaml';
import type { Alias, Document, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { ConstructFailure } from './py-values';
import { constructStats, PYYAML_SAFE_SCHEMA } from './pyyaml-schema';
import { finalBlockScalarValue } from './final-block-scalar';

// js-yaml's typings leave out the compiled lookups every schema has, and two functions of each type.
type SchemaType = JsYaml.Type & { resolve(s: unknown): boolean; construct(s: unknown): unknown };
interface CompiledSchema {
  compiledImplicit: SchemaType[];
  compiledTypeMap: Record<'scalar' | 'sequence' | 'mapping', Record<string, SchemaType>>;
}
const compiled = PYYAML_SAFE_SCHEMA as unknown as CompiledSchema;

const MERGE_TAG = 'tag:yaml.org,2002:merge';
const VALUE_TAG = 'tag:yaml.org,2002:value';

/**
 * What to make of a node whose tag SafeLoader has no constructor for (`!foo`, `!!python/tuple`,
 * and, as a value, a plain `=` or `<<`, which resolve to the YAML 1.1 "value" and "merge" tags):
 * `refuse` it, as `safe_load` does (a constructor error), or read it as `null`, as a loader does
 * that adds a catch-all constructor returning `None`
 * (`SafeConstructor.add_multi_constructor('', lambda loader, suffix, node: None)`, Pegleg's).
 */
export type UnknownTags = 'refuse' | 'null';

/** Options of {@link loadWithYamlAst}. */
export interface AstReadOptions {
  /**
   * What a node tagged with a tag SafeLoader does not know becomes (see {@link UnknownTags}).
   * @default 'refuse'
   */
  readonly unknownTags?: UnknownTags | undefined;
}

/** Why the `yaml` package's reading cannot stand in for PyYAML's: the caller keeps js-yaml's error. */
class Unreadable {}
const UNREADABLE = new Unreadable();

/**
 * The documents of one chunk as js-yaml would have built them had it read properties on implicit
 * keys, or undefined when the `yaml` package finds an error too (or an alias it cannot resolve
 * before use): the caller then reports js-yaml's error. `duplicates` says that a mapping repeats
 * a key (the last value is kept, as PyYAML does).
 */
export function loadWithYamlAst(text: string, options: AstReadOptions = {}): { values: unknown[]; duplicates: boolean } | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('yaml') as typeof import('yaml');
  // The options of the position AST (`positions.ts`), so that both read the same tree.
  const docs = yaml.parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, strict: false, prettyErrors: false }) as Document.Parsed[];
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return undefined;
  const { specials, merges, failures } = constructStats;
  const builder = new AstBuilder(yaml, text, options.unknownTags === 'null');
  try {
    const values = docs.map((d) => builder.document(d));
    return { values, duplicates: builder.duplicates };
  } catch (e) {
    if (e !== UNREADABLE && !(e instanceof RangeError)) throw e;
    // Nothing built is kept: the counters must not say otherwise.
    constructStats.specials = specials;
    constructStats.merges = merges;
    constructStats.failures = failures;
    return undefined;
  }
}

/** The first error the `yaml` package finds in `text` (read as {@link loadWithYamlAst} reads it): its offset and the first line of its message. */
export function firstSyntaxError(text: string): { offset: number; message: string } | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('yaml') as typeof import('yaml');
  const docs = yaml.parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, strict: false, prettyErrors: false }) as Document.Parsed[];
  const error = Array.isArray(docs) ? docs.flatMap((d) => d.errors)[0] : undefined;
  return error ? { offset: error.pos[0], message: error.message.split('\n')[0] } : undefined;
}

class AstBuilder {
  public duplicates = false;
  private anchors = new Map<string, unknown>();
  /** The node each anchor names, for a merge with unknown tags as null. */
  private anchorNodes = new Map<string, unknown>();

  constructor(
    private readonly yaml: typeof import('yaml'),
    private readonly text: string,
    /** Unknown tags read as null ({@link UnknownTags}). */
    private readonly nullUnknown: boolean = false,
  ) {}

  public document(doc: Document.Parsed): unknown {
    this.anchors = new Map();
    this.anchorNodes = new Map();
    return this.node(doc.contents);
  }

  /** The value of `node`; `key`: it is a mapping key, where a plain `=` is a string and `<<` merges. */
  private node(node: unknown, key = false): unknown {
    const y = this.yaml;
    if (node === null || node === undefined) return scalarValue(null, undefined, true);
    if (y.isAlias(node)) {
      const name = (node as Alias).source;
      // An alias to an anchor still being built (recursive) or never defined: js-yaml's error stands.
      if (!this.anchors.has(name)) throw UNREADABLE;
      return this.anchors.get(name);
    }
    let value: unknown;
    // With unknown tags as null, a collection's content is still built (PyYAML composes it, and an
    // alias may name a node inside it), and then dropped.
    if (y.isScalar(node)) value = this.scalar(node as Scalar, key);
    else if (y.isSeq(node)) value = this.tagged((node as YAMLSeq).tag, 'sequence', (node as YAMLSeq).items.map((n) => this.node(n)));
    else if (y.isMap(node)) value = this.tagged((node as YAMLMap).tag, 'mapping', this.mapping(node as YAMLMap));
    else throw UNREADABLE;
    const anchor = (node as Node).anchor;
    if (anchor) {
      this.anchors.set(anchor, value);
      this.anchorNodes.set(anchor, node);
    }
    return value;
  }

  private scalar(node: Scalar, key: boolean): unknown {
    const value = constructScalarNode(node, this.nullUnknown ? (key ? 'null-key' : 'null') : 'refuse');
    // The yaml package, like js-yaml, reads a final line break the text does not have (see final-block-scalar.ts).
    if (typeof value === 'string' && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') && node.range && node.range[1] >= this.text.length) {
      return finalBlockScalarValue(this.text, node.range[0], value, 'yaml');
    }
    return value;
  }

  private tagged(tag: string | undefined, kind: 'sequence' | 'mapping', data: unknown): unknown {
    return constructTagged(tag, kind, data, this.nullUnknown ? 'null' : 'refuse');
  }

  /** js-yaml's `storeMappingPair`: keys made strings, `<<` merged, the last of a repeated key kept. */
  private mapping(map: YAMLMap): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const overridable = new Set<string>();
    for (const pair of map.items as Pair[]) {
      const keyNode = pair.key;
      const key = this.node(keyNode, true);
      const value = this.node(pair.value);
      if (this.isMergeKey(keyNode)) {
        for (const source of this.mergeSources(pair.value, value)) {
          if (source === null || typeof source !== 'object') throw UNREADABLE;
          for (const k of Object.keys(source)) {
            if (Object.hasOwn(out, k)) continue;
            setOwn(out, k, (source as Record<string, unknown>)[k]);
            overridable.add(k);
          }
        }
        continue;
      }
      const name = keyString(key);
      if (Object.hasOwn(out, name) && !overridable.has(name)) this.duplicates = true;
      setOwn(out, name, value);
      overridable.delete(name);
    }
    return out;
  }

  /**
   * The mappings a `<<` merges: its value's, or its items'. PyYAML merges the nodes before it
   * constructs anything, so with unknown tags as null a mapping with such a tag (read as null)
   * still gives its entries.
   */
  private mergeSources(node: unknown, value: unknown): unknown[] {
    if (!this.nullUnknown) return Array.isArray(value) ? value : [value];
    const y = this.yaml;
    const deref = (n: unknown): unknown => (y.isAlias(n) ? this.anchorNodes.get((n as Alias).source) : n);
    const target = deref(node);
    const nodes = y.isSeq(target) ? (target as YAMLSeq).items.map(deref) : [target];
    const sources = Array.isArray(value) ? value : value === null ? nodes.map(() => null) : [value];
    return sources.map((s, i) => (s === null && y.isMap(nodes[i]) ? this.mapping(nodes[i] as YAMLMap) : s));
  }

  /** A plain `<<` (or one tagged `!!merge`, or `!`) merges, as in js-yaml. */
  private isMergeKey(node: unknown): boolean {
    if (!this.yaml.isScalar(node)) return false;
    const s = node as Scalar;
    if (s.tag === MERGE_TAG) return true;
    return (s.tag === undefined ? s.type === 'PLAIN' : s.tag === '!') && s.value === '<<';
  }
}

/** The string js-yaml makes of a key. */
function keyString(key: unknown): string {
  if (Array.isArray(key)) return key.map((k) => (Object.prototype.toString.call(k) === '[object Object]' ? '[object Object]' : k)).join(',');
  if (key !== null && typeof key === 'object' && Object.prototype.toString.call(key) === '[object Object]') return '[object Object]';
  return String(key);
}

/**
 * The value js-yaml builds for a scalar of the `yaml` package's AST with {@link PYYAML_SAFE_SCHEMA}
 * (with its markers: a {@link ConstructFailure} for what PyYAML refuses), counted in
 * `constructStats` like every constructed value.
 */
export function constructScalarNode(node: Scalar, unknown: Construction = 'refuse'): unknown {
  const range = node.range;
  const empty = node.type === 'PLAIN' && range !== undefined && range !== null && range[0] === range[1];
  // The source text: for some tags (`!!binary`, `!!timestamp`) the yaml package has made `value` a value of its own.
  const text = empty ? null : typeof node.source === 'string' ? node.source : String(node.value ?? '');
  // PyYAML resolves a node tagged '!' as if it were plain, whatever its style (`! "1"` is 1).
  return scalarValue(text, node.tag, node.type === 'PLAIN' || node.type === undefined || node.tag === '!', unknown);
}

/** {@link constructScalarNode} without counting: for checks that look at a key's Python value. */
export function pyScalarOf(node: Scalar): unknown {
  const { specials, merges, failures } = constructStats;
  try {
    return constructScalarNode(node);
  } finally {
    constructStats.specials = specials;
    constructStats.merges = merges;
    constructStats.failures = failures;
  }
}

/**
 * How a node SafeLoader has no constructor for is built: `refuse`d (a {@link ConstructFailure}),
 * or read as `null`; `null-key` is `null` for a mapping key, where a plain `=` is the string '='
 * (PyYAML retags it) and a plain `<<` merges, so that only an explicit unknown tag is null.
 */
type Construction = 'refuse' | 'null' | 'null-key';

/** SafeConstructor has no constructor for these: a catch-all one builds them. */
function unconstructed(tag: string): boolean {
  return tag === MERGE_TAG || tag === VALUE_TAG;
}

/** A scalar as js-yaml constructs it: implicit types for a plain one, else its tag's type. */
function scalarValue(text: string | null, tag: string | undefined, plain: boolean, unknown: Construction = 'refuse'): unknown {
  if (tag === undefined || tag === '!') {
    if (!plain) return text ?? '';
    for (const type of compiled.compiledImplicit) {
      if (!type.resolve(text)) continue;
      if (unknown === 'null' && unconstructed((type as SchemaType & { tag: string }).tag)) return null;
      return type.construct(text);
    }
    return text ?? '';
  }
  return constructTagged(tag, 'scalar', text, unknown);
}

/** `data` under an explicit tag (none, or '!', leaves it as it is). */
function constructTagged(tag: string | undefined, kind: 'scalar' | 'sequence' | 'mapping', data: unknown, unknown: Construction = 'refuse'): unknown {
  if (tag === undefined || tag === '!') return data;
  const type = Object.hasOwn(compiled.compiledTypeMap[kind], tag) ? compiled.compiledTypeMap[kind][tag] : undefined;
  if (unknown !== 'refuse' && (type === undefined || unconstructed(tag))) return null;
  const text = typeof data === 'string' ? data : '';
  if (type === undefined) return counted(new ConstructFailure(text, `could not determine a constructor for the tag '${tag}'`));
  if (!type.resolve(data)) return counted(new ConstructFailure(text, `cannot construct a value tagged '${tag}' from ${JSON.stringify(text)}`));
  return type.construct(data);
}

function counted(v: ConstructFailure): ConstructFailure {
  constructStats.specials++;
  constructStats.failures++;
  return v;
}

/** Whether SafeLoader has no constructor for a node of `kind` tagged `tag` (one {@link UnknownTags} `null` reads as null). */
export function isUnknownTag(tag: string, kind: 'scalar' | 'sequence' | 'mapping'): boolean {
  return tag !== '!' && (!Object.hasOwn(compiled.compiledTypeMap[kind], tag) || unconstructed(tag));
}

/**
 * Where the nodes of `doc` are written whose tag SafeLoader has no constructor for (and that
 * {@link UnknownTags} `null` reads as null): `[start, end)` offsets of their content, outermost
 * first. What is inside one is never constructed by PyYAML, so nothing there can fail.
 */
export function unknownTagSpans(doc: Document.Parsed): [number, number][] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('yaml') as typeof import('yaml');
  const out: [number, number][] = [];
  yaml.visit(doc, {
    Node(key, node) {
      const tag = (node as Node).tag;
      if (tag === undefined || tag === '!' || !(node as Node).range || (key === 'key' && tag === MERGE_TAG)) return undefined;
      if (!isUnknownTag(tag, yaml.isScalar(node) ? 'scalar' : yaml.isSeq(node) ? 'sequence' : 'mapping')) return undefined;
      const range = (node as Node).range!;
      out.push([range[0], range[1]]);
      return yaml.visit.SKIP;
    },
  });
  return out;
}

/** `out[key] = value`, with `__proto__` made a key of `out` (as PyYAML reads it) and not its prototype. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { configurable: true, enumerable: true, writable: true, value });
  else out[key] = value;
}
