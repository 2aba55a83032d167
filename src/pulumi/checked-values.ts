/**
 * The values.schema.json check for charts whose values hold Pulumi outputs (secrets among them):
 * at synth those are placeholders, so the check waits until they are known and then sees the
 * plain values; its messages never quote what an output held.
 */
import * as pulumi from '@pulumi/pulumi';
import { diagnosticsMessage, errorsOf } from '../model/diagnostics';
import type { ChartSpec } from '../model/spec';
import { checkResolvedChartValues, hasLocalValuesSchema, opaquePaths } from '../values-schema/check-charts';
import { failingOnce, withStableMessage } from './stable-error';

/**
 * A chart's values as the Release takes them: unchanged when they hold no output or the chart has
 * no local schema, else an output of the plain values that fails the deployment, before the
 * Release is touched, when they break the chart's `values.schema.json`. In a preview, values not
 * yet known are not checked. The failure is reported once, by the first resource that takes the
 * values (see `ChartDeployment`).
 */
export function checkedValues(chart: ChartSpec): Readonly<Record<string, unknown>> {
  const values = chart.values ?? {};
  const hidden = opaquePaths(values, pulumi.Output.isInstance);
  if (hidden.length === 0 || !hasLocalValuesSchema(chart)) return values;
  const checked = pulumi.output(values as Record<string, unknown>).apply((plain) => {
    const errors = errorsOf(checkResolvedChartValues(chart, plain as Record<string, unknown>, hidden));
    if (errors.length > 0) {
      // One message wherever it is reported: the Release's values, or the pre-upgrade delete's fingerprint.
      throw withStableMessage(new pulumi.RunError(diagnosticsMessage(`chart ${JSON.stringify(chart.name)}: its values break the chart's values.schema.json, so it was not deployed`, errors)));
    }
    return plain;
  });
  // The Release takes an output wherever it takes values.
  return failingOnce(checked) as unknown as Readonly<Record<string, unknown>>;
}
