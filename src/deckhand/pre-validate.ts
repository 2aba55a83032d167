/**
 * Deckhand's pre-validation, as Pegleg runs it before rendering (`DocumentValidation(...,
 * pre_validate=True)`): every document's envelope against `deckhand/Base/v1`, its metadata
 * against `metadata/Document/v1` or `metadata/Control/v1`, a control document's data against
 * its built-in schema, and no two documents with one (schema, layer, name). Pegleg also refuses
 * two DataSchemas of one name. Deckhand stops at the first document with a bad envelope; this
 * reports every one, each at its document's position.
 */
import type { Diagnostic } from '../model/diagnostics';
import { DeckhandCodes } from './codes';
import { Doc } from './document';
import { validateSchema } from './json-schema';
import { getKey, isDict } from './python';
import { BASE_SCHEMA, CONTROL_DATA_SCHEMAS, METADATA_SCHEMAS } from './schemas';

function fieldText(prefix: string, path: readonly (string | number)[]): string {
  let out = prefix;
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out;
}

/** Pre-validation findings, in input order (errors: Deckhand renders nothing then). */
export function preValidate(docs: readonly Doc[], diagnostic: (doc: Doc, code: string, message: string, field?: string) => Diagnostic): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Map<string, Doc>();
  const schemaNames = new Map<string, Doc>();
  for (const doc of docs) {
    // Deckhand validates only these three keys of the document (missing ones read as None).
    const envelope = { schema: getKey(doc.raw, 'schema') ?? null, metadata: getKey(doc.raw, 'metadata') ?? null, data: getKey(doc.raw, 'data') ?? null };
    const quoteable = (path: readonly (string | number)[]) => path[0] !== 'data';
    let errors = validateSchema(BASE_SCHEMA, envelope, quoteable).map((e) => ({ ...e, prefix: '' }));
    if (errors.length === 0) {
      const metadata = envelope.metadata as Record<string, unknown>;
      const parts = String(metadata['schema']).split('/');
      const schema = parts[2] === 'v1' ? METADATA_SCHEMAS[`${parts[0]}/${parts[1]}`] : undefined;
      if (schema === undefined) {
        errors = [{ path: ['schema'], message: `Invalid metadata schema ${parts[0]}/${parts[1]} version ${parts[2]} specified.`, prefix: 'metadata' }];
      } else {
        errors = validateSchema(schema as Record<string, unknown>, metadata, () => true).map((e) => ({ ...e, prefix: 'metadata' }));
      }
    }
    if (errors.length === 0 && doc.isControl && !doc.isAbstract) {
      const parts = doc.schema.split('/');
      const dataSchema = parts[2] === 'v1' ? CONTROL_DATA_SCHEMAS[`${parts[0]}/${parts[1]}`] : undefined;
      if (dataSchema !== undefined) {
        errors = validateSchema(dataSchema as Record<string, unknown>, envelope.data, () => true).map((e) => ({ ...e, prefix: 'data' }));
      }
    }
    for (const e of errors) {
      const field = fieldText(e.prefix, e.path);
      out.push(diagnostic(doc, DeckhandCodes.DOCUMENT_FORMAT, `Deckhand pre-validation: ${field === '' ? 'the document' : field}: ${e.message}`, field === '' ? undefined : field));
    }
    if (errors.length > 0) continue;
    const first = seen.get(doc.key);
    if (first !== undefined) {
      out.push(diagnostic(doc, DeckhandCodes.DUPLICATE, `Duplicate document exists: ${doc.label} is also at ${first.location} (each document needs a unique (schema, metadata.layeringDefinition.layer, metadata.name))`));
    } else {
      seen.set(doc.key, doc);
    }
    if (doc.schema === 'deckhand/DataSchema/v1' && isDict(getKey(doc.raw, 'metadata'))) {
      const name = doc.name;
      const earlier = schemaNames.get(name);
      if (earlier !== undefined) out.push(diagnostic(doc, DeckhandCodes.DUPLICATE, `Duplicate schema specified for: ${name} (Pegleg refuses a second DataSchema of one name; the first is at ${earlier.location})`, 'metadata.name'));
      else schemaNames.set(name, doc);
    }
  }
  return out;
}
