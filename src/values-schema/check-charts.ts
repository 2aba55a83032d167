/**
 * Values against each local chart's own `values.schema.json`, at synth and in `armada-cdk
 * validate`: the check Helm would make at install time, made before anything is deployed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, Diagnostics } from '../model/diagnostics';
import { firstByName } from '../model/plan';
import { SourceType } from '../model/source';
import { ManifestSpec } from '../model/spec';
import { getOwn, setOwn } from '../model/own-keys';
import { isPlainObject } from '../model/values';
import { ValuesSchemaError } from './errors';

/**
 * One diagnostic per violation, with the chart and the JSON path of the value, for every chart
 * of the manifest whose source is a local directory that has a `values.schema.json`. A chart
 * without a schema, or whose directory is not on this machine, is not an error.
 */
export function checkLocalChartValues(spec: ManifestSpec): Diagnostic[] {
  const d = new Diagnostics();
  const charts = firstByName(spec.charts);
  for (const chart of charts.values()) {
    if (chart.source.type !== SourceType.LOCAL) continue;
    const dir = path.resolve(chart.source.location, chart.source.effectiveSubpath);
    if (!fs.existsSync(path.join(dir, 'values.schema.json'))) continue;
    // ajv is loaded only when a chart has a schema to check.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadValuesSchema } = require('./load') as typeof import('./load');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { validateValues } = require('./validate') as typeof import('./validate');
    try {
      const schema = loadValuesSchema(dir);
      for (const v of validateValues(schema, coalesce(readChartDefaults(dir), chart.values ?? {}))) {
        const field = ['values', ...splitPath(v.path)];
        d.error(chart.origin, field, 'values-schema', `${v.message} (${path.join(dir, 'values.schema.json')})`);
      }
    } catch (e) {
      if (!(e instanceof ValuesSchemaError)) throw e;
      d.error(chart.origin, ['source'], 'values-schema', `the chart's values.schema.json cannot be used: ${e.message}`);
    }
  }
  return [...d.all];
}

/** The chart's own values.yaml: Helm validates the schema against defaults + user values. */
function readChartDefaults(dir: string): Record<string, unknown> {
  const file = path.join(dir, 'values.yaml');
  if (!fs.existsSync(file)) return {};
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('js-yaml') as typeof import('js-yaml');
  const v = yaml.load(fs.readFileSync(file, 'utf8'));
  return isPlainObject(v) ? v : {};
}

/** Helm's coalescing: user values over the chart's defaults, maps merged, `null` deletes the key. */
function coalesce(defaults: Record<string, unknown>, user: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(user)) {
    if (v === null) delete out[k];
    else {
      const current = getOwn(out, k);
      setOwn(out, k, isPlainObject(v) && isPlainObject(current) ? coalesce(current, v) : v);
    }
  }
  return out;
}

/** `pod.replicas["db-init"][2]` -> `['pod', 'replicas', 'db-init', 2]`. */
function splitPath(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(p))) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(`"${m[3]}"`));
  }
  return out;
}
