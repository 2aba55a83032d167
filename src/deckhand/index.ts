/**
 * A Deckhand rendering engine: the layering and substitution that `pegleg site render` runs
 * (Pegleg 5199b97 with the Deckhand it pins, 0531c10), reproduced exactly, without a database,
 * Barbican or a container. Pure: documents in, documents and diagnostics out.
 *
 * ```ts
 * const { documents, diagnostics } = renderDocuments(sourceDocuments);
 * ```
 */
import type { Diagnostic } from '../model/diagnostics';
import { DeckhandCodes } from './codes';
import { Doc } from './document';
import { Fatal } from './fatal';
import { layout } from './layering';
import { preValidate } from './pre-validate';
import { isDict } from './python';
import { fatalDiagnostic, renderLoop, secretPathsOf } from './render';

export { DeckhandCodes } from './codes';
export type { DeckhandCode } from './codes';

/** One YAML document as read, in input order. */
export interface SourceDocument {
  /** The parsed document (`schema`, `metadata`, `data`). Never changed by rendering. */
  readonly raw: unknown;
  /** Where the document starts (1-based line and column). */
  readonly origin: { readonly file: string; readonly line: number; readonly column: number };
}

/** One document as Deckhand outputs it. */
export interface RenderedDocument {
  /**
   * The rendered document, as Deckhand outputs it: its own `schema` and `metadata` (layering and
   * substitution metadata kept; a destination of an encrypted source gets `storagePolicy:
   * encrypted` and hashed substitution paths) and its rendered `data`.
   */
  readonly raw: Record<string, unknown>;
  /** Where the document was read. */
  readonly origin: SourceDocument['origin'];
  /**
   * Paths under `data` whose value came from a secret source: a `deckhand/Passphrase`,
   * `Certificate`, `CertificateKey`, `CertificateAuthorityKey`, `PrivateKey` or `PublicKey`
   * document, or any written with `storagePolicy: encrypted`. `[[]]` (all of `data`) for such a
   * document itself. A document that Deckhand makes `encrypted` because it took a value from an
   * encrypted one is secret at that value's path only. Keys are strings, list indexes numbers.
   */
  readonly secretPaths: readonly (readonly (string | number)[])[];
}

/** What {@link renderDocuments} gives. */
export interface RenderResult {
  /** Deckhand's output order; abstract documents and replaced parents left out. Empty when Deckhand refuses the site. */
  readonly documents: readonly RenderedDocument[];
  /** Errors (the cases where Deckhand refuses the site, with its reason) and warnings, each at a document's `file:line:column`. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Options of {@link renderDocuments}. */
export interface RenderOptions {
  /**
   * Run Deckhand's pre-validation first (envelope and metadata schemas, control documents,
   * duplicates), as `pegleg site render` does.
   * @default true
   */
  readonly validate?: boolean | undefined;
  /**
   * Refuse the site when a substitution source or source path is missing, or a substitution
   * fails (Deckhand's `fail_on_missing_sub_src=True`); Pegleg renders with this off, and warns.
   * @default false
   */
  readonly failOnMissingSubstitutionSource?: boolean | undefined;
}

function documentLabel(raw: unknown): string | undefined {
  if (!isDict(raw)) return undefined;
  const schema = typeof raw['schema'] === 'string' ? raw['schema'] : undefined;
  const metadata = raw['metadata'];
  const name = isDict(metadata) && typeof metadata['name'] === 'string' ? metadata['name'] : undefined;
  if (schema === undefined && name === undefined) return undefined;
  return [schema, name].filter((x) => x !== undefined).join(' ');
}

function diagnosticFor(severity: 'error' | 'warning') {
  return (doc: Doc, code: string, message: string, field?: string): Diagnostic => {
    const document = documentLabel(doc.raw);
    return {
      severity,
      location: doc.location,
      ...(document !== undefined ? { document } : {}),
      ...(field !== undefined ? { field } : {}),
      code,
      message,
    };
  };
}

/**
 * Renders Deckhand documents as `pegleg site render` does: pre-validation, layering,
 * substitution, Deckhand's order. Secret values never appear in a diagnostic.
 */
export function renderDocuments(docs: readonly SourceDocument[], options: RenderOptions = {}): RenderResult {
  const error = diagnosticFor('error');
  const warning = diagnosticFor('warning');
  const diagnostics: Diagnostic[] = [];
  const all: Doc[] = [];
  docs.forEach((d, i) => {
    const location = `${d.origin.file}:${d.origin.line}:${d.origin.column}`;
    if (!isDict(d.raw)) {
      diagnostics.push({ severity: 'error', location, code: DeckhandCodes.DOCUMENT_FORMAT, message: 'Deckhand pre-validation: a document must be a mapping with schema, metadata and data' });
      return;
    }
    all.push(Doc.copyOf(d.raw, i, d.origin));
  });
  if (diagnostics.length > 0) return { documents: [], diagnostics };
  if (options.validate !== false) {
    diagnostics.push(...preValidate(all, error));
    if (diagnostics.length > 0) return { documents: [], diagnostics };
  }
  try {
    const lay = layout(all);
    for (const ignored of lay.ignoredPolicies) {
      diagnostics.push(warning(ignored, DeckhandCodes.LAYERING, `more than one LayeringPolicy: Deckhand uses the first, ${lay.policy.schema} ${lay.policy.name} (${lay.policy.location}), and ignores this one`));
    }
    const out = renderLoop(lay, {
      failOnMissingSource: options.failOnMissingSubstitutionSource === true,
      warn: (doc, code, message, field) => diagnostics.push(warning(doc, code, message, field)),
    });
    return {
      documents: out.map((doc) => ({ raw: doc.raw, origin: doc.origin, secretPaths: secretPathsOf(doc) })),
      diagnostics,
    };
  } catch (e) {
    if (!(e instanceof Fatal)) throw e;
    diagnostics.push(fatalDiagnostic(e, error));
    return { documents: [], diagnostics };
  }
}
