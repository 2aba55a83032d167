/**
 * Fetching chart sources the way Armada does (local directory, tarball, git), cached on disk,
 * and assembling Armada `dependencies` into `charts/`. Plain Node, no Pulumi: the Pulumi component
 * calls these at program time.
 */
export { resolveChartSource } from './resolve';
export type { ResolvedChartSource } from './resolve';
export { assembleChart } from './assemble';
export type { AssembleChartOptions } from './assemble';
export { defaultCacheDir } from './options';
export type { CacheOptions, ResolveChartSourceOptions } from './options';
export { ChartSourceError } from './errors';
export type { ChartSourceErrorCode } from './errors';
