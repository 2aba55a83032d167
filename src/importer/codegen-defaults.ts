/**
 * What `armada-cdk import` leaves out of the generated code because it is what the constructs
 * do anyway: the code a user reads and maintains says what the site chose, not Armada's
 * defaults (`install: { no_hooks: false }` 43 times in eleven real files). Only values that
 * Armada treats exactly as an absent key: `dependencies: []`, which replaces the chart's own
 * subcharts with none, is a choice and stays.
 */
import { ChartSpec, UpgradeOptions } from '../model/spec';

/**
 * The chart without the fields that equal the construct's default: `install` empty or only
 * `no_hooks: false` (Armada reads no `install` key at all), `upgrade.noHooks: false` (and an
 * `upgrade` left empty by it), and `values: {}` (the chart's own values.yaml, as without values).
 */
export function withoutDefaults(c: ChartSpec): ChartSpec {
  return { ...c, install: isDefaultInstall(c.install) ? undefined : c.install, upgrade: withoutDefaultUpgrade(c.upgrade), values: isEmptyMapping(c.values) ? undefined : c.values };
}

function isDefaultInstall(install: ChartSpec['install']): boolean {
  if (install === undefined) return true;
  const keys = Object.keys(install);
  return keys.every((k) => k === 'no_hooks') && (keys.length === 0 || install.no_hooks === false);
}

function withoutDefaultUpgrade(u: UpgradeOptions | undefined): UpgradeOptions | undefined {
  if (u === undefined || u.noHooks !== false) return u;
  const { noHooks: _default, ...rest } = u;
  return Object.values(rest).every((v) => v === undefined) ? undefined : rest;
}

function isEmptyMapping(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}
