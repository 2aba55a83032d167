/**
 * `siteSecret(chart, path)`: a secret chart value read when a program runs, from the rendered
 * site the `ARMADA_CDK_SITE` environment variable names (`armada-cdk render --site NAME -o FILE`
 * writes one), so that `armada-cdk import` never writes a secret into the code it generates.
 */

/** The environment variable naming the rendered site {@link siteSecret} reads. */
export const SITE_ENV = 'ARMADA_CDK_SITE';

const sites = new Map<string, Map<string, unknown>>();

/**
 * The value at `path` in the values of the chart `chart` of the rendered site named by the
 * `ARMADA_CDK_SITE` environment variable (a file of rendered documents, read once). Throws,
 * naming the chart, the path and the file but never a value, when it is not there.
 *
 * @param chart `metadata.name` of the `armada/Chart` document (the first of that name).
 * @param path keys and list indexes inside the chart's `data.values`.
 */
export function siteSecret(chart: string, path: readonly (string | number)[]): unknown {
  const file = process.env[SITE_ENV];
  const where = `secret value ${path.map(String).join('.')} of chart ${JSON.stringify(chart)}`;
  if (!file) throw new Error(`${where}: set ${SITE_ENV} to the rendered site to read it from (armada-cdk render --site NAME -o rendered.yaml)`);
  let charts = sites.get(file);
  if (!charts) {
    charts = readCharts(file);
    sites.set(file, charts);
  }
  if (!charts.has(chart)) throw new Error(`${where}: ${file} (${SITE_ENV}) has no armada/Chart ${JSON.stringify(chart)}`);
  let v = charts.get(chart);
  for (const seg of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, seg)) throw new Error(`${where}: ${file} (${SITE_ENV}) has no such value in the chart`);
    v = (v as Record<string | number, unknown>)[seg];
  }
  return v;
}

function readCharts(file: string): Map<string, unknown> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded by programs that read secrets only
  const fs = require('fs') as typeof import('fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parseYamlStream } = require('../importer/load') as typeof import('../importer/load');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the rendered site ${file} (${SITE_ENV}): ${(e as NodeJS.ErrnoException).code ?? 'read error'}`);
  }
  const parsed = parseYamlStream({ file, text });
  const bad = parsed.diagnostics.find((d) => d.severity === 'error');
  if (bad) throw new Error(`the rendered site ${file} (${SITE_ENV}) cannot be read: ${bad.location}: ${bad.code}`);
  const out = new Map<string, unknown>();
  for (const doc of parsed.documents) {
    if ((doc.schema === 'armada/Chart/v1' || doc.schema === 'armada/Chart/v2') && doc.name !== undefined && !out.has(doc.name)) {
      out.set(doc.name, (doc.data as { values?: unknown } | undefined)?.values);
    }
  }
  return out;
}
