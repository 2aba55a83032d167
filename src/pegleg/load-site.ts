/**
 * A site's files read as Pegleg reads them for rendering (`pegleg/engine/site.py`,
 * `get_rendered_docs`): every document of every file, in file order; unknown YAML tags read as
 * null; integer mapping keys recorded as such (`int-keys.ts`); a `pegleg/PeglegManagedDocument/v1` replaced by the document it wraps (an encrypted one's
 * data as the text it holds, not decrypted). Each document keeps where it was written, so that a
 * rendered document's diagnostics point into the site's files.
 */
import { Diagnostic } from '../model/diagnostics';
import { LoadCodes, LoadedDocument, parseYamlStream, readInputs } from '../importer/load';
import type { WirePath } from '../importer/load/wire-path';
import type { SourceDocument } from './engine';
import { documentInternals } from '../importer/load/document';
import { keyPath } from '../importer/load/wire-path';
import { markFloat } from '../deckhand/python';
import { markIntKeys } from './int-keys';
import { parseWithUnknownTagsAsNull } from './tagged-yaml';

/** The schema of the wrapper Pegleg keeps generated and encrypted secrets in. */
export const PEGLEG_MANAGED = 'pegleg/PeglegManagedDocument/v1';

/** Where a source document is written: the loaded document, and the path of the document inside it. */
export interface SourcePlace {
  readonly doc: LoadedDocument;
  readonly prefix: WirePath;
}

/** A site's documents ready for the engine. */
export interface LoadedSite {
  /** Every document, in reading order. */
  readonly sources: readonly SourceDocument[];
  /** Where each source document is written, by {@link originKey} of its origin. */
  readonly places: ReadonlyMap<string, SourcePlace>;
  readonly diagnostics: readonly Diagnostic[];
}

/** The key of an origin in {@link LoadedSite.places}. */
export function originKey(o: SourceDocument['origin']): string {
  return `${o.file}\u0000${o.line}\u0000${o.column}`;
}

const UNKNOWN_TAG = /^could not determine a constructor for the tag /;

/** Reads `files` in the order given (paths as they are to be named in diagnostics). */
export async function loadSiteFiles(files: readonly string[]): Promise<LoadedSite> {
  const read = await readInputs(files, undefined, { reader: 'Pegleg' });
  const diagnostics: Diagnostic[] = [...read.diagnostics.filter((d) => d.code !== LoadCodes.NO_DOCUMENTS)];
  const sources: SourceDocument[] = [];
  const places = new Map<string, SourcePlace>();
  for (const input of read.inputs) {
    let parsed: { documents: readonly LoadedDocument[]; diagnostics: readonly Diagnostic[] } = parseYamlStream(input);
    if (parsed.diagnostics.some((d) => d.code === LoadCodes.YAML_CONSTRUCT && UNKNOWN_TAG.test(d.message))) {
      parsed = parseWithUnknownTagsAsNull(input.file, input.text);
    }
    diagnostics.push(...parsed.diagnostics.filter((d) => d.code !== LoadCodes.NO_DOCUMENTS));
    markIntKeys(input.text, parsed.documents.map((d) => d.raw));
    for (const doc of parsed.documents) markWholeFloats(doc);
    for (const doc of parsed.documents) {
      const taken = sourceOf(doc);
      if ('problem' in taken) {
        diagnostics.push({ severity: 'error', location: doc.raw === null || doc.raw === undefined ? `${doc.file}:${doc.startLine}:1` : doc.location(), ...(doc.label ? { document: doc.label } : {}), code: 'pegleg-site', message: taken.problem });
        continue;
      }
      const at = doc.locate(taken.prefix);
      const origin = { file: doc.file, line: at.line, column: at.column };
      sources.push({ raw: taken.raw, origin });
      places.set(originKey(origin), { doc, prefix: taken.prefix });
    }
  }
  return { sources, places, diagnostics };
}

/**
 * Records the floats with a whole value (`1.0`) the loader noted in `doc` on their containers, for
 * the engine and the writer: Pegleg writes them back as `1.0`.
 */
function markWholeFloats(doc: LoadedDocument): void {
  for (const [key, special] of documentInternals(doc).specials) {
    if (special.kind !== 'float') continue;
    const path = keyPath(key);
    let container: unknown = doc.raw;
    for (const seg of path.slice(0, -1)) container = container !== null && typeof container === 'object' ? (container as Record<string, unknown>)[seg] : undefined;
    if (container !== null && typeof container === 'object') markFloat(container, path[path.length - 1]!);
  }
}

/** The document Pegleg hands Deckhand for a loaded one, or why Pegleg fails on it. */
function sourceOf(doc: LoadedDocument): { raw: unknown; prefix: WirePath } | { problem: string } {
  const raw = doc.raw;
  const n = `document ${doc.index + 1} of ${doc.file}`;
  if (raw === null || raw === undefined) return { problem: `${n} is empty (an extra '---', or only comments); Pegleg fails on it (TypeError: 'NoneType' object is not subscriptable): remove it` };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { problem: `${n} is ${Array.isArray(raw) ? 'a sequence' : 'a scalar'}, not a mapping with schema, metadata and data; Pegleg fails on it` };
  const r = raw as Record<string, unknown>;
  if (!('schema' in r)) return { problem: `${n} has no schema; Pegleg fails on it (KeyError: 'schema')` };
  if (r.schema !== PEGLEG_MANAGED) return { raw, prefix: [] };
  const data = r.data;
  const managed = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).managedDocument : undefined;
  if (managed === null || typeof managed !== 'object' || Array.isArray(managed)) return { problem: `${n} is a ${PEGLEG_MANAGED} without data.managedDocument, the document it wraps; Pegleg fails on it` };
  let inner = managed as Record<string, unknown>;
  if ('encrypted' in (data as Record<string, unknown>)) {
    // Pegleg hands Deckhand the encrypted bytes as text (`.decode()`), without decrypting them.
    const bytes = inner.data;
    inner = { ...inner, data: bytes instanceof Uint8Array ? Buffer.from(bytes).toString('utf8') : bytes };
  }
  return { raw: inner, prefix: ['data', 'managedDocument'] };
}
