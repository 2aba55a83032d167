/**
 * cdk8s-plus, loaded when an ArmadaOperator is created (not when armada-cdk/cdk8s is imported),
 * so that the other outputs need no cdk8s-plus at all. Any of the versions below works: the
 * bundle uses only their common API, and its output is the same with each (tested with 28, 33 and 34).
 */
import type * as kplus from 'cdk8s-plus-28';

export type Cdk8sPlus = typeof kplus;

/** Newest first: a project made by a recent `cdk8s init` has the newest. */
export const SUPPORTED_CDK8S_PLUS = ['cdk8s-plus-34', 'cdk8s-plus-33', 'cdk8s-plus-32', 'cdk8s-plus-31', 'cdk8s-plus-30', 'cdk8s-plus-29', 'cdk8s-plus-28'] as const;

const loaded = new Map<string, Cdk8sPlus>();

/** The named package, or the newest supported one that resolves; a clear error when none does. */
export function loadCdk8sPlus(where: string, name?: string): { readonly module: Cdk8sPlus; readonly name: string } {
  if (name !== undefined && !(SUPPORTED_CDK8S_PLUS as readonly string[]).includes(name)) {
    throw new Error(`${where}: cdk8sPlus ${JSON.stringify(name)}: not a supported package; use one of ${SUPPORTED_CDK8S_PLUS.join(', ')}`);
  }
  for (const candidate of name !== undefined ? [name] : SUPPORTED_CDK8S_PLUS) {
    const cached = loaded.get(candidate);
    if (cached) return { module: cached, name: candidate };
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const m = require(candidate) as Cdk8sPlus;
      loaded.set(candidate, m);
      return { module: m, name: candidate };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((e as Error).message).includes(`'${candidate}'`)) throw e;
    }
  }
  throw new Error(
    name !== undefined
      ? `${where}: cdk8sPlus ${JSON.stringify(name)} is not installed; run "npm install ${name}"`
      : `${where}: ArmadaOperator needs cdk8s-plus, which is not installed; run "npm install cdk8s-plus-33" (any of ${SUPPORTED_CDK8S_PLUS.join(', ')} works)`,
  );
}
