/** The work of `loadPeglegSite` (see `site-manifest.ts`). */
import { ArmadaManifest } from '../constructs/armada-manifest';
import { ArmadaValidationError, Diagnostic, hasErrors } from '../model/diagnostics';
import { ManifestSpec } from '../model/spec';
import { classifyDocuments, loadInputs, LoadedDocument } from '../importer/load';
import { resolveLoaded } from '../importer/resolve';
import { specToConstructs } from '../importer/to-constructs';
import { DataPath } from './deckhand-path';
import { renderSite, renderSiteFiles } from './render-site';
import { chartValueSecrets, redact, streamSecrets, StreamSecrets } from './secrets';
import type { PeglegSiteOptions } from './site-options';

export async function loadPeglegSite(options: PeglegSiteOptions): Promise<ArmadaManifest> {
  if ((options.site === undefined) === (options.files === undefined)) throw new Error('loadPeglegSite: give either site (a site of a Pegleg repository) or files; received ' + (options.site === undefined ? 'neither' : 'both'));
  if (options.rendered && options.files === undefined) throw new Error('loadPeglegSite: rendered: true reads files; give files');
  let documents: readonly LoadedDocument[];
  let secrets: StreamSecrets;
  let diagnostics: Diagnostic[];
  if (options.rendered) {
    const loaded = await loadInputs(options.files!);
    documents = loaded.documents;
    secrets = streamSecrets(documents.map((d) => d.raw));
    diagnostics = loaded.diagnostics;
  } else {
    const r = options.site !== undefined ? await renderSite(options.repo ?? '.', options.site) : await renderSiteFiles(options.files!);
    documents = r.documents;
    secrets = r.secrets;
    diagnostics = [...r.diagnostics];
  }
  const fail = (ds: readonly Diagnostic[]) => {
    const texts = secrets.texts.filter((t) => t.length >= 4);
    throw new ArmadaValidationError(ds.map((d) => ({ ...d, message: redact(d.message, texts) })), 'loading the Pegleg site');
  };
  if (hasErrors(diagnostics)) fail(diagnostics);
  const classified = classifyDocuments(documents);
  const r = await resolveLoaded({ documents, armada: classified.armada, diagnostics: [...diagnostics, ...classified.diagnostics] }, options.files ?? [options.repo ?? '.'], { targetManifest: options.targetManifest });
  if (!r.spec || hasErrors(r.diagnostics)) fail(r.diagnostics);
  const spec = options.secret ? withSecretValues(r.spec!, documents, secrets, options.secret) : r.spec!;
  return specToConstructs(spec, { scope: options.scope, id: options.id });
}

/** The spec with each secret chart value replaced by what `secret` makes of it. */
function withSecretValues(spec: ManifestSpec, documents: readonly LoadedDocument[], secrets: StreamSecrets, secret: NonNullable<PeglegSiteOptions['secret']>): ManifestSpec {
  const byChart = chartValueSecrets(documents, secrets);
  if (byChart.size === 0) return spec;
  return {
    ...spec,
    charts: spec.charts.map((c) => {
      const paths = byChart.get(c.name);
      if (!paths || c.values === undefined) return c;
      return { ...c, values: replaceAt(c.values, paths, (v, p) => secret(v, { chart: c.name, path: p })) as typeof c.values };
    }),
  };
}

/**
 * `values` with the value at each of `paths` (that exists) replaced by `f` of it: the mappings and
 * lists on the way are copied, everything else is shared.
 */
export function replaceAt(values: unknown, paths: readonly DataPath[], f: (v: unknown, p: DataPath) => unknown): unknown {
  const copied = new Set<unknown>();
  const copyOf = (v: unknown): Record<string | number, unknown> => {
    if (copied.has(v)) return v as Record<string | number, unknown>;
    const c = (Array.isArray(v) ? [...v] : { ...(v as object) }) as Record<string | number, unknown>;
    copied.add(c);
    return c;
  };
  if (values === null || typeof values !== 'object') return values;
  const root = copyOf(values);
  for (const p of paths) {
    if (p.length === 0) continue;
    let node = root;
    let ok = true;
    for (let i = 0; i < p.length - 1; i++) {
      const next = Object.hasOwn(node, p[i]) ? node[p[i]] : undefined;
      if (next === null || typeof next !== 'object') {
        ok = false;
        break;
      }
      node[p[i]] = copyOf(next);
      node = node[p[i]] as Record<string | number, unknown>;
    }
    const last = p[p.length - 1];
    if (ok && Object.hasOwn(node, last)) node[last] = f(node[last], p);
  }
  return root;
}
