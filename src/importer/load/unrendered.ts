/**
 * Signs that a document is a Deckhand/Pegleg source fragment, not a rendered document: Armada
 * does no layering and no substitution, so such a document means something else once the site is
 * rendered (values injected, parents merged in, abstract ones dropped).
 *
 * `${VAR}` strings are deliberately not a sign: the openstack-helm gate manifests carry them and
 * a shell `envsubst` fills them in before Armada runs; treasuremap values scripts use them too.
 */
import { WirePath } from './wire-path';
import { isPlainObject, LoadedDocument } from './document';

/** One reason a document looks unrendered, with the field that shows it. */
export interface UnrenderedReason {
  /** Wire path from the document root (`['metadata', 'substitutions']`). */
  readonly path: WirePath;
  readonly message: string;
}

/**
 * Why `doc` looks like an unrendered Deckhand/Pegleg fragment; empty when it does not: metadata
 * `substitutions`, `layeringDefinition.abstract: true`, a layering child (`parentSelector` or
 * `actions`), `replacement: true`, or an `armada/Chart` without `source`.
 */
export function unrenderedReasons(doc: LoadedDocument): UnrenderedReason[] {
  const out: UnrenderedReason[] = [];
  const raw = doc.raw;
  if (!isPlainObject(raw)) return out;
  const md = isPlainObject(raw.metadata) ? raw.metadata : {};
  const subs = md.substitutions;
  if (Array.isArray(subs) ? subs.length > 0 : subs !== undefined && subs !== null) {
    const n = Array.isArray(subs) ? subs.length : 1;
    out.push({ path: ['metadata', 'substitutions'], message: `it has ${n} Deckhand substitution${n === 1 ? '' : 's'} (metadata.substitutions), applied only when the site is rendered` });
  }
  const layering = isPlainObject(md.layeringDefinition) ? md.layeringDefinition : {};
  if (layering.abstract === true) {
    out.push({ path: ['metadata', 'layeringDefinition', 'abstract'], message: 'it is abstract (metadata.layeringDefinition.abstract: true): Deckhand never hands it to Armada, only its children' });
  }
  if (layering.parentSelector !== undefined) {
    out.push({ path: ['metadata', 'layeringDefinition', 'parentSelector'], message: 'it is a layering child (metadata.layeringDefinition.parentSelector): its data is merged into a parent when the site is rendered' });
  } else if (layering.actions !== undefined) {
    out.push({ path: ['metadata', 'layeringDefinition', 'actions'], message: 'it has layering actions (metadata.layeringDefinition.actions), applied when the site is rendered' });
  }
  if (md.replacement === true) {
    out.push({ path: ['metadata', 'replacement'], message: 'it replaces its parent (metadata.replacement: true) when the site is rendered' });
  }
  if ((doc.schema === 'armada/Chart/v1' || doc.schema === 'armada/Chart/v2') && isPlainObject(raw.data) && !('source' in raw.data)) {
    out.push({ path: ['data'], message: 'it is a Chart without data.source, which a site rendering substitutes in' });
  }
  return out;
}
