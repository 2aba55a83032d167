/**
 * The commands' input when it is a Pegleg site (`--site NAME [--repo DIR]`): the site rendered
 * in memory, then resolved like files; and, for every input, where its secrets are, so that no
 * diagnostic shows one.
 */
import { Diagnostic } from '../model/diagnostics';
import { classifyDocuments } from '../importer/load';
import { ResolvedInputs, resolveLoaded, ResolveInputsOptions } from '../importer/resolve';
import { redact, streamSecrets, StreamSecrets } from '../pegleg/secrets';
import { placeholderWarnings } from './placeholders';
import type { CliIo } from './io';

/** What a command read: the resolved manifest, and where the input's secrets are. */
export interface ReadManifest extends ResolvedInputs {
  readonly secrets: StreamSecrets;
}

/** Secret texts shorter than this are not looked for in messages: they would garble them. */
const MIN_REDACTED = 4;

/** `ds` with every secret text replaced. */
export function redactDiagnostics(ds: readonly Diagnostic[], secrets: StreamSecrets): Diagnostic[] {
  const texts = secrets.texts.filter((t) => t.length >= MIN_REDACTED);
  if (texts.length === 0) return [...ds];
  return ds.map((d) => {
    const message = redact(d.message, texts);
    return message === d.message ? d : { ...d, message };
  });
}

/** Files read as they are: their secrets found from the documents, and kept out of the diagnostics. */
export function withSecrets(r: ResolvedInputs): ReadManifest {
  const secrets = streamSecrets(r.documents.map((d) => d.raw));
  return { ...r, diagnostics: redactDiagnostics(r.diagnostics, secrets), secrets };
}

/** The site rendered, then resolved; the rendering's diagnostics first. */
export async function readSite(io: CliIo, repo: string, site: string, options: ResolveInputsOptions, order?: readonly string[]): Promise<ReadManifest> {
  const progress = io.stderr.isTTY ? (msg: string) => io.stderr.write(`\r${msg.slice(0, 100)}\x1b[K`) : undefined;
  progress?.(`rendering site ${site}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the engine loads for a --site run only
  const { renderSite } = require('../pegleg/render-site') as typeof import('../pegleg/render-site');
  const rendered = await renderSite(repo, site, { order });
  if (progress) io.stderr.write('\r\x1b[K');
  if (rendered.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: rendered.diagnostics, documents: [], secrets: rendered.secrets };
  const classified = classifyDocuments(rendered.documents);
  const r = await resolveLoaded({ documents: rendered.documents, armada: classified.armada, diagnostics: [...rendered.diagnostics, ...classified.diagnostics] }, [repo], options);
  return { ...r, diagnostics: redactDiagnostics([...r.diagnostics, ...placeholderWarnings(r.documents)], rendered.secrets), secrets: rendered.secrets };
}
