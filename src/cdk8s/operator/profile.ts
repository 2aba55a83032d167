/**
 * The profile of each operator (`profiles/`), by the API it serves: what the bundle's construct,
 * its Deployment and its RBAC read, so that none of them asks which operator it is.
 */
import { OperatorApi } from '../operator-api';
import type { OperatorProfile } from './operator-profile';
import { airship } from './profiles/airship';
import { keleustes } from './profiles/keleustes';

const PROFILES: Readonly<Record<OperatorApi, OperatorProfile>> = {
  [OperatorApi.AIRSHIP_V1]: airship,
  [OperatorApi.KELEUSTES_V1ALPHA1]: keleustes,
};

/** The profile of the operator behind an API. */
export function operatorProfile(api: OperatorApi): OperatorProfile {
  return PROFILES[api];
}
