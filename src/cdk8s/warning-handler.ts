import { Diagnostic, formatDiagnostic } from '../model/diagnostics';

/** Receives the warnings of a synthesis (what a target cannot express, deprecated fields, ...). */
export type WarningHandler = (diagnostic: Diagnostic) => void;

/** Where warnings go when no handler is given: one line each on stderr, the same for every construct. */
export const printWarning: WarningHandler = (d) => process.stderr.write(`armada-cdk: ${formatDiagnostic(d)}\n`);
