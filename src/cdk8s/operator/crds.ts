/**
 * The operator CRDs, generated from the wire types (`scripts/generate-crds.ts`) and committed as
 * JSON in `crds/`. The profiles import them, not read them from disk, so that the compiler ships
 * them with the library.
 */
import type { OperatorApi } from '../operator-api';
import type { CustomResourceDefinitionJson } from './operator-profile';
import { operatorProfile } from './profile';

/**
 * The CRDs an operator API needs (a deep copy each time: callers may change them): one for the
 * airship operator, ArmadaChart, ArmadaChartGroup and ArmadaManifest for keleustes.
 */
export function operatorCrds(api: OperatorApi): CustomResourceDefinitionJson[] {
  return operatorProfile(api).crds.map((c) => JSON.parse(JSON.stringify(c)) as CustomResourceDefinitionJson);
}
