/**
 * The validation of a whole site, one composition for every way a site is made (constructs,
 * imported YAML): the model's checks of the manifest, then each local chart's values against the
 * chart's values.schema.json.
 */
import { append } from '../model/append';
import type { Diagnostic } from '../model/diagnostics';
import type { ManifestSpec } from '../model/spec';
import { SourceType } from '../model/source';
import { FailedDocuments, validateManifestTyped, ValidateOptions } from '../model/validate';

/** Options of {@link validateSite}. */
export interface ValidateSiteOptions extends ValidateOptions {
  /**
   * Check the values of local charts that have a values.schema.json.
   * @default true
   */
  readonly chartSchemas?: boolean | undefined;
  /**
   * Documents of an imported site that failed Armada's schema check and are not in the spec: the
   * rules leave out what depends on them.
   * @default - none: the spec is the whole site
   */
  readonly failed?: FailedDocuments | undefined;
}

/** Every diagnostic of a site, the manifest's first, then the chart values'. */
export function validateSite(raw: ManifestSpec, options: ValidateSiteOptions = {}): Diagnostic[] {
  // The spec without the fields whose runtime type is wrong (each one an error).
  const { diagnostics: found, spec } = validateManifestTyped(raw, options, options.failed);
  const diagnostics = [...found.all];
  // Only a local chart can have a values.schema.json to check: a site without one loads none of it.
  if (options.chartSchemas === false || !spec.charts.some((c) => c.source?.type === SourceType.LOCAL)) return diagnostics;
  // Loaded on demand: ajv is only needed when a local chart has a values.schema.json.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { checkLocalChartValues } = require('../values-schema/check-charts') as typeof import('../values-schema/check-charts');
  append(diagnostics, checkLocalChartValues(spec, { opaqueValues: options.opaqueValues }));
  return diagnostics;
}
