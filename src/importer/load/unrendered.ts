/**
 * Signs that a document is a Deckhand/Pegleg source fragment, not a rendered document: Armada
 * does no layering and no substitution, so such a document means something else once the site is
 * rendered (values injected, parents merged in, abstract ones dropped).
 *
 * Judged by what rendering would still change, not by metadata keys: Deckhand's output keeps
 * `layeringDefinition.parentSelector`, `actions` and `substitutions` on the documents it has
 * already layered and substituted (see `pegleg/rendered-check.ts`).
 *
 * `${VAR}` strings are deliberately not a sign: the openstack-helm gate manifests carry them and
 * a shell `envsubst` fills them in before Armada runs; treasuremap values scripts use them too.
 */
import { renderingLeft } from '../../pegleg/rendered-check';
import { WirePath } from './wire-path';
import { isPlainObject, LoadedDocument } from './document';

/** One reason a document looks unrendered, with the field that shows it. */
export interface UnrenderedReason {
  /** Wire path from the document root (`['metadata', 'substitutions', 0]`). */
  readonly path: WirePath;
  readonly message: string;
}

/**
 * What `doc` alone shows rendering would still change: `layeringDefinition.abstract: true`, or an
 * `armada/Chart` without `source`. Layering children and substitutions need the other documents:
 * see {@link unrenderedInStream}.
 */
export function unrenderedReasons(doc: LoadedDocument): UnrenderedReason[] {
  const out: UnrenderedReason[] = [];
  const raw = doc.raw;
  if (!isPlainObject(raw)) return out;
  const md = isPlainObject(raw.metadata) ? raw.metadata : {};
  const layering = isPlainObject(md.layeringDefinition) ? md.layeringDefinition : {};
  if (layering.abstract === true) {
    out.push({ path: ['metadata', 'layeringDefinition', 'abstract'], message: 'it is abstract (metadata.layeringDefinition.abstract: true): Deckhand never hands it to Armada, only its children' });
  }
  if (isChartWithoutSource(doc)) out.push(CHART_WITHOUT_SOURCE);
  return out;
}

const CHART_WITHOUT_SOURCE: UnrenderedReason = { path: ['data'], message: 'it is a Chart without data.source, which a site rendering substitutes in' };

/** Whether a reason is Deckhand's (layering, substitution) rather than a Chart without a source. */
export function isDeckhandReason(r: UnrenderedReason): boolean {
  return r !== CHART_WITHOUT_SOURCE;
}

function isChartWithoutSource(doc: LoadedDocument): boolean {
  const raw = doc.raw;
  return (doc.schema === 'armada/Chart/v1' || doc.schema === 'armada/Chart/v2') && isPlainObject(raw) && isPlainObject(raw.data) && !('source' in raw.data);
}

/**
 * For each document of a stream (every document, Armada's or not, in order) that rendering would
 * still change, why: abstract documents, layering children whose data is not their parent's after
 * their actions, substitutions whose destination does not hold the source's value, replaced
 * parents beside their replacement, and Charts without a source. Rendered documents, which keep
 * their layering and substitution metadata, give no reason.
 */
export function unrenderedInStream(docs: readonly LoadedDocument[]): Map<LoadedDocument, UnrenderedReason[]> {
  const left = renderingLeft(docs.map((d) => d.raw));
  const out = new Map<LoadedDocument, UnrenderedReason[]>();
  docs.forEach((doc, i) => {
    const reasons: UnrenderedReason[] = [...(left.get(i) ?? [])];
    if (isChartWithoutSource(doc)) reasons.push(CHART_WITHOUT_SOURCE);
    if (reasons.length > 0) out.set(doc, reasons);
  });
  return out;
}
