/**
 * Tree helpers shared by the three constructs, kept apart so that chart.ts, chart-group.ts and
 * armada-manifest.ts do not import each other in a cycle.
 */
import { IConstruct } from 'constructs';
import { isBranded } from '../model/brand';

const KIND = {
  group: Symbol.for('armada-cdk.ChartGroup'),
  manifest: Symbol.for('armada-cdk.ArmadaManifest'),
} as const;

/** The symbol that brands each construct kind (see `isChartGroup`, `isArmadaManifest`). */
export function kindSymbol(kind: keyof typeof KIND): symbol {
  return KIND[kind];
}

/** A group or manifest, as the tree helpers see them. */
export interface Adopter {
  _adopt(child: IConstruct): void;
}

/** The closest enclosing ChartGroup (or ArmadaManifest) of `c`, not counting `c` itself. */
export function nearest(c: IConstruct, kind: keyof typeof KIND): Adopter | undefined {
  for (let s = c.node.scope; s; s = s.node.scope) {
    if (isBranded(s, KIND[kind])) return s as unknown as Adopter;
  }
  return undefined;
}

let version = 0;

/**
 * Records that some definition changed, so that cached resolutions are recomputed. One counter for
 * the whole program: a chart can be shared by manifests it does not live in.
 */
export function touch(_c?: IConstruct): void {
  version++;
}

/** The current definition version (see {@link touch}). */
export function definitionVersion(): number {
  return version;
}
