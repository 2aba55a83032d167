/**
 * Chart values as Release inputs, keeping a `__proto__` key. The Pulumi SDK copies input objects
 * by assignment when it serializes them, which turns such a key into the copy's prototype: Helm
 * would never see it. Values with one anywhere go instead as a values file (`valueYamlFiles`,
 * JSON being YAML), which Helm reads exactly as `values`; Pulumi outputs and secrets inside them
 * are resolved first and keep their secrecy through the file's output.
 */
import * as pulumi from '@pulumi/pulumi';
import { setOwn } from '../model/own-keys';

/** The `values` and `valueYamlFiles` inputs of a Release for `values`. */
export interface ReleaseValueInputs {
  readonly values: Record<string, unknown>;
  readonly valueYamlFiles?: pulumi.Input<pulumi.asset.Asset>[] | undefined;
}

const isLeafInput = (v: unknown): boolean => pulumi.Output.isInstance(v) || v instanceof Promise;

function hasProtoKey(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || isLeafInput(v)) return false;
  if (Array.isArray(v)) return v.some(hasProtoKey);
  return Object.keys(v).some((k) => k === '__proto__' || hasProtoKey((v as Record<string, unknown>)[k]));
}

/** A copy of `v` with each Output or Promise leaf replaced by `resolve(leaf)`. */
function rebuild(v: unknown, resolve: (leaf: unknown) => unknown): unknown {
  if (isLeafInput(v)) return resolve(v);
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map((x) => rebuild(x, resolve));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) setOwn(out, k, rebuild((v as Record<string, unknown>)[k], resolve));
  return out;
}

export function releaseValueInputs(values: Readonly<Record<string, unknown>>): ReleaseValueInputs {
  if (!hasProtoKey(values)) return { values: values as Record<string, unknown> };
  const leaves: unknown[] = [];
  rebuild(values, (leaf) => leaves.push(leaf));
  const file = (resolved: readonly unknown[]) => {
    let i = 0;
    return new pulumi.asset.StringAsset(`${JSON.stringify(rebuild(values, () => resolved[i++]), null, 2)}\n`);
  };
  if (leaves.length === 0) return { values: {}, valueYamlFiles: [file([])] };
  return { values: {}, valueYamlFiles: [pulumi.all(leaves as pulumi.Input<unknown>[]).apply((resolved) => file(resolved))] };
}
