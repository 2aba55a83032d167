/**
 * JSON schemas from TypeScript interfaces, through the TypeScript compiler's type checker: the
 * engine behind the CRD generator (structural OpenAPI v3, everything inlined) and behind the
 * tests' Kubernetes schemas (named definitions, wire names from `@schema` tags).
 *
 * Only the type vocabulary of wire shapes is supported (interfaces, string/number/boolean,
 * literal and enum unions, arrays, string-keyed records, `unknown`); anything else is an error
 * naming the type and the property path, never a silently looser schema.
 */
import * as ts from 'typescript';

/** A JSON schema node (the subset produced here). */
export interface JsonSchema {
  type?: string | undefined;
  description?: string | undefined;
  properties?: Record<string, JsonSchema> | undefined;
  required?: string[] | undefined;
  additionalProperties?: JsonSchema | boolean | undefined;
  items?: JsonSchema | undefined;
  enum?: (string | number | boolean)[] | undefined;
  format?: string | undefined;
  pattern?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  anyOf?: JsonSchema[] | undefined;
  $ref?: string | undefined;
  'x-kubernetes-preserve-unknown-fields'?: boolean | undefined;
  'x-kubernetes-int-or-string'?: boolean | undefined;
}

/** How the walk treats names, references and special types. */
export interface SchemaOptions {
  /**
   * `inline` writes every interface where it is used (structural schemas have no `$ref`) and
   * fails on recursion; `definitions` writes each named interface once, under `definitions`.
   */
  readonly mode: 'inline' | 'definitions';
  /** The wire name of a property. @default - the property name */
  readonly propertyName?: ((property: ts.Symbol) => string) | undefined;
  /** Schemas for named types the walk must not look into (classes such as IntOrString). */
  readonly overrides?: Readonly<Record<string, JsonSchema>> | undefined;
  /** Whether object schemas reject unknown properties (`additionalProperties: false`). @default false */
  readonly closed?: boolean | undefined;
  /** Whether descriptions are written. @default true */
  readonly descriptions?: boolean | undefined;
  /** What `number | string` means. @default 'int-or-string' (x-kubernetes-int-or-string) */
  readonly numberOrString?: 'int-or-string' | 'any-of' | undefined;
}

/** The schemas of some named types, and the definitions they refer to (definitions mode). */
export interface SchemaResult {
  readonly schemas: Record<string, JsonSchema>;
  readonly definitions: Record<string, JsonSchema>;
}

const PASSTHROUGH_NUMBER_TAGS = ['minimum', 'maximum', 'minLength', 'maxLength'] as const;

/** Creates a program over `files` for {@link schemasFor}. */
export function createSchemaProgram(files: readonly string[]): ts.Program {
  return ts.createProgram([...files], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
  });
}

/** Finds an exported interface or type alias by name in `file`. */
function findDeclaration(program: ts.Program, file: string, name: string): ts.Declaration {
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`schema generator: ${file} is not part of the program`);
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(source);
  const exported = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
  const symbol = exported.find((s) => s.name === name);
  const decl = symbol?.declarations?.[0];
  if (!decl) throw new Error(`schema generator: ${file} exports no type named ${name}`);
  return decl;
}

/** JSON schemas of the named exported types of `file`. */
export function schemasFor(program: ts.Program, file: string, names: readonly string[], options: SchemaOptions): SchemaResult {
  const walker = new Walker(program.getTypeChecker(), options);
  const schemas: Record<string, JsonSchema> = {};
  for (const name of names) {
    const decl = findDeclaration(program, file, name);
    const type = walker.checker.getTypeAtLocation(decl);
    schemas[name] = walker.named(type, name, [name]);
  }
  return { schemas, definitions: walker.definitions };
}

class Walker {
  public readonly definitions: Record<string, JsonSchema> = {};
  private readonly inProgress: string[] = [];

  constructor(
    public readonly checker: ts.TypeChecker,
    private readonly options: SchemaOptions,
  ) {}

  /** The schema of a named interface: its own description, then its properties. */
  public named(type: ts.Type, name: string, path: string[]): JsonSchema {
    if (this.inProgress.includes(name)) {
      throw new Error(`schema generator: ${path.join('.')}: ${name} refers to itself, which a structural schema cannot express`);
    }
    this.inProgress.push(name);
    try {
      return this.object(type, path, docOf(this.checker, type.getSymbol() ?? type.aliasSymbol));
    } finally {
      this.inProgress.pop();
    }
  }

  private describe(schema: JsonSchema, description: string | undefined): JsonSchema {
    if (description === undefined || description === '' || this.options.descriptions === false) return schema;
    // `description` first: the generated files read like upstream CRDs.
    return { description, ...schema };
  }

  /** The schema of a property's type, with the property's own tags and description. */
  private property(symbol: ts.Symbol, path: string[]): JsonSchema {
    const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!decl) throw new Error(`schema generator: ${path.join('.')}: no declaration`);
    const tags = tagsOf(symbol);
    const type = this.checker.getTypeOfSymbolAtLocation(symbol, decl);
    const schema = this.type(stripUndefined(this.checker, type), path, tags);
    for (const tag of PASSTHROUGH_NUMBER_TAGS) {
      if (tags[tag] !== undefined) (schema as Record<string, unknown>)[tag] = Number(tags[tag]);
    }
    if (tags.pattern !== undefined) schema.pattern = tags.pattern.replace(/\*\\\//g, '*/');
    const own = docOf(this.checker, symbol);
    if (own !== undefined) {
      const { description: _inherited, ...rest } = schema;
      void _inherited;
      return this.describe(rest, own);
    }
    return schema;
  }

  private type(type: ts.Type, path: string[], tags: Record<string, string | undefined> = {}): JsonSchema {
    const c = this.checker;
    const override = this.override(type);
    if (override) return override;
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { 'x-kubernetes-preserve-unknown-fields': true };
    if (type.flags & ts.TypeFlags.String) return withFormat({ type: 'string' }, tags);
    if (type.flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (type.flags & ts.TypeFlags.Number) {
      const integer = tags.integer !== undefined || tags.format === 'int32' || tags.format === 'int64';
      return withFormat({ type: integer ? 'integer' : 'number' }, tags);
    }
    if (type.isStringLiteral()) return { type: 'string', enum: [type.value] };
    if (type.isUnion()) return this.union(type, path, tags);
    if (c.isArrayType(type)) {
      const [element] = c.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: this.type(element, [...path, '[]']) };
    }
    if (type.flags & ts.TypeFlags.Object) {
      const symbol = type.getSymbol();
      const name = symbol && symbol.name !== '__type' && symbol.name !== '__object' ? symbol.name : undefined;
      const isInterface = symbol !== undefined && (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class)) !== 0;
      if (this.options.mode === 'definitions' && name !== undefined && isInterface && c.getPropertiesOfType(type).length > 0) {
        if (!(name in this.definitions) && !this.inProgress.includes(name)) {
          this.definitions[name] = {}; // reserved first: recursive types refer to it while it is built
          this.definitions[name] = this.named(type, name, [name]);
        }
        return { $ref: `#/definitions/${name}` };
      }
      if (name !== undefined && isInterface) return this.named(type, name, path);
      return this.object(type, path, undefined);
    }
    throw new Error(`schema generator: ${path.join('.')}: unsupported type ${c.typeToString(type)}`);
  }

  private override(type: ts.Type): JsonSchema | undefined {
    const name = type.getSymbol()?.name ?? type.aliasSymbol?.name;
    const o = name !== undefined ? this.options.overrides?.[name] : undefined;
    return o === undefined ? undefined : JSON.parse(JSON.stringify(o));
  }

  private union(type: ts.UnionType, path: string[], tags: Record<string, string | undefined>): JsonSchema {
    const parts = type.types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)));
    if (parts.length === 1) return this.type(parts[0], path, tags);
    // `boolean` is the union true | false.
    if (parts.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) return { type: 'boolean' };
    if (parts.every((t) => t.isStringLiteral())) {
      return { type: 'string', enum: parts.map((t) => (t as ts.StringLiteralType).value) };
    }
    const kinds = new Set(parts.map((t) => (t.flags & ts.TypeFlags.NumberLike ? 'number' : t.flags & ts.TypeFlags.StringLike ? 'string' : 'other')));
    if (kinds.size === 2 && kinds.has('number') && kinds.has('string')) {
      if (this.options.numberOrString === 'any-of') return { anyOf: [{ type: 'number' }, { type: 'string' }] };
      return { 'x-kubernetes-int-or-string': true };
    }
    throw new Error(`schema generator: ${path.join('.')}: unsupported union ${this.checker.typeToString(type)}`);
  }

  private object(type: ts.Type, path: string[], description: string | undefined): JsonSchema {
    const c = this.checker;
    const props = c.getPropertiesOfType(type).filter((p) => !(p.flags & ts.SymbolFlags.Method));
    const index = c.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
    if (props.length === 0 && index === undefined) {
      throw new Error(`schema generator: ${path.join('.')}: ${c.typeToString(type)} has no properties; use Record<string, unknown> for a free-form object`);
    }
    if (props.length > 0 && index !== undefined) {
      throw new Error(`schema generator: ${path.join('.')}: ${c.typeToString(type)} has both properties and an index signature, which a structural schema cannot express`);
    }
    if (index !== undefined) {
      const value = stripUndefined(c, index.type);
      if (value.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) {
        return this.describe({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, description);
      }
      return this.describe({ type: 'object', additionalProperties: this.type(value, [...path, '*']) }, description);
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const p of props) {
      const wire = this.options.propertyName ? this.options.propertyName(p) : p.name;
      properties[wire] = this.property(p, [...path, wire]);
      if (!(p.flags & ts.SymbolFlags.Optional)) required.push(wire);
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    if (this.options.closed) schema.additionalProperties = false;
    return this.describe(schema, description);
  }
}

function withFormat(schema: JsonSchema, tags: Record<string, string | undefined>): JsonSchema {
  return tags.format === undefined ? schema : { ...schema, format: tags.format };
}

function stripUndefined(checker: ts.TypeChecker, type: ts.Type): ts.Type {
  // Not getNonNullableType: that turns `unknown` into `{}`.
  return type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) ? type : checker.getNonNullableType(type);
}

/** The documentation comment of a symbol, as one string (undefined when there is none). */
function docOf(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): string | undefined {
  if (!symbol) return undefined;
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  return text === '' ? undefined : text.replace(/\s*\n\s*/g, ' ');
}

/** A symbol's JSDoc tags by name (the text after the tag, trimmed; '' for a bare tag). */
function tagsOf(symbol: ts.Symbol): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const tag of symbol.getJsDocTags()) out[tag.name] = ts.displayPartsToString(tag.text).trim();
  return out;
}
