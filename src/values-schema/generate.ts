/** TypeScript types for a chart's values, generated from its `values.schema.json`. */
import { docLines } from './doc-comments';
import { ValuesSchemaError } from './errors';
import { isValidTypeName, NameAllocator, pascalCase } from './identifiers';
import { isSchema, isSchemaObject, JsonSchema, JsonSchemaObject, schemaEntries, schemaList, stringList } from './json-schema';
import { schemaSource } from './load';
import { RefResolver } from './refs';
import {
  intersection,
  jsonLiteral,
  keyword,
  MemberNode,
  NEVER,
  printDoc,
  printMemberWithDoc,
  printType,
  reference,
  TypeNode,
  union,
  UNKNOWN,
  unsupported,
} from './type-nodes';

/** Options of {@link generateValuesTypes}. */
export interface GenerateValuesTypesOptions {
  /**
   * Name of the exported type for the whole values object (`MariadbValues`). Every other
   * generated name starts with it, so that the types of several charts can share a module.
   */
  readonly typeName: string;
  /**
   * Make every property, index signature, array and tuple `readonly`. Properties whose schema
   * says `readOnly: true` are `readonly` either way.
   * @default false
   */
  readonly readonly?: boolean | undefined;
  /**
   * Give an object schema with named `properties` and no `additionalProperties` an index
   * signature `[key: string]: unknown`, as JSON Schema allows any other key there. Off by default
   * so that a misspelt key fails to compile: Helm would accept it and the chart ignore it.
   * Objects without named properties (free-form maps such as `annotations`) always get one.
   * @default false
   */
  readonly additionalPropertiesByDefault?: boolean | undefined;
  /**
   * The chart's own values (its values.yaml): a key the schema requires that they already set is
   * optional in the generated type, since Helm merges what the user writes over them before it
   * validates (so `image`, required but set by values.yaml, need not be written). Followed
   * through nested `properties` only: a key under a `$ref`, `allOf` or array stays as the
   * schema says.
   * @default - none: every required key must be written
   */
  readonly defaults?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Comment lines at the top of the output; an empty array leaves the header out.
   * @default ['Generated from the chart\'s values.schema.json. Do not edit by hand.']
   */
  readonly header?: readonly string[] | undefined;
}

const DEFAULT_HEADER = ["Generated from the chart's values.schema.json. Do not edit by hand."];

// Keywords that say what a value is; a schema without any of them only constrains values that
// something else describes (`{ "required": ["a"] }` inside `anyOf`), so it adds nothing to a type.
const SHAPE_KEYWORDS = [
  'type', 'enum', 'const', 'properties', 'additionalProperties', 'patternProperties', 'items',
  'prefixItems', 'additionalItems', '$ref', '$recursiveRef', '$dynamicRef', 'allOf', 'anyOf', 'oneOf',
  'nullable', 'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields',
];
const OBJECT_KEYWORDS = ['properties', 'additionalProperties', 'patternProperties', 'required', 'minProperties', 'maxProperties', 'propertyNames'];
const ARRAY_KEYWORDS = ['items', 'prefixItems', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'];
// Pointer segments that are structure rather than names, for names derived from a `$ref`.
const NAME_MAPS = new Set(['properties', 'definitions', '$defs', 'patternProperties', 'dependentSchemas']);
const BRANCH_WORDS: { readonly [keyword: string]: string } = { allOf: 'Part', anyOf: 'Option', oneOf: 'Option', prefixItems: 'Item', items: 'Item' };

/**
 * Generates TypeScript declarations for the values a chart accepts, from its values schema.
 *
 * - The whole values object is `options.typeName`; nested objects with named properties become
 *   interfaces named from it and the property path (`MariadbValuesPodReplicas`), and
 *   `definitions`/`$defs` entries reached through `$ref` become `MariadbValues<Definition>`.
 *   A name already taken gets a numeric suffix, handed out in schema order.
 * - `title`/`description` become doc comments, with `@default`, `@example` and `@deprecated`.
 * - `required` keys are non-optional; `enum`/`const` become literal unions; `type` arrays,
 *   `oneOf` and `anyOf` unions; `allOf` intersections; `additionalProperties` and
 *   `patternProperties` index signatures; `items`/`prefixItems` arrays and tuples.
 * - What a type cannot express (`pattern`, `minimum`, `if`/`then`, `not`, ...) is left to
 *   `validateValues`; constructs that cannot be typed at all (a `$ref` to another file, an unknown
 *   `type`) become `unknown` with a comment saying why.
 *
 * The output depends only on the schema and the options, follows the schema's key order (as
 * JavaScript keeps it: integer-like keys first) and is indented by two spaces.
 *
 * @param schema - the values schema; `undefined` (a chart without one) gives an open object type.
 * @param options - naming and output options.
 * @returns the TypeScript source text of a module.
 * @throws Error when `options.typeName` cannot name a type.
 * @throws ValuesSchemaError when types would nest deeper than {@link MAX_TYPE_DEPTH} levels (a
 *   long chain of `$ref`s).
 */
export function generateValuesTypes(schema: JsonSchema | undefined, options: GenerateValuesTypesOptions): string {
  if (!isValidTypeName(options.typeName)) {
    throw new Error(`typeName ${JSON.stringify(options.typeName)} cannot name a TypeScript type; use an identifier such as "MariadbValues"`);
  }
  return new Generator(schema ?? { type: 'object', description: 'The chart has no values schema: any values.' }, options).run();
}

interface Declaration {
  readonly name: string;
  text?: string | undefined;
}

/** Where a type is being rendered: inside the body of a type alias, outside any object or array. */
interface Context {
  // TypeScript rejects `type A = B | null; type B = A | string`: references that are neither in
  // an interface, an object literal nor an array element are resolved eagerly, so a cycle of them
  // is an error. `alias` is the alias whose body is being rendered at such a position.
  readonly alias?: object | undefined;
}

const GUARDED: Context = {};

/**
 * The deepest types nest, schemas entered through `$ref` included: the generator recurses once
 * per level. A schema itself nests at most `MAX_SCHEMA_DEPTH` (256) levels, so only a chain of
 * `$ref`s (each definition referring to the next) goes past this.
 */
export const MAX_TYPE_DEPTH = 512;

class Generator {
  private readonly names = new NameAllocator();
  private readonly resolver: RefResolver;
  private readonly declarations: Declaration[] = [];
  /** Interfaces of object schemas with named properties, by schema object. */
  private readonly interfaces = new Map<object, string>();
  /** Names of schemas that a `$ref` (or the root) names as a whole, by schema object. */
  private readonly named = new Map<object, string>();
  private readonly aliases = new Set<object>();
  /** Eager alias-to-alias references made so far; kept acyclic. */
  private readonly eagerRefs = new Map<object, Set<object>>();
  private readonly readonlyAll: boolean;
  private readonly openByDefault: boolean;
  /**
   * The chart's defaults at each object schema reached through nested `properties` from the root
   * (see `GenerateValuesTypesOptions.defaults`).
   */
  private readonly defaultsAt = new Map<object, Readonly<Record<string, unknown>>>();
  /** Schemas being rendered, outermost first, and the `$ref`s followed on the way. */
  private depth = 0;
  private readonly refs: string[] = [];

  constructor(
    private readonly root: JsonSchema,
    private readonly options: GenerateValuesTypesOptions,
  ) {
    this.resolver = new RefResolver(root);
    this.readonlyAll = options.readonly ?? false;
    this.openByDefault = options.additionalPropertiesByDefault ?? false;
  }

  public run(): string {
    // Helm values are always a map, so a root that says nothing about its shape is an open object.
    const rootShape = this.root === true || isConstraintOnly(this.root) ? { ...(isSchemaObject(this.root) ? this.root : {}), type: 'object' } : this.root;
    if (isSchemaObject(rootShape) && isPlainMapping(this.options.defaults)) this.defaultsAt.set(rootShape, this.options.defaults);
    const name = this.declare(rootShape, this.options.typeName);
    this.named.set(schemaKey(this.root), name);
    const header = (this.options.header ?? DEFAULT_HEADER).map((l) => `// ${l}`.trimEnd());
    const body = this.declarations.map((d) => d.text ?? '').join('\n\n');
    return `${header.length > 0 ? `${header.join('\n')}\n\n` : ''}${body}\n`;
  }

  /** Names a schema as a whole (the root, a `$ref` target) and emits its declaration once. */
  private declare(schema: JsonSchema, base: string): string {
    const key = schemaKey(schema);
    const existing = this.named.get(key);
    if (existing) return existing;
    if (isSchemaObject(schema) && this.isPlainInterface(schema)) {
      const name = this.interfaceFor(schema, base);
      this.named.set(key, name);
      return name;
    }
    const declaration: Declaration = { name: this.names.allocate(base) };
    this.declarations.push(declaration);
    this.named.set(key, declaration.name);
    this.aliases.add(key);
    // Branches are named from the alias; the object part of the schema itself needs a name of its own.
    const type = this.typeOf(schema, declaration.name, { alias: key }, `${declaration.name}Object`);
    const head = `export type ${declaration.name} =`;
    declaration.text = `${printDoc(docLines(schema), '')}${head}${printAliasBody(type, head.length)};`;
    return declaration.name;
  }

  /** True when the schema is just an object with named properties, so one interface says it all. */
  private isPlainInterface(schema: JsonSchemaObject): boolean {
    if (['$ref', '$recursiveRef', '$dynamicRef', 'enum', 'const'].some((k) => k in schema)) return false;
    if (schema.nullable === true || schema['x-kubernetes-int-or-string'] === true) return false;
    const types = schema.type === undefined ? this.inferredTypes(schema) : typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!Array.isArray(types) || types.length !== 1 || types[0] !== 'object') return false;
    if (!hasNamedMembers(schema)) return false;
    return ['allOf', 'anyOf', 'oneOf'].every((k) => {
      const branches = schemaList(schema[k]);
      return branches === undefined || branches.every(isConstraintOnly);
    });
  }

  private typeOf(schema: JsonSchema, base: string, ctx: Context, ownBase = base): TypeNode {
    if (this.depth >= MAX_TYPE_DEPTH) {
      const file = schemaSource(this.root) ?? 'values schema';
      const last = this.refs[this.refs.length - 1];
      throw new ValuesSchemaError(
        `${file}: types nest deeper than ${MAX_TYPE_DEPTH} levels${last === undefined ? '' : `, through ${this.refs.length} nested $refs (the last ${JSON.stringify(last)})`}; armada-cdk generates types up to ${MAX_TYPE_DEPTH} levels deep`,
        { file: schemaSource(this.root) },
      );
    }
    this.depth++;
    try {
      return this.typeOfAtDepth(schema, base, ctx, ownBase);
    } finally {
      this.depth--;
    }
  }

  private typeOfAtDepth(schema: JsonSchema, base: string, ctx: Context, ownBase: string): TypeNode {
    if (schema === true) return UNKNOWN;
    if (schema === false) return NEVER;
    if (!isSchemaObject(schema)) return unsupported('not a schema');
    const parts: TypeNode[] = [];
    if (typeof schema.$ref === 'string') parts.push(this.refType(schema.$ref, ctx));
    for (const k of ['$recursiveRef', '$dynamicRef']) {
      const ref = schema[k];
      if (typeof ref !== 'string') continue;
      parts.push(ref === '#' ? this.refType('#', ctx) : unsupported(`unsupported ${k} ${JSON.stringify(ref)}`));
    }
    const own = this.ownType(schema, ownBase);
    if (own) parts.push(own);
    const allOf = schemaList(schema.allOf);
    if (allOf) {
      allOf.forEach((branch, i) => {
        if (!isConstraintOnly(branch)) parts.push(this.typeOf(branch, `${base}${branchSuffix(branch, 'Part', i)}`, ctx));
      });
    }
    for (const k of ['anyOf', 'oneOf']) {
      const branches = schemaList(schema[k]);
      if (!branches || branches.length === 0 || branches.every(isConstraintOnly)) continue;
      parts.push(
        union(
          branches.map((branch, i) =>
            isConstraintOnly(branch) ? UNKNOWN : this.typeOf(branch, `${base}${branchSuffix(branch, 'Option', i)}`, ctx),
          ),
        ),
      );
    }
    const type = parts.length === 0 ? UNKNOWN : intersection(parts);
    // OpenAPI's `nullable`, found in schemas converted from Kubernetes' OpenAPI documents.
    return schema.nullable === true ? union([type, keyword('null')]) : type;
  }

  /** The type from `type`, `enum`, `const` and the object and array keywords, if any. */
  private ownType(schema: JsonSchemaObject, base: string): TypeNode | undefined {
    if ('const' in schema) return jsonLiteral(schema.const);
    const types: unknown = schema.type ?? this.inferredTypes(schema);
    if (Array.isArray(schema.enum)) {
      const allowed = typeof types === 'string' ? [types] : Array.isArray(types) ? types : undefined;
      // A value that the schema's `type` rejects can never be given, whatever `enum` lists.
      return union(schema.enum.filter((v) => allowed === undefined || allowed.some((t) => jsonHasType(v, t))).map(jsonLiteral));
    }
    if (schema['x-kubernetes-int-or-string'] === true) return union([keyword('number'), keyword('string')]);
    if (types === undefined) return undefined;
    const list = typeof types === 'string' ? [types] : Array.isArray(types) ? types : undefined;
    if (!list) return unsupported(`unsupported type ${JSON.stringify(types)}`);
    return union(list.map((t) => this.typeForName(t, schema, base)));
  }

  private inferredTypes(schema: JsonSchemaObject): string[] | undefined {
    const types: string[] = [];
    if (OBJECT_KEYWORDS.some((k) => k in schema) || schema['x-kubernetes-preserve-unknown-fields'] === true) types.push('object');
    if (ARRAY_KEYWORDS.some((k) => k in schema)) types.push('array');
    return types.length > 0 ? types : undefined;
  }

  private typeForName(type: unknown, schema: JsonSchemaObject, base: string): TypeNode {
    switch (type) {
      case 'string':
      case 'boolean':
      case 'null':
        return keyword(type);
      case 'number':
      case 'integer':
        return keyword('number');
      case 'object':
        return this.objectType(schema, base);
      case 'array':
        return this.arrayType(schema, base);
      case 'any':
        // Draft-03 spelling, still found in old charts.
        return UNKNOWN;
      default:
        return unsupported(`unsupported type ${JSON.stringify(type)}`);
    }
  }

  private objectType(schema: JsonSchemaObject, base: string): TypeNode {
    if (hasNamedMembers(schema)) return reference(this.interfaceFor(schema, base));
    const index = this.indexSignature(schema, base, false);
    if (!index) return { kind: 'object', members: [{ kind: 'index', type: NEVER, readonly: this.readonlyAll, doc: [] }] };
    return { kind: 'object', members: [index] };
  }

  /**
   * The index signature of an object schema, from `additionalProperties` and `patternProperties`
   * (`unevaluatedProperties` standing in for the first when it is absent), or `undefined` when no
   * other key is allowed.
   */
  private indexSignature(schema: JsonSchemaObject, base: string, named: boolean): (MemberNode & { kind: 'index' }) | undefined {
    const parts: TypeNode[] = [];
    const doc: string[] = [];
    const additional = 'additionalProperties' in schema ? schema.additionalProperties : schema.unevaluatedProperties;
    if (isSchema(additional)) {
      if (additional !== false) parts.push(this.typeOf(additional, `${base}Value`, GUARDED));
    } else if (!named || this.openByDefault || schema['x-kubernetes-preserve-unknown-fields'] === true) {
      parts.push(UNKNOWN);
    }
    const otherKeys = parts.length > 0;
    const patterns = schemaEntries(schema.patternProperties);
    for (const [, patternSchema] of patterns) {
      parts.push(this.typeOf(patternSchema, `${base}Value`, GUARDED));
    }
    if (parts.length === 0) return undefined;
    if (patterns.length > 0) {
      const list = patterns.map(([p]) => `\`${p}\``).join(', ');
      doc.push(otherKeys ? `Other keys, including those matching ${list}.` : `Keys matching ${list}.`);
    }
    return { kind: 'index', type: union(parts), readonly: this.readonlyAll, doc };
  }

  /** The interface of an object schema with named properties, emitted once per schema object. */
  private interfaceFor(schema: JsonSchemaObject, base: string): string {
    const existing = this.interfaces.get(schema);
    if (existing) return existing;
    const declaration: Declaration = { name: this.names.allocate(base) };
    this.declarations.push(declaration);
    this.interfaces.set(schema, declaration.name);

    const required = new Set(stringList(schema.required));
    const defaults = this.defaultsAt.get(schema);
    const defaulted = (key: string) => defaults !== undefined && Object.hasOwn(defaults, key) && defaults[key] !== null && defaults[key] !== undefined;
    const members: MemberNode[] = [];
    const declared = new Set<string>();
    // Entries that are not schemas stay, as `unknown` with a comment, so the reader sees the key
    // and why it has no type.
    for (const [key, propSchema] of Object.entries(isSchemaObject(schema.properties) ? schema.properties : {}) as [string, JsonSchema][]) {
      declared.add(key);
      const prop = isSchemaObject(propSchema) ? propSchema : undefined;
      const own = defaulted(key) ? defaults![key] : undefined;
      if (prop !== undefined && isPlainMapping(own) && !this.defaultsAt.has(prop)) this.defaultsAt.set(prop, own);
      // A boolean `required` on the property itself is draft-03, and still common in charts.
      const isRequired = required.has(key) || (prop?.required as unknown) === true;
      const doc = docLines(propSchema);
      members.push({
        kind: 'property',
        key,
        type: this.typeOf(propSchema, `${declaration.name}${pascalCase(key) || 'Property'}`, GUARDED),
        optional: !isRequired || defaulted(key),
        readonly: this.readonlyAll || prop?.readOnly === true,
        doc: isRequired && defaulted(key) ? [...doc, ...(doc.length > 0 ? [''] : []), "Required by the schema; optional here because the chart's values.yaml sets it."] : doc,
      });
    }
    let index = this.indexSignature(schema, declaration.name, true);
    for (const key of required) {
      if (declared.has(key)) continue;
      // Required without a schema of its own: whatever the index signature allows.
      members.push({ kind: 'property', key, type: index?.type ?? UNKNOWN, optional: defaulted(key), readonly: this.readonlyAll, doc: [] });
    }
    if (index) {
      // TypeScript requires every named property to fit the index signature, an optional one
      // with `undefined` (under strictNullChecks).
      const optional = members.some((m) => m.kind === 'property' && m.optional);
      const withNamed = union([index.type, ...members.map((m) => m.type)]);
      const widened = optional ? union([withNamed, keyword('undefined')]) : withNamed;
      if (printType(widened) !== printType(index.type)) {
        const note =
          printType(withNamed) === printType(index.type)
            ? 'With `undefined` for the optional properties, as TypeScript requires.'
            : 'Widened to the types of the named properties, as TypeScript requires.';
        index = { ...index, type: widened, doc: [...index.doc, ...(index.doc.length > 0 ? [''] : []), note] };
      }
      members.push(index);
    }
    const body = members.map((m) => printMemberWithDoc(m, '  ')).join('\n');
    declaration.text = `${printDoc(docLines(schema), '')}export interface ${declaration.name} {${body ? `\n${body}\n` : ''}}`;
    return declaration.name;
  }

  private arrayType(schema: JsonSchemaObject, base: string): TypeNode {
    const prefix = schemaList(schema.prefixItems) ?? (Array.isArray(schema.items) ? schemaList(schema.items) : undefined);
    if (prefix) {
      const restSchema = schema.prefixItems !== undefined ? schema.items : schema.additionalItems;
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
      const elements = prefix.slice(0, Math.min(prefix.length, maxItems)).map((item, i) => ({
        type: this.typeOf(item, `${base}Item${i}`, GUARDED),
        optional: i >= minItems,
      }));
      let rest: TypeNode | undefined;
      if (maxItems > prefix.length && restSchema !== false) {
        rest = isSchema(restSchema) ? this.typeOf(restSchema, `${base}Item`, GUARDED) : UNKNOWN;
        if (rest.kind === 'keyword' && rest.name === 'never') rest = undefined;
      }
      return rest ? { kind: 'tuple', elements, rest, readonly: this.readonlyAll } : { kind: 'tuple', elements, readonly: this.readonlyAll };
    }
    if (schema.items === false) return { kind: 'tuple', elements: [], readonly: this.readonlyAll };
    const element = isSchema(schema.items) ? this.typeOf(schema.items, `${base}Item`, GUARDED) : UNKNOWN;
    return { kind: 'array', element, readonly: this.readonlyAll };
  }

  private refType(ref: string, ctx: Context): TypeNode {
    const resolved = this.resolver.resolve(ref);
    if (!resolved.ok) return unsupported(resolved.reason);
    const target = resolved.schema;
    this.refs.push(ref);
    let name: string;
    try {
      name = this.declare(target, this.refBaseName(resolved.segments));
    } finally {
      this.refs.pop();
    }
    const key = schemaKey(target);
    if (ctx.alias && this.aliases.has(key)) {
      if (key === ctx.alias || this.reaches(key, ctx.alias)) return unsupported(`circular $ref ${JSON.stringify(ref)}`);
      let edges = this.eagerRefs.get(ctx.alias);
      if (!edges) this.eagerRefs.set(ctx.alias, (edges = new Set()));
      edges.add(key);
    }
    return reference(name);
  }

  private reaches(from: object, to: object): boolean {
    const seen = new Set<object>();
    const stack = [from];
    while (stack.length > 0) {
      const node = stack.pop() as object;
      if (node === to) return true;
      if (seen.has(node)) continue;
      seen.add(node);
      for (const next of this.eagerRefs.get(node) ?? []) stack.push(next);
    }
    return false;
  }

  /** `#/definitions/tls-config` → `MariadbValuesTlsConfig`; `#/properties/pod/items` → `MariadbValuesPodItem`. */
  private refBaseName(segments: readonly string[]): string {
    const words: string[] = [];
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] as string;
      const next = segments[i + 1];
      const index = next !== undefined && /^[0-9]+$/.test(next) ? Number(next) : undefined;
      if (NAME_MAPS.has(segment) && next !== undefined) {
        words.push(pascalCase(next) || 'Property');
        i++;
      } else if (BRANCH_WORDS[segment] !== undefined && index !== undefined) {
        const word = BRANCH_WORDS[segment] as string;
        words.push(word === 'Item' ? `Item${index}` : `${word}${index + 1}`);
        i++;
      } else if (segment === 'items' || segment === 'additionalItems') {
        words.push('Item');
      } else if (segment === 'additionalProperties') {
        words.push('Value');
      } else {
        words.push(pascalCase(segment));
      }
    }
    return `${this.options.typeName}${words.join('')}`;
  }
}

/** Boolean schemas cannot be map keys by identity; two module-level objects stand for them. */
const TRUE_KEY = {};
const FALSE_KEY = {};
function schemaKey(schema: JsonSchema): object {
  return schema === true ? TRUE_KEY : schema === false ? FALSE_KEY : schema;
}

function hasNamedMembers(schema: JsonSchemaObject): boolean {
  const properties = isSchemaObject(schema.properties) ? Object.keys(schema.properties) : [];
  return properties.length > 0 || stringList(schema.required).length > 0;
}

function isConstraintOnly(schema: JsonSchema): boolean {
  if (!isSchemaObject(schema)) return false;
  return !SHAPE_KEYWORDS.some((k) => k in schema);
}

function branchSuffix(branch: JsonSchema, word: string, index: number): string {
  const title = isSchemaObject(branch) && typeof branch.title === 'string' ? pascalCase(branch.title) : '';
  return title || `${word}${index + 1}`;
}

function jsonHasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/** An alias body on one line, or one union member per line when that line would be long. */
function printAliasBody(type: TypeNode, headLength: number): string {
  const text = printType(type, '');
  if (type.kind !== 'union' || headLength + text.length + 2 <= 100) return ` ${text}`;
  return `\n${type.members.map((m) => `  | ${printType(m, '  ')}`).join('\n')}`;
}

function isPlainMapping(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
