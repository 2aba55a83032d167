import type { Diagnostic } from '../../model/diagnostics';

/** A diagnostic as one line of a cdk8s validation error: where, then what. */
export function diagnosticLine(d: Diagnostic): string {
  return [d.location, d.document, d.field].filter(Boolean).join(': ') + ': ' + d.message;
}
