/**
 * Armada's schema check (`armada validate`, ARM100): every Armada document's `data` against the
 * bundled schema of its `schema`, Draft-4 rules, every violation reported, worded as Python's
 * jsonschema words it, and placed at the offending key in the user's file.
 */
import type { ErrorObject } from 'ajv-draft-04';
import { setOwn } from '../../model/own-keys';
import { Diagnostic, formatFieldPath } from '../../model/diagnostics';
import { LoadCodes } from './codes';
import { documentInternals, isPlainObject, LoadedDocument, SpecialValue } from './document';
import { formatPosition, pathKey, SourcePosition, WirePath } from './wire-path';
import { pyRepr, pyStrRepr } from './py-repr';
import { compiledSchema, isArmadaSchema } from './schemas';
import { suggest, SuggestionRules } from '../../model/diagnostics';

/**
 * Keys a current schema rejects that an older Armada accepted, with what to say about them
 * (keyed by the schema path of the object that holds them).
 */
const REMOVED_KEYS: Record<string, string> = {
  'upgrade.options.recreate_pods': 'recreate_pods was accepted only by the pre-Helm-3 schemas; Helm 3 has no equivalent',
};

/**
 * Validates the `data` of every Armada document (one of the six Armada schema strings) with the
 * bundled schema, as `armada validate` does; other documents are skipped, as Armada skips them.
 * A document with no `data` key at all is left to {@link classifyDocuments}.
 *
 * Each violation becomes one ARM100 error: `location` is the offending key's `file:line:column`,
 * `field` its wire path (`data.wait.resources[0].min_ready`; for a missing property, the path it
 * should have), and `message` jsonschema's text (`'source' is a required property`), with a
 * "did you mean" for a misspelt key. One diagnostic per unexpected key, where jsonschema lists
 * them all in one message. Diagnostics of a document come in file order, those about values an
 * override put there (placed in the override) after the rest.
 */
export function validateArmadaDocuments(docs: readonly LoadedDocument[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const doc of docs) for (const d of validateArmadaDocument(doc)) out.push(d);
  return out;
}

/**
 * {@link validateArmadaDocuments} for one document; with `limit`, only the first `limit`
 * violations are described and placed (a document can have millions: one per unexpected key).
 * @default limit - every violation
 */
export function validateArmadaDocument(doc: LoadedDocument, limit = Infinity): Diagnostic[] {
  if (!isArmadaSchema(doc.schema) || !isPlainObject(doc.raw) || !('data' in doc.raw)) return [];
  const { validate, schema } = compiledSchema(doc.schema);
  const specials = dataSpecials(doc);
  const target = specials.size > 0 ? substitute(doc.data, specials) : doc.data;
  let errors: ErrorObject[];
  try {
    errors = validate(target) ? [] : [...(validate.errors ?? [])];
  } catch (e) {
    // A self-referencing alias makes the data infinitely deep: jsonschema would recurse forever too.
    return [
      {
        severity: 'error',
        location: doc.location(['data']),
        document: doc.label,
        field: 'data',
        code: LoadCodes.SCHEMA,
        message: `cannot validate data: ${e instanceof Error ? e.message : String(e)}`,
      },
    ];
  }
  if (errors.length === 0) return [];
  const kept = dropBranchErrors(errors);
  const described = (kept.length > limit ? kept.slice(0, limit) : kept).map((err) => {
    const { field, message } = describe(err, instancePath(doc.data, err.instancePath), doc.data, specials, schema);
    return { wire: ['data', ...field], message };
  });
  const positions = locateAll(doc, described.map((d) => d.wire));
  const found = described.map(({ wire, message }, order) => {
    const pos = positions[order];
    return {
      d: { severity: 'error', location: formatPosition(doc.file, pos), document: doc.label, field: formatFieldPath(wire), code: LoadCodes.SCHEMA, message } as Diagnostic,
      // Values an override put there come after those of the document's own text.
      elsewhere: pos.elsewhere === undefined ? 0 : 1,
      line: pos.line,
      column: pos.column,
      order,
    };
  });
  found.sort((a, b) => a.elsewhere - b.elsewhere || a.line - b.line || a.column - b.column || a.order - b.order);
  return found.map((f) => f.d);
}

/** Positions of several paths, in one pass when the document can (a large one would be rescanned per path). */
function locateAll(doc: LoadedDocument, paths: (string | number)[][]): SourcePosition[] {
  const many = (doc as { locateMany?: (p: readonly WirePath[]) => SourcePosition[] }).locateMany;
  return typeof many === 'function' ? many.call(doc, paths) : paths.map((p) => doc.locate(p));
}

/** Specials under `data`, keyed by their path relative to `data`. */
function dataSpecials(doc: LoadedDocument): Map<string, SpecialValue> {
  const out = new Map<string, SpecialValue>();
  const all = documentInternals(doc).specials;
  if (all.size === 0) return out;
  const prefix = pathKey(['data']);
  for (const [k, v] of all) {
    if (k === prefix) out.set('', v);
    else if (k.startsWith(`${prefix}\u0001`)) out.set(k.slice(prefix.length + 1), v);
  }
  return out;
}

/**
 * A copy of `data` where the values JavaScript cannot tell apart are swapped for stand-ins ajv
 * types the way jsonschema types the Python values: a whole-number float becomes a non-integral
 * number (`number`, not `integer`), a timestamp or bytes a symbol (no JSON type at all).
 */
function substitute(data: unknown, specials: ReadonlyMap<string, SpecialValue>): unknown {
  const path: (string | number)[] = [];
  const active = new Set<object>();
  const copy = (v: unknown): unknown => {
    const s = specials.get(pathKey(path));
    // An integer beyond 2^53 is a bigint here and an `int` to jsonschema.
    if (s) return s.kind === 'float' ? 0.5 : s.kind === 'integer' ? 1 : Symbol(s.kind);
    if (v === null || typeof v !== 'object' || active.has(v)) return v;
    if (!Array.isArray(v) && !isPlainObject(v)) return v;
    active.add(v);
    let out: unknown;
    if (Array.isArray(v)) {
      out = v.map((item, i) => {
        path.push(i);
        const c = copy(item);
        path.pop();
        return c;
      });
    } else {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        path.push(k);
        setOwn(o, k, copy((v as Record<string, unknown>)[k]));
        path.pop();
      }
      out = o;
    }
    active.delete(v);
    return out;
  };
  return copy(data);
}

/**
 * jsonschema reports a failed `anyOf`/`oneOf` as one error about the value; ajv also keeps the
 * errors of each branch. Schemas are compiled with `$ref`s inlined, so a branch's errors are
 * exactly those whose schema path lies under the combinator's, at or below its instance.
 */
function dropBranchErrors(errors: ErrorObject[]): ErrorObject[] {
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (combinators.length === 0) return errors;
  return errors.filter(
    (e) =>
      !combinators.some(
        (c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`) && (e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`)),
      ),
  );
}

/** ajv's JSON pointer as a wire path, with array indices as numbers. */
function instancePath(data: unknown, pointer: string): (string | number)[] {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const i = Number(part);
      out.push(i);
      node = node[i];
    } else {
      out.push(part);
      node = isPlainObject(node) ? node[part] : undefined;
    }
  }
  return out;
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let node = data;
  for (const p of path) node = (node as Record<string | number, unknown> | undefined)?.[p];
  return node;
}

function schemaAt(schema: unknown, schemaPath: string): Record<string, unknown> | undefined {
  let node = schema;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return isPlainObject(node) ? node : undefined;
}

/** The field to point at and jsonschema's message (`jsonschema/_validators.py` and `_keywords.py`). */
function describe(
  err: ErrorObject,
  path: (string | number)[],
  data: unknown,
  specials: ReadonlyMap<string, SpecialValue>,
  schema: Record<string, unknown>,
): { field: (string | number)[]; message: string } {
  const value = valueAt(data, path);
  const r = (v: unknown = value) =>
    pyRepr(v, { isFloat: (rel) => specials.get(pathKey([...path, ...rel]))?.kind === 'float' });
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'required': {
      const missing = String(p.missingProperty);
      return { field: [...path, missing], message: `${pyStrRepr(missing)} is a required property` };
    }
    case 'additionalProperties': {
      const extra = String(p.additionalProperty);
      let message = `Additional properties are not allowed (${pyStrRepr(extra)} was unexpected)`;
      const holder = schemaAt(schema, err.schemaPath.replace(/\/additionalProperties$/, ''));
      const removedKey = [...schemaPathNames(err.schemaPath), extra].join('.');
      // Own keys only: `constructor` or `toString` must not find Object.prototype's members.
      const removed = Object.hasOwn(REMOVED_KEYS, removedKey) ? REMOVED_KEYS[removedKey] : undefined;
      const known = holder && isPlainObject(holder.properties) ? Object.keys(holder.properties) : [];
      const hint = suggest(extra, known, SuggestionRules.ARMADA_KEY);
      const level = hint || removed ? undefined : indentationHint(schema, err.schemaPath, extra, path);
      if (removed) message += `: ${removed}`;
      else if (hint) message += `: did you mean ${pyStrRepr(hint)}?`;
      else if (level) message += `: ${level}`;
      return { field: [...path, extra], message };
    }
    case 'type': {
      const types = String(p.type).split(',');
      return { field: path, message: `${r()} is not of type ${types.map((t) => pyStrRepr(t)).join(', ')}` };
    }
    case 'anyOf':
      return { field: path, message: `${r()} is not valid under any of the given schemas` };
    case 'oneOf':
      return {
        field: path,
        message: Array.isArray(p.passingSchemas) ? `${r()} is valid under each of ${p.passingSchemas.join(', ')}` : `${r()} is not valid under any of the given schemas`,
      };
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues.filter((x): x is string => typeof x === 'string') : [];
      const hint = typeof value === 'string' ? suggest(value, allowed, SuggestionRules.ARMADA_KEY) : undefined;
      return { field: path, message: `${r()} is not one of ${r(p.allowedValues)}${hint ? `: did you mean ${pyStrRepr(hint)}?` : ''}` };
    }
    case 'minItems':
    case 'minLength':
      return { field: path, message: `${r()} is too short` };
    case 'maxItems':
    case 'maxLength':
      return { field: path, message: `${r()} is too long` };
    case 'minProperties':
      return { field: path, message: `${r()} does not have enough properties` };
    case 'maxProperties':
      return { field: path, message: `${r()} has too many properties` };
    case 'pattern':
      return { field: path, message: `${r()} does not match ${pyStrRepr(String(p.pattern))}` };
    case 'minimum':
    case 'exclusiveMinimum':
      return { field: path, message: `${r()} is less than ${p.comparison === '>' ? 'or equal to ' : ''}the minimum of ${r(p.limit)}` };
    case 'maximum':
    case 'exclusiveMaximum':
      return { field: path, message: `${r()} is greater than ${p.comparison === '<' ? 'or equal to ' : ''}the maximum of ${r(p.limit)}` };
    case 'multipleOf':
      return { field: path, message: `${r()} is not a multiple of ${r(p.multipleOf)}` };
    case 'uniqueItems':
      return { field: path, message: `${r()} has non-unique elements` };
    case 'dependencies':
      return { field: path, message: `${pyStrRepr(String(p.missingProperty))} is a dependency of ${pyStrRepr(String(p.property))}` };
    case 'not':
      return { field: path, message: `${r(schemaAt(schema, err.schemaPath))} is not allowed for ${r()}` };
    case 'format':
      return { field: path, message: `${r()} is not a ${pyStrRepr(String(p.format))}` };
    default:
      return { field: path, message: err.message ?? `fails ${err.keyword}` };
  }
}

/**
 * A known key one level off, as a mis-indented line gives: `labels` beside `wait` instead of
 * under it, or `timeout` under `wait.labels`... Looks one level down (the properties of the
 * holder's own properties) and one level up (the properties of the holder's parent).
 */
function indentationHint(schema: Record<string, unknown>, schemaPath: string, extra: string, path: readonly (string | number)[]): string | undefined {
  const holderPath = schemaPath.replace(/\/additionalProperties$/, '');
  const holder = schemaAt(schema, holderPath);
  const shown = (p: readonly (string | number)[]) => ['data', ...p].join('.');
  if (holder && isPlainObject(holder.properties)) {
    for (const [name, child] of Object.entries(holder.properties as Record<string, unknown>)) {
      if (isPlainObject(child) && isPlainObject(child.properties) && Object.hasOwn(child.properties, extra)) {
        return `${pyStrRepr(extra)} is a key of ${shown([...path, name])}: is it indented one level too little?`;
      }
    }
  }
  const parent = /^(.*)\/properties\/[^/]+$/.exec(holderPath)?.[1];
  const above = parent === undefined ? undefined : schemaAt(schema, parent);
  if (above && isPlainObject(above.properties) && Object.hasOwn(above.properties, extra) && path.length > 0) {
    return `${pyStrRepr(extra)} is a key of ${path.length > 1 ? shown(path.slice(0, -1)) : 'data'}: is it indented one level too far?`;
  }
  return undefined;
}

/** `#/properties/upgrade/properties/options/additionalProperties` → `['upgrade', 'options']`. */
function schemaPathNames(schemaPath: string): string[] {
  const parts = schemaPath.replace(/^#\/?/, '').split('/');
  const out: string[] = [];
  for (let i = 0; i + 1 < parts.length; i++) if (parts[i] === 'properties') out.push(parts[++i]);
  return out;
}
