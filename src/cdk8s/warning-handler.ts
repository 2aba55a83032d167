import { IConstruct } from 'constructs';
import { Diagnostic, formatDiagnostic } from '../model/diagnostics';
import { unacknowledged, warningId } from '../constructs/warnings';

/** Receives the warnings of a synthesis (what a target cannot express, deprecated fields, ...). */
export type WarningHandler = (diagnostic: Diagnostic) => void;

/** A kind of warning (one id) found more often than this is printed as one line, as the CLI does. */
const GROUP_AFTER = 3;
/** How many further places a grouped line names. */
const NAMED = 3;

/**
 * The lines the outputs print for their warnings, in the order found: each with its id in
 * brackets (what `Warnings.of(scope).acknowledge` takes), and a kind found more than
 * {@link GROUP_AFTER} times as one line, at its first place, with the count and a few other places.
 */
export function warningLines(warnings: readonly Diagnostic[]): string[] {
  const byId = new Map<string, Diagnostic[]>();
  for (const w of warnings) {
    const id = warningId(w);
    const same = byId.get(id);
    if (same === undefined) byId.set(id, [w]);
    else same.push(w);
  }
  const lines: string[] = [];
  for (const w of warnings) {
    const id = warningId(w);
    const same = byId.get(id)!;
    if (same.length <= GROUP_AFTER) {
      lines.push(`armada-cdk: ${formatDiagnostic(w)} [${id}]`);
      continue;
    }
    if (same[0] !== w) continue;
    const places = [...new Set(same.map((x) => x.location))].filter((l) => l !== w.location);
    const named = places.slice(0, NAMED).join(', ') + (places.length > NAMED ? ` and ${places.length - NAMED} more` : '');
    lines.push(`armada-cdk: ${formatDiagnostic(w)} [${id}: ${same.length} warnings like this one${named ? `, also in ${named}` : ''}]`);
  }
  return lines;
}

let hinted = false;

/**
 * Reports an output's warnings: those acknowledged on the construct they are about (found among
 * `trees`) or on the reporter's scopes are left out; the rest go to `handler` one by one, or,
 * without one, to stderr grouped (see {@link warningLines}), with how to acknowledge one the
 * first time in the process.
 */
export function reportWarnings(reporter: IConstruct, trees: readonly IConstruct[], warnings: readonly Diagnostic[], handler: WarningHandler | undefined): void {
  const left = unacknowledged(warnings.filter((w) => w.severity === 'warning'), reporter, trees);
  if (handler !== undefined) {
    for (const w of left) handler(w);
    return;
  }
  const lines = warningLines(left);
  if (lines.length === 0) return;
  if (!hinted) {
    hinted = true;
    lines.push("armada-cdk: to accept a warning, acknowledge its id on the construct it is about: Warnings.of(chart).acknowledge('<id>', 'why it is accepted')");
  }
  process.stderr.write(lines.map((l) => `${l}\n`).join(''));
}
