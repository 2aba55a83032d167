/**
 * The operator APIs, apart from the output constructs: the operator bundle and the custom
 * resource output both name them, and neither should depend on the other.
 */

/** Which operator's custom resources to synthesize. */
export enum OperatorApi {
  /** `armada.airshipit.org/v1` ArmadaChart (the airship armada-operator, fed by armada-go). */
  AIRSHIP_V1 = 'armada.airshipit.org/v1',
  /** `armada.airshipit.org/v1alpha1` ArmadaChart, ArmadaChartGroup, ArmadaManifest (keleustes). */
  KELEUSTES_V1ALPHA1 = 'armada.airshipit.org/v1alpha1',
}
