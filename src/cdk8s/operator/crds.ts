/**
 * The operator CRDs, generated from the wire types (`scripts/generate-crds.ts`) and committed as
 * JSON beside this file. Imported, not read from disk, so that the compiler ships them with the
 * library.
 */
import { OperatorApi } from '../outputs';
import airshipArmadaCharts from './crds/airship-v1-armadacharts.json';
import keleustesArmadaChartGroups from './crds/keleustes-v1alpha1-armadachartgroups.json';
import keleustesArmadaCharts from './crds/keleustes-v1alpha1-armadacharts.json';
import keleustesArmadaManifests from './crds/keleustes-v1alpha1-armadamanifests.json';

/** An apiextensions.k8s.io/v1 CustomResourceDefinition, as JSON. */
export interface CustomResourceDefinitionJson {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'CustomResourceDefinition';
  readonly metadata: { readonly name: string };
  readonly spec: Readonly<Record<string, unknown>>;
}

/**
 * The CRDs an operator API needs (a deep copy each time: callers may change them): one for the
 * airship operator, ArmadaChart, ArmadaChartGroup and ArmadaManifest for keleustes.
 */
export function operatorCrds(api: OperatorApi): CustomResourceDefinitionJson[] {
  const crds = api === OperatorApi.AIRSHIP_V1 ? [airshipArmadaCharts] : [keleustesArmadaCharts, keleustesArmadaChartGroups, keleustesArmadaManifests];
  return crds.map((c) => JSON.parse(JSON.stringify(c)) as CustomResourceDefinitionJson);
}
