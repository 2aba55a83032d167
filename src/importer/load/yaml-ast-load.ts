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

/** Why the `yaml` package's reading cannot stand in for PyYAML's: the caller keeps js-yaml's error. */
class Unreadable {}
const UNREADABLE = new Unreadable();

/**
 * The documents of one chunk as js-yaml would have built them had it read properties on implicit
 * keys, or undefined when the `yaml` package finds an error too (or an alias it cannot resolve
 * before use): the caller then reports js-yaml's error. `duplicates` says that a mapping repeats
 * a key (the last value is kept, as PyYAML does).
 */
export function loadWithYamlAst(text: string): { values: unknown[]; duplicates: boolean } | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('yaml') as typeof import('yaml');
  // The options of the position AST (`positions.ts`), so that both read the same tree.
  const docs = yaml.parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, strict: false, prettyErrors: false }) as Document.Parsed[];
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return undefined;
  const { specials, merges, failures } = constructStats;
  const builder = new AstBuilder(yaml, text);
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

class AstBuilder {
  public duplicates = false;
  private anchors = new Map<string, unknown>();

  constructor(
    private readonly yaml: typeof import('yaml'),
    private readonly text: string,
  ) {}

  public document(doc: Document.Parsed): unknown {
    this.anchors = new Map();
    return this.node(doc.contents);
  }

  private node(node: unknown): unknown {
    const y = this.yaml;
    if (node === null || node === undefined) return scalarValue(null, undefined, true);
    if (y.isAlias(node)) {
      const name = (node as Alias).source;
      // An alias to an anchor still being built (recursive) or never defined: js-yaml's error stands.
      if (!this.anchors.has(name)) throw UNREADABLE;
      return this.anchors.get(name);
    }
    let value: unknown;
    if (y.isScalar(node)) value = this.scalar(node as Scalar);
    else if (y.isSeq(node)) value = this.tagged((node as YAMLSeq).tag, 'sequence', (node as YAMLSeq).items.map((n) => this.node(n)));
    else if (y.isMap(node)) value = this.tagged((node as YAMLMap).tag, 'mapping', this.mapping(node as YAMLMap));
    else throw UNREADABLE;
    const anchor = (node as Node).anchor;
    if (anchor) this.anchors.set(anchor, value);
    return value;
  }

  private scalar(node: Scalar): unknown {
    const value = constructScalarNode(node);
    // The yaml package, like js-yaml, reads a final line break the text does not have (see final-block-scalar.ts).
    if (typeof value === 'string' && (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') && node.range && node.range[1] >= this.text.length) {
      return finalBlockScalarValue(this.text, node.range[0], value, 'yaml');
    }
    return value;
  }

  private tagged(tag: string | undefined, kind: 'sequence' | 'mapping', data: unknown): unknown {
    return constructTagged(tag, kind, data);
  }

  /** js-yaml's `storeMappingPair`: keys made strings, `<<` merged, the last of a repeated key kept. */
  private mapping(map: YAMLMap): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const overridable = new Set<string>();
    for (const pair of map.items as Pair[]) {
      const keyNode = pair.key;
      const key = this.node(keyNode);
      const value = this.node(pair.value);
      if (this.isMergeKey(keyNode)) {
        for (const source of Array.isArray(value) ? value : [value]) {
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
export function constructScalarNode(node: Scalar): unknown {
  const range = node.range;
  const empty = node.type === 'PLAIN' && range !== undefined && range !== null && range[0] === range[1];
  // The source text: for some tags (`!!binary`, `!!timestamp`) the yaml package has made `value` a value of its own.
  const text = empty ? null : typeof node.source === 'string' ? node.source : String(node.value ?? '');
  // PyYAML resolves a node tagged '!' as if it were plain, whatever its style (`! "1"` is 1).
  return scalarValue(text, node.tag, node.type === 'PLAIN' || node.type === undefined || node.tag === '!');
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

/** A scalar as js-yaml constructs it: implicit types for a plain one, else its tag's type. */
function scalarValue(text: string | null, tag: string | undefined, plain: boolean): unknown {
  if (tag === undefined || tag === '!') {
    if (!plain) return text ?? '';
    for (const type of compiled.compiledImplicit) if (type.resolve(text)) return type.construct(text);
    return text ?? '';
  }
  return constructTagged(tag, 'scalar', text);
}

/** `data` under an explicit tag (none, or '!', leaves it as it is). */
function constructTagged(tag: string | undefined, kind: 'scalar' | 'sequence' | 'mapping', data: unknown): unknown {
  if (tag === undefined || tag === '!') return data;
  const type = Object.hasOwn(compiled.compiledTypeMap[kind], tag) ? compiled.compiledTypeMap[kind][tag] : undefined;
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

/** `out[key] = value`, with `__proto__` made a key of `out` (as PyYAML reads it) and not its prototype. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { configurable: true, enumerable: true, writable: true, value });
  else out[key] = value;
}
