/**
 * The part of JSON Schema draft 4 that Deckhand's built-in schemas use (type, properties,
 * required, additionalProperties, pattern, enum, minItems, minProperties, minimum, items, anyOf,
 * allOf, dependencies), with the messages Python's `jsonschema` gives. Values under `data` are
 * never quoted in a message: they may be secrets.
 */
import { hasKey, isDict, pyRepr } from './python';
import { translatePattern } from './python-regex';

/** One finding: the path inside the validated value and jsonschema's message. */
export interface SchemaError {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

type Schema = Readonly<Record<string, unknown>>;

function typeOk(v: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return v === null;
    case 'string':
      return typeof v === 'string';
    case 'object':
      return isDict(v);
    case 'array':
      return Array.isArray(v);
    case 'number':
      return typeof v === 'number' || typeof v === 'bigint';
    case 'integer':
      return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

/** Validates `value` against `schema`; `quote` tells whether a value at a path may be shown. */
export function validateSchema(schema: Schema, value: unknown, quote: (path: readonly (string | number)[]) => boolean): SchemaError[] {
  const errors: SchemaError[] = [];
  const show = (v: unknown, path: readonly (string | number)[]) => {
    if (!quote(path)) return `the ${Array.isArray(v) ? 'list' : isDict(v) ? 'mapping' : 'value'}`;
    const text = pyRepr(v);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const walk = (s: Schema, v: unknown, path: (string | number)[], out: SchemaError[]) => {
    const add = (message: string) => out.push({ path: [...path], message });
    if (s['type'] !== undefined) {
      const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string];
      if (!types.some((t) => typeOk(v, t))) {
        add(`${show(v, path)} is not of type ${types.map((t) => `'${t}'`).join(', ')}`);
        return;
      }
    }
    if (Array.isArray(s['enum']) && !(s['enum'] as unknown[]).some((e) => e === v)) add(`${show(v, path)} is not one of ${pyRepr(s['enum'])}`);
    if (typeof s['pattern'] === 'string' && typeof v === 'string') {
      const rx = translatePattern(s['pattern']);
      if (!new RegExp(rx.source, rx.flags).test(v)) add(`${show(v, path)} does not match ${pyRepr(s['pattern'])}`);
    }
    if (typeof s['minimum'] === 'number' && typeof v === 'number' && v < s['minimum']) add(`${show(v, path)} is less than the minimum of ${s['minimum']}`);
    if (typeof s['minItems'] === 'number' && Array.isArray(v) && v.length < s['minItems']) add(`${show(v, path)} should be non-empty`);
    if (Array.isArray(s['anyOf'])) {
      const alternatives = s['anyOf'] as Schema[];
      if (!alternatives.some((alt) => { const tmp: SchemaError[] = []; walk(alt, v, path, tmp); return tmp.length === 0; })) {
        add(`${show(v, path)} is not valid under any of the given schemas`);
      }
    }
    if (Array.isArray(s['allOf'])) for (const sub of s['allOf'] as Schema[]) walk(sub, v, path, out);
    if (Array.isArray(v) && isDict(s['items'])) v.forEach((item, i) => walk(s['items'] as Schema, item, [...path, i], out));
    if (!isDict(v)) return;
    if (typeof s['minProperties'] === 'number' && Object.keys(v).length < s['minProperties']) add(`${show(v, path)} should be non-empty`);
    if (isDict(s['dependencies'])) {
      for (const [key, dep] of Object.entries(s['dependencies'] as Schema)) {
        if (!hasKey(v, key) || !isDict(dep) || !Array.isArray(dep['required'])) continue;
        for (const need of dep['required'] as string[]) if (!hasKey(v, need)) add(`'${need}' is a dependency of '${key}'`);
      }
    }
    const props = isDict(s['properties']) ? (s['properties'] as Record<string, Schema>) : {};
    for (const key of Object.keys(props)) if (hasKey(v, key)) walk(props[key]!, v[key], [...path, key], out);
    const extra = Object.keys(v).filter((k) => !hasKey(props, k));
    if (s['additionalProperties'] === false && extra.length > 0) {
      add(`Additional properties are not allowed (${extra.map((k) => pyRepr(k)).join(', ')} ${extra.length === 1 ? 'was' : 'were'} unexpected)`);
    } else if (isDict(s['additionalProperties'])) {
      for (const k of extra) walk(s['additionalProperties'] as Schema, v[k], [...path, k], out);
    }
    if (Array.isArray(s['required'])) for (const need of s['required'] as string[]) if (!hasKey(v, need)) add(`'${need}' is a required property`);
  };
  walk(schema, value, [], errors);
  return errors;
}
