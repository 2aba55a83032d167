/** Fixture access shared by the values-schema tests. */
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as path from 'path';

export const CHARTS = path.join(__dirname, '..', 'fixtures', 'charts');

/** A fixture chart's directory. */
export function chartDir(name: string): string {
  return path.join(CHARTS, name);
}

/** A fixture chart's `values.yaml`, parsed. */
export function chartValues(name: string): Record<string, unknown> {
  return yaml.load(fs.readFileSync(path.join(chartDir(name), 'values.yaml'), 'utf8')) as Record<string, unknown>;
}
