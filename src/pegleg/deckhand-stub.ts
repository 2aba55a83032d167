/**
 * TEMPORARY stand-in for the Deckhand engine (`src/deckhand`), with its API, until that lands:
 * it does no layering and no substitution. It passes every concrete document through as it is
 * (abstract ones are dropped, as Deckhand drops them), and reports as secret the destinations of
 * substitutions whose source is a secret document. Enough to run rendered documents through
 * the site path; replaced by the engine when its branch is merged.
 */
import { Diagnostic } from '../model/diagnostics';
import { secretDestinations } from './secrets';

export interface SourceDocument {
  readonly raw: unknown;
  readonly origin: { readonly file: string; readonly line: number; readonly column: number };
}

export interface RenderedDocument {
  readonly raw: Record<string, unknown>;
  readonly origin: SourceDocument['origin'];
  /** Paths inside `data` that hold secret values. */
  readonly secretPaths: readonly (readonly (string | number)[])[];
}

export interface RenderResult {
  readonly documents: readonly RenderedDocument[];
  readonly diagnostics: readonly Diagnostic[];
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the engine's options, none used here
export interface RenderOptions {}

export function renderDocuments(docs: readonly SourceDocument[], _options?: RenderOptions): RenderResult {
  const kept = docs.filter((d): d is SourceDocument & { raw: Record<string, unknown> } => {
    const raw = d.raw as { metadata?: { layeringDefinition?: { abstract?: unknown } } } | null;
    return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && raw.metadata?.layeringDefinition?.abstract !== true;
  });
  const secrets = secretDestinations(kept.map((d) => d.raw));
  return { documents: kept.map((d, i) => ({ raw: d.raw, origin: d.origin, secretPaths: secrets[i] })), diagnostics: [] };
}
