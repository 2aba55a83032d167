/**
 * armada-cdk: Airship Armada sites as typed constructs.
 *
 * This entry point holds the constructs and the types their props, results and errors use; the
 * output targets are separate entry points (`armada-cdk/cdk8s`, `armada-cdk/pulumi`) so that a
 * cdk8s user never loads Pulumi and the other way round. Everything else (defaults, validation,
 * planning, wire writers) is internal: the constructs reach it, a user does not need to.
 */
export { ArmadaManifest } from './constructs/armada-manifest';
export type { ArmadaManifestProps, ResolvedManifest } from './constructs/armada-manifest';
export { ChartGroup } from './constructs/chart-group';
export type { ChartGroupProps } from './constructs/chart-group';
export { Chart } from './constructs/chart';
export type { ChartProps, DeepPartial } from './constructs/chart';
export { Testing } from './constructs/testing';
export { Warnings } from './constructs/warnings';

export { Duration } from './model/duration';
export { ChartSource, SourceType } from './model/source';
export type { SourceOptions, TarSourceOptions, GitSourceOptions } from './model/source';
export { WaitResource, WaitResourceType } from './model/wait';
export type { WaitResourceOptions, MinReady, EffectiveWaitResource } from './model/wait';
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
export { ArmadaValidationError } from './model/diagnostics';
export type { Diagnostic, Severity, FieldPath, Origin } from './model/diagnostics';
// What `ArmadaManifest.plan()` and `resolve()` return; the plan is built by the manifest only.
export type { Plan, PlanStep, PlannedRelease, PlanJson } from './model/plan';
export type { ValidateOptions } from './model/validate';
export { mergeValues } from './model/values';
export type { Values, JsonValue, OpaqueLeafTest } from './model/values';
// Pegleg sites (and documents Deckhand rendered) as an ArmadaManifest; the work loads on first use.
export { loadPeglegSite } from './pegleg/site-manifest';
export type { PeglegSiteOptions, SecretValueLocation } from './pegleg/site-manifest';
// What `armada-cdk import` writes for a secret value: read when the program runs.
export { siteSecret } from './pegleg/site-secret';
// What `Testing.documents()` returns.
export type { ArmadaDocument } from './model/wire/documents';
