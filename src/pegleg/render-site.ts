/**
 * A Pegleg site rendered in memory, the way `pegleg site render` renders it: its files collected
 * (or given, in order), read, and handed to the Deckhand engine. The result is ready for the rest
 * of armada-cdk (validation, targets) and for writing out as Pegleg does.
 */
import * as path from 'path';
import { Diagnostic } from '../model/diagnostics';
import { LoadedDocument, parseYamlStream } from '../importer/load';
import { renderDocuments, RenderedDocument, RenderOptions } from './engine';
import { loadSiteFiles, originKey } from './load-site';
import { RenderedSiteDocument } from './rendered-document';
import { redact, StreamSecrets, streamSecrets } from './secrets';
import { listSiteFiles } from './site-files';

/** A rendered site. */
export interface RenderedSite {
  /** The files read, in reading order. */
  readonly files: readonly string[];
  /** `data.site_type` of the site definition, for a site collected with {@link renderSite}. */
  readonly siteType?: string | undefined;
  /** The rendered documents, in Deckhand's order, as Deckhand outputs them. */
  readonly rendered: readonly RenderedDocument[];
  /** The same documents as loaded documents (diagnostics point into the site's files). */
  readonly documents: readonly LoadedDocument[];
  /** Where the secrets are, and their texts (already kept out of {@link diagnostics}). */
  readonly secrets: StreamSecrets;
  /** Collection, reading and rendering diagnostics; the site rendered when none is an error. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Options of {@link renderSite} and {@link renderSiteFiles}. */
export interface RenderSiteOptions {
  /**
   * Options passed to the Deckhand engine.
   * @default - the engine's defaults (Pegleg's: a missing substitution source is a warning)
   */
  readonly engine?: RenderOptions | undefined;
  /**
   * For {@link renderSite}: the site's files in the order to read them, relative to the
   * repository (`/` separators), instead of the sorted order: to reproduce one Pegleg run, whose
   * order is the file system's.
   * @default - the files Pegleg collects, in sorted path order
   */
  readonly order?: readonly string[] | undefined;
}

/**
 * Renders the site `site` of the Pegleg site repository `repo`: its files in the sorted order
 * `listSiteFiles` gives (see `site-files.ts`: Pegleg's own order is the file system's).
 */
export async function renderSite(repo: string, site: string, options: RenderSiteOptions = {}): Promise<RenderedSite> {
  const listed = listSiteFiles(repo, site, readSiteType);
  if (listed.diagnostics.length > 0) return { files: [], rendered: [], documents: [], secrets: { paths: [], texts: [] }, diagnostics: listed.diagnostics };
  const r = await renderSiteFiles(options.order ? options.order.map((f) => path.join(repo, ...f.split('/'))) : listed.files, options);
  return { ...r, siteType: listed.siteType };
}

/** Renders the documents of `files`, read in the order given. */
export async function renderSiteFiles(files: readonly string[], options: RenderSiteOptions = {}): Promise<RenderedSite> {
  const loaded = await loadSiteFiles(files);
  if (loaded.diagnostics.some((d) => d.severity === 'error')) return { files, rendered: [], documents: [], secrets: { paths: [], texts: [] }, diagnostics: loaded.diagnostics };
  const result = renderDocuments(loaded.sources, options.engine);
  const rendered = result.documents;
  const documents = rendered.map((r) => new RenderedSiteDocument(r, loaded.places.get(originKey(r.origin))));
  const secrets = streamSecrets(
    rendered.map((r) => r.raw),
    rendered.map((r) => r.secretPaths),
  );
  // The engine keeps secrets out of its messages; a value it quotes from a document that holds one is kept out here too.
  const texts = secrets.texts.filter((t) => t.length >= 4);
  const diagnostics = [...loaded.diagnostics, ...result.diagnostics].map((d) => (texts.length === 0 ? d : { ...d, message: redact(d.message, texts) }));
  return { files, rendered, documents, secrets, diagnostics };
}

/** `data.site_type` of a site definition (Pegleg reads it with `yaml.safe_load`: one document). */
function readSiteType(file: string, text: string): { siteType: string } | { problem: string } {
  const parsed = parseYamlStream({ file, text });
  const bad = parsed.diagnostics.find((d) => d.severity === 'error');
  if (bad) return { problem: `${bad.location}: ${bad.message}` };
  if (parsed.documents.length !== 1) return { problem: `${path.basename(file)} must hold one YAML document (Pegleg reads it with yaml.safe_load); it holds ${parsed.documents.length}` };
  const raw = parsed.documents[0].raw as { data?: { site_type?: unknown } } | null;
  const type = raw && typeof raw === 'object' ? raw.data?.site_type : undefined;
  if (typeof type !== 'string' || type === '' || /[/\\]/.test(type) || type === '.' || type === '..') {
    return { problem: `data.site_type must name a folder of type/ (a string without "/"); received ${type === undefined ? 'nothing' : JSON.stringify(type)}: Pegleg collects type/<site_type>/ with the site` };
  }
  return { siteType: type };
}
