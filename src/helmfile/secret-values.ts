/**
 * Which values of a site read from documents the helmfile must not write in clear (they become
 * `ref+envsubst://` references: see `HelmfileOptions.secretValues`).
 */
import type { FieldPath } from '../model/diagnostics';
import type { ManifestSpec } from '../model/spec';
import { leafPaths } from '../model/values';
import { chartValueSecrets, StreamSecrets } from '../pegleg/secrets';

/** Secret texts shorter than this are not looked for in values: they would match everywhere. */
const MIN_SECRET_TEXT = 4;

/**
 * The secret values of each chart, as paths inside its values: where the site's substitutions put
 * a secret ({@link chartValueSecrets}), and, whatever the paths say, every string that contains
 * the text of a secret document. Nothing secret may reach the helmfile in clear, so the second net
 * catches what the first misses (a value layered or overridden from a secret).
 */
export function helmfileSecretValues(spec: ManifestSpec, documents: Parameters<typeof chartValueSecrets>[0], secrets: StreamSecrets): Map<string, FieldPath[]> {
  const out = chartValueSecrets(documents, secrets);
  const texts = secrets.texts.filter((t) => t.length >= MIN_SECRET_TEXT);
  if (texts.length === 0) return out;
  for (const c of spec.charts) {
    if (c.values === undefined) continue;
    const list = out.get(c.name) ?? [];
    for (const p of leafPaths(c.values, (v) => typeof v === 'string' && texts.some((t) => v.includes(t)))) {
      if (!list.some((q) => q.length === p.length && q.every((s, i) => s === p[i]))) list.push(p);
    }
    if (list.length > 0) out.set(c.name, list);
  }
  return out;
}
