/**
 * Which documents are Armada's: exactly the six schema strings Armada recognises. Everything else
 * (Deckhand, Pegleg, Promenade, ...) passes through untouched, as Armada ignores it.
 */
import { Diagnostic } from '../../model/diagnostics';
import { LoadCodes } from './codes';
import { isPlainObject, LoadedDocument } from './document';
import { pyRepr } from './py-repr';
import { ARMADA_SCHEMAS, ArmadaSchema, isArmadaSchema } from './schemas';
import { suggest, SuggestionRules } from '../../model/diagnostics';

/** An Armada document with a usable envelope: one of the six schemas and a string name. */
export interface LoadedArmadaDocument extends LoadedDocument {
  readonly schema: ArmadaSchema;
  readonly name: string;
}

/** The document type, from the middle segment of the schema (`armada/Chart/v1` → `Chart`). */
export type ArmadaDocumentType = 'Chart' | 'ChartGroup' | 'Manifest';

/** Armada's `SchemaInfo`: the type and version an Armada schema string stands for. */
export function armadaSchemaInfo(schema: ArmadaSchema): { readonly type: ArmadaDocumentType; readonly version: 1 | 2 } {
  const [, type, v] = schema.split('/');
  return { type: type as ArmadaDocumentType, version: v === 'v2' ? 2 : 1 };
}

/** The documents sorted by what Armada does with them. */
export interface ClassifyResult {
  /** Armada documents with a schema, a string `metadata.name` and a `data`, in stream order. */
  readonly armada: LoadedArmadaDocument[];
  /** Mappings with any other schema (or none): Armada ignores them; kept as they are. */
  readonly other: LoadedDocument[];
  /**
   * Documents that are not mappings, empty ones, Armada documents with no name or no data, and
   * warnings for documents Armada would silently ignore though they look meant for it.
   */
  readonly diagnostics: Diagnostic[];
}

/** Tells whether a document is an Armada document with a usable envelope. */
export function isArmadaDocument(doc: LoadedDocument): doc is LoadedArmadaDocument {
  return isArmadaSchema(doc.schema) && doc.name !== undefined && isPlainObject(doc.raw) && doc.raw.data !== undefined && doc.raw.data !== null;
}

/**
 * Sorts documents into Armada's and the rest, reporting the ones no tool could use: a scalar
 * or sequence document (Armada's validator raises TypeError on it), an empty document (an error:
 * Armada fails on it the same way), and an Armada document without a string
 * `metadata.name` or without `data` (left out of `armada`).
 */
export function classifyDocuments(docs: readonly LoadedDocument[]): ClassifyResult {
  const armada: LoadedArmadaDocument[] = [];
  const other: LoadedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const doc of docs) {
    const raw = doc.raw;
    if (raw === null || raw === undefined) {
      // Armada's validator raises TypeError on it, which `armada apply` reports as "None is not a
      // valid override statement" (and a --values file crashes its override handler).
      diagnostics.push({
        severity: 'error',
        location: `${doc.file}:${doc.startLine}:1`,
        code: LoadCodes.EMPTY_DOCUMENT,
        message: `document ${doc.index + 1} is empty (an extra '---', or only comments); Armada fails on it ("None is not a valid override statement"): remove it`,
      });
      continue;
    }
    if (!isPlainObject(raw)) {
      const what = Array.isArray(raw) ? 'a sequence' : 'a scalar';
      diagnostics.push({
        severity: 'error',
        location: doc.location(),
        code: LoadCodes.NOT_A_MAPPING,
        message: `document ${doc.index + 1} is ${what} (${pyRepr(raw, { maxLength: 60 })}), not a mapping with schema, metadata and data`,
      });
      continue;
    }
    if (!isArmadaSchema(doc.schema)) {
      const ignored = ignoredWarning(doc, raw);
      if (ignored) diagnostics.push(ignored);
      other.push(doc);
      continue;
    }
    let usable = true;
    const name = isPlainObject(raw.metadata) ? raw.metadata.name : undefined;
    if (typeof name !== 'string') {
      usable = false;
      const has = isPlainObject(raw.metadata) && 'name' in raw.metadata;
      diagnostics.push({
        severity: 'error',
        location: doc.location(has ? ['metadata', 'name'] : isPlainObject(raw.metadata) ? ['metadata'] : []),
        document: doc.label,
        field: 'metadata.name',
        code: LoadCodes.MISSING_NAME,
        message: has ? `metadata.name must be a string, not ${pyRepr(name, { maxLength: 60 })}: documents refer to each other by name` : `${doc.schema} document has no metadata.name: documents refer to each other by name`,
      });
    }
    if (raw.data === undefined || raw.data === null) {
      usable = false;
      diagnostics.push({
        severity: 'error',
        location: doc.location('data' in raw ? ['data'] : []),
        document: doc.label,
        field: 'data',
        code: LoadCodes.MISSING_DATA,
        message: `${doc.schema} document has no data; Armada's schema check rejects it too ("None is not of type 'object'")`,
      });
    }
    if (usable) armada.push(doc as LoadedArmadaDocument);
  }
  return { armada, other, diagnostics };
}

/**
 * Armada drops a document whose schema is not exactly one of its six without a word, so a typo
 * (`armada/chart/v1`) silently loses a chart: warn when the schema is missing or Armada-like.
 */
/**
 * Whether a document that is not one of Armada's is of another tool (a Deckhand secret, a Pegleg
 * document): a mapping whose schema string neither looks like Armada's nor is a typo of one, about
 * which the loader says nothing (Armada ignores it without a word).
 */
export function isOtherToolsDocument(raw: unknown): boolean {
  return isPlainObject(raw) && typeof raw.schema === 'string' && !isArmadaSchema(raw.schema) && armadaLike(raw.schema) === undefined;
}

/** For a schema that is not Armada's: whether it looks like one (`armada/...`), with the schema it may mean. */
function armadaLike(schema: string): { hint: string | undefined } | undefined {
  const hint = suggest(schema, ARMADA_SCHEMAS, SuggestionRules.ARMADA_KEY);
  return hint || /^armada\//i.test(schema) ? { hint } : undefined;
}

function ignoredWarning(doc: LoadedDocument, raw: Record<string, unknown>): Diagnostic | undefined {
  if (typeof raw.schema !== 'string') {
    const legacy = 'armada' in raw ? ": it looks like the pre-2017 'armada:' format, which no current Armada reads" : '';
    return {
      severity: 'warning',
      location: doc.location('schema' in raw ? ['schema'] : []),
      code: LoadCodes.IGNORED_DOCUMENT,
      message: `document ${doc.index + 1} has no schema string, so Armada ignores it${legacy}`,
    };
  }
  const like = armadaLike(raw.schema);
  if (like === undefined) return undefined;
  const { hint } = like;
  return {
    severity: 'warning',
    location: doc.location(['schema']),
    document: doc.label,
    field: 'schema',
    code: LoadCodes.IGNORED_DOCUMENT,
    message: `${pyRepr(raw.schema)} is not one of the six schemas Armada recognises, so Armada ignores this document${hint ? `: did you mean ${pyRepr(hint)}?` : ''}`,
  };
}
