/**
 * armada-cdk: Airship Armada sites as typed constructs.
 *
 * This entry point holds the model and the constructs only; the output targets are separate
 * entry points (`armada-cdk/cdk8s`, `armada-cdk/pulumi`) so that a cdk8s user never loads Pulumi
 * and the other way round.
 */
export { ArmadaManifest } from './constructs/armada-manifest';
export type { ArmadaManifestProps, ResolvedManifest } from './constructs/armada-manifest';
export { ChartGroup } from './constructs/chart-group';
export type { ChartGroupProps } from './constructs/chart-group';
export { Chart } from './constructs/chart';
export type { ChartProps, DeepPartial } from './constructs/chart';
export { Testing } from './constructs/testing';

export { Duration } from './model/duration';
export { ChartSource, SourceType } from './model/source';
export type { SourceOptions, TarSourceOptions, GitSourceOptions } from './model/source';
export {
  WaitResource,
  WaitResourceType,
  V1_DEFAULT_WAIT_RESOURCES,
  V2_DEFAULT_WAIT_RESOURCES,
  DEFAULT_MIN_READY,
  parseMinReady,
  minReadyThreshold,
} from './model/wait';
export type { WaitResourceOptions, MinReady, EffectiveWaitResource, ParsedMinReady } from './model/wait';
export { SchemaVersion } from './model/spec';
export type {
  Labels,
  ProtectedOptions,
  TestOptions,
  NativeWaitOptions,
  WaitOptions,
  HookAction,
  HookActionType,
  PreUpgradeOptions,
  PostUpgradeOptions,
  UpgradeFlags,
  UpgradeOptions,
  DeleteOptions,
  ChartOptions,
  ChartSpec,
  ChartGroupSpec,
  ManifestSpec,
} from './model/spec';
export { ConstructOrigin, ArmadaValidationError, formatDiagnostic } from './model/diagnostics';
export type { Diagnostic, Severity, FieldPath, Origin } from './model/diagnostics';
export { Plan, buildPlan } from './model/plan';
export type { PlanStep, PlannedRelease, PlanJson } from './model/plan';
export { validateManifest } from './model/validate';
export type { ValidateOptions } from './model/validate';
export { mergeValues } from './model/values';
export type { Values, JsonValue } from './model/values';
export { releaseName } from './model/names';
export {
  effectiveWaitTimeout,
  effectiveNativeWait,
  effectiveWaitResources,
  effectiveTest,
  DEFAULT_WAIT_TIMEOUT_SECONDS,
  DEFAULT_TEST_TIMEOUT_SECONDS,
  DEFAULT_DELETE_TIMEOUT_SECONDS,
} from './model/effective';
export { toArmadaDocuments } from './model/wire/documents';
export type { ArmadaDocument, DocumentsOptions } from './model/wire/documents';
