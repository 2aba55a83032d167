/**
 * Ajv errors turned into violations that say where, what was received and what is allowed.
 * Ajv reports every failing branch of an `anyOf`/`oneOf` separately; those are folded into one
 * violation, or into the errors of the one branch that the value's shape matched.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { plural, suggest, SuggestionRules } from '../model/diagnostics';
import { formatValuePath, pointerToPath, ValuePath } from './json-path';
import { isSchemaObject, JsonSchema, JsonSchemaObject, schemaEntries, schemaList, stringList } from './json-schema';
import { RefResolver } from './refs';

/** One place where values break their chart's schema. */
export interface ValuesSchemaViolation {
  /** JSON path of the value: `pod.replicas.server`, `images.tags["db-init"]`, `conf.list[2]`; `''` for the whole values. */
  readonly path: string;
  /** What was received and what is allowed. */
  readonly message: string;
}

const MAX_SHOWN_LENGTH = 60;
// Errors about one key of an object, reported at the object's own path.
const KEY_KEYWORDS = new Set(['additionalProperties', 'unevaluatedProperties', 'propertyNames']);
// Errors that reject a value as a whole rather than some detail of it.
const REJECTING_KEYWORDS = new Set(['type', 'const', 'enum', 'false schema', 'not', 'anyOf', 'oneOf']);
const MAX_LISTED = 20;

/** Re-runs one branch of an `anyOf`/`oneOf` (the branch array as an error's `schema` holds it). */
export type BranchValidator = (branches: unknown, index: number) => ValidateFunction | undefined;

/** Converts Ajv's errors (from a validator compiled with `allErrors` and `verbose`). */
export function violationsFromErrors(
  errors: readonly ErrorObject[],
  values: unknown,
  schema: JsonSchema,
  branch: BranchValidator,
): ValuesSchemaViolation[] {
  const out: ValuesSchemaViolation[] = [];
  const seen = new Set<string>();
  for (const m of new Converter(values, schema, branch).convertAll(errors)) {
    const path = formatValuePath(m.path);
    const key = `${path}\n${m.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message: m.text });
  }
  return out;
}

interface Message {
  readonly path: ValuePath;
  readonly text: string;
}

class Converter {
  private readonly resolver: RefResolver;

  constructor(
    private readonly values: unknown,
    schema: JsonSchema,
    private readonly branch: BranchValidator,
  ) {
    this.resolver = new RefResolver(schema);
  }

  /**
   * Ajv leaves the errors of every branch of a failed `anyOf`/`oneOf` right before the error of
   * the `anyOf` itself. Their number is known by running each branch again on the same value,
   * which also tells which branch each error came from: so the list is read from the end, and
   * each `anyOf` takes its branches' errors with it.
   */
  public convertAll(errors: readonly ErrorObject[]): Message[] {
    const out: Message[][] = [];
    let i = errors.length - 1;
    while (i >= 0) {
      const e = errors[i] as ErrorObject;
      if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
        const branches = this.branchErrors(e);
        const taken = branches ? branches.reduce((n, b) => n + b.length, 0) : 0;
        const block = errors.slice(Math.max(0, i - taken), i);
        if (branches && block.length === taken && block.every((b) => isWithin(b.instancePath, e.instancePath))) {
          out.push(this.convertAlternatives(e, branches));
          i -= taken + 1;
          continue;
        }
        // The branches could not be run again: report what is allowed, and leave their errors be.
        out.push(this.convertAlternatives(e, undefined));
        i--;
        continue;
      }
      out.push(this.convertOne(e, errors));
      i--;
    }
    return out.reverse().flat();
  }

  /** The errors of each branch for the value that failed them, with paths from the values' root. */
  private branchErrors(e: ErrorObject): ErrorObject[][] | undefined {
    if (!Array.isArray(e.schema)) return undefined;
    const result: ErrorObject[][] = [];
    for (let index = 0; index < e.schema.length; index++) {
      const validate = this.branch(e.schema, index);
      if (!validate) return undefined;
      validate(e.data);
      result.push((validate.errors ?? []).map((b) => ({ ...b, instancePath: `${e.instancePath}${b.instancePath}` })));
    }
    return result;
  }

  private convertOne(e: ErrorObject, siblings: readonly ErrorObject[]): Message[] {
    // The errors of the `then`/`else` schema say what is wrong; the `if` error only that one of them failed.
    if (e.keyword === 'if') return [];
    // Likewise, each failing key has an error of its own, marked with `propertyName`.
    if (e.keyword === 'propertyNames' && siblings.some((o) => o.propertyName !== undefined && o.instancePath === e.instancePath)) return [];
    const path = pointerToPath(e.instancePath, this.values);
    if (e.propertyName !== undefined) {
      return [{ path: [...path, e.propertyName], text: `invalid key ${show(e.propertyName)}: ${this.describeError(e).expected}` }];
    }
    const { received, expected, key } = this.describeError(e);
    return [{ path: key === undefined ? path : [...path, key], text: received === undefined ? expected : `received ${received}; ${expected}` }];
  }

  private convertAlternatives(e: ErrorObject, branchErrors: ErrorObject[][] | undefined): Message[] {
    const path = pointerToPath(e.instancePath, this.values);
    const branches = Array.isArray(e.schema) ? (e.schema as JsonSchema[]) : [];
    const passing = (e.params as { passingSchemas?: unknown }).passingSchemas;
    if (e.keyword === 'oneOf' && Array.isArray(passing)) {
      const list = passing.map((n) => `${Number(n) + 1}: ${this.describeSchema(branches[Number(n)], Number(n))}`).join(', ');
      return [{ path, text: `received ${showValue(e.data)}; matches more than one alternative (${list}) but must match exactly one` }];
    }
    // For an object or array, the branch the user meant is the one whose errors are all inside
    // the value (wrong fields of the right kind of object), or failing that the only one that
    // does not reject the value outright; its errors say more than a list of alternatives.
    if (typeof e.data === 'object' && e.data !== null && branchErrors) {
      const inside = (b: ErrorObject): boolean =>
        b.instancePath.startsWith(`${e.instancePath}/`) || KEY_KEYWORDS.has(b.keyword) || b.propertyName !== undefined;
      const rejects = (b: ErrorObject): boolean => b.instancePath === e.instancePath && REJECTING_KEYWORDS.has(b.keyword);
      const deep = branchErrors.filter((errs) => errs.length > 0 && errs.every(inside));
      const near = branchErrors.filter((errs) => errs.length > 0 && !errs.some(rejects));
      const meant = deep.length === 1 ? deep[0] : near.length === 1 ? near[0] : undefined;
      if (meant) return this.convertAll(meant);
    }
    const alternatives = unique(branches.map((b, i) => this.describeSchema(b, i)));
    const verb = e.keyword === 'oneOf' ? 'must be exactly one of' : 'must be';
    const text = alternatives.length === 1 ? `must be ${alternatives[0]}` : `${verb} ${orList(alternatives)}`;
    return [{ path, text: `received ${showValue(e.data)}; ${text}` }];
  }

  private describeError(e: ErrorObject): { received?: string | undefined; expected: string; key?: string | undefined } {
    const p = e.params as Record<string, unknown>;
    const data = e.data;
    const parent = isSchemaObject(e.parentSchema) ? (e.parentSchema as JsonSchemaObject) : {};
    switch (e.keyword) {
      case 'type': {
        const types = Array.isArray(p.type) ? p.type.map(String) : String(p.type).split(',');
        return { received: showValue(data), expected: `must be ${orList(types)}` };
      }
      case 'required':
        return { expected: `missing required key ${show(p.missingProperty)}` };
      case 'dependencies':
      case 'dependentRequired':
        return { expected: `missing required key ${show(p.missingProperty)} (required when ${show(p.property)} is set)` };
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        const key = String(e.keyword === 'additionalProperties' ? p.additionalProperty : p.unevaluatedProperty);
        return { expected: unknownKeyMessage(key, this.allowedKeys(parent, e.keyword === 'unevaluatedProperties')), key };
      }
      case 'enum': {
        const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : Array.isArray(e.schema) ? e.schema : [];
        const list = allowed.slice(0, MAX_LISTED).map(showValue).join(', ') + (allowed.length > MAX_LISTED ? ', ...' : '');
        return { received: showValue(data), expected: allowed.length === 1 ? `must be ${list}` : `must be one of ${list}` };
      }
      case 'const':
        return { received: showValue(data), expected: `must be ${showValue(p.allowedValue)}` };
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        return { received: showValue(data), expected: `must be ${String(p.comparison)} ${String(p.limit)}` };
      case 'multipleOf':
        return { received: showValue(data), expected: `must be a multiple of ${String(p.multipleOf)}` };
      case 'minLength':
      case 'maxLength': {
        const length = typeof data === 'string' ? [...data].length : 0;
        const bound = e.keyword === 'minLength' ? 'at least' : 'at most';
        return { received: `${showValue(data)} (${plural(length, 'character')})`, expected: `must be ${bound} ${plural(Number(p.limit), 'character')} long` };
      }
      case 'pattern':
        return { received: showValue(data), expected: `must match pattern ${show(p.pattern)}` };
      case 'format':
        return { received: showValue(data), expected: `must be a valid ${String(p.format)}` };
      case 'minItems':
      case 'maxItems':
      case 'additionalItems':
      case 'items':
      case 'unevaluatedItems': {
        const length = Array.isArray(data) ? data.length : 0;
        const limit = Number(p.limit ?? p.len);
        const bound = e.keyword === 'minItems' ? 'at least' : 'at most';
        return { received: plural(length, 'item'), expected: `must have ${bound} ${plural(limit, 'item')}` };
      }
      case 'minProperties':
      case 'maxProperties': {
        const size = typeof data === 'object' && data !== null ? Object.keys(data).length : 0;
        const bound = e.keyword === 'minProperties' ? 'at least' : 'at most';
        return { received: plural(size, 'key'), expected: `must have ${bound} ${plural(Number(p.limit), 'key')}` };
      }
      case 'uniqueItems':
        return { received: `equal items [${Math.min(Number(p.i), Number(p.j))}] and [${Math.max(Number(p.i), Number(p.j))}]`, expected: 'items must be unique' };
      case 'not':
        return { received: showValue(data), expected: `must not be ${this.describeSchema(e.schema as JsonSchema, 0)}` };
      case 'false schema': {
        const path = pointerToPath(e.instancePath, this.values);
        const last = path[path.length - 1];
        if (typeof last === 'string') return { expected: `key ${show(last)} is not allowed here` };
        return { received: showValue(data), expected: 'no value is allowed here' };
      }
      default:
        return { received: showValue(data), expected: e.message ?? `fails "${e.keyword}"` };
    }
  }

  /** The keys an object schema names, through its compositions and local `$ref`s, plus its patterns. */
  private allowedKeys(schema: JsonSchemaObject, throughCompositions: boolean): { names: string[]; patterns: string[] } {
    const names: string[] = [];
    const patterns: string[] = [];
    const seen = new Set<object>();
    const visit = (s: unknown, depth: number): void => {
      if (!isSchemaObject(s) || seen.has(s) || depth > 8) return;
      seen.add(s);
      for (const [name] of schemaEntries(s.properties)) if (!names.includes(name)) names.push(name);
      for (const [pattern] of schemaEntries(s.patternProperties)) if (!patterns.includes(pattern)) patterns.push(pattern);
      if (!throughCompositions) return;
      if (typeof s.$ref === 'string') {
        const target = this.resolver.resolve(s.$ref);
        if (target.ok) visit(target.schema, depth + 1);
      }
      for (const k of ['allOf', 'anyOf', 'oneOf']) for (const b of schemaList(s[k]) ?? []) visit(b, depth + 1);
      for (const k of ['then', 'else']) visit(s[k], depth + 1);
      for (const [, b] of schemaEntries(s.dependentSchemas)) visit(b, depth + 1);
    };
    visit(schema, 0);
    return { names, patterns };
  }

  /** A short noun phrase for what a schema accepts: `integer`, `string matching pattern "^a"`, `"x"`. */
  private describeSchema(schema: JsonSchema | undefined, index: number, depth = 0): string {
    if (schema === true) return 'anything';
    if (schema === false) return 'nothing';
    if (!isSchemaObject(schema)) return `alternative ${index + 1}`;
    if ('const' in schema) return showValue(schema.const);
    if (Array.isArray(schema.enum)) {
      return schema.enum.length === 1 ? showValue(schema.enum[0]) : `one of ${schema.enum.slice(0, MAX_LISTED).map(showValue).join(', ')}`;
    }
    if (typeof schema.$ref === 'string' && depth < 3) {
      const target = this.resolver.resolve(schema.$ref);
      if (target.ok) return this.describeSchema(target.schema, index, depth + 1);
    }
    const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type.map(String) : [];
    if (types.length === 0 && schemaEntries(schema.properties).length > 0) types.push('object');
    if (types.length === 0) return `alternative ${index + 1}`;
    return orList(
      types.map((t) => {
        if (t === 'string' && typeof schema.pattern === 'string') return `string matching pattern ${show(schema.pattern)}`;
        if (t === 'string' && typeof schema.format === 'string') return `string in format ${show(schema.format)}`;
        const required = stringList(schema.required);
        if (t === 'object' && required.length > 0) return `object with ${required.length === 1 ? 'key' : 'keys'} ${required.map(show).join(', ')}`;
        return t;
      }),
    );
  }
}

function unknownKeyMessage(key: string, allowed: { names: string[]; patterns: string[] }): string {
  const parts = [...allowed.names.slice(0, MAX_LISTED).map(show)];
  if (allowed.names.length > MAX_LISTED) parts.push('...');
  if (allowed.patterns.length > 0) parts.push(`keys matching ${allowed.patterns.map(show).join(', ')}`);
  const suggestion = suggest(key, allowed.names, SuggestionRules.VALUES_KEY);
  const hint = suggestion ? ` (did you mean ${show(suggestion)}?)` : '';
  if (parts.length === 0) return `unknown key ${show(key)}; no keys are allowed here`;
  return `unknown key ${show(key)}${hint}; allowed: ${parts.join(', ')}`;
}

/** A value as it appears in a message: scalars as JSON (long strings cut), containers by kind. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  if (typeof value === 'string') return show(value);
  return String(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN_LENGTH ? `${text.slice(0, MAX_SHOWN_LENGTH - 2)}…"` : text;
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function isWithin(pointer: string, parent: string): boolean {
  return pointer === parent || pointer.startsWith(`${parent}/`);
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}
