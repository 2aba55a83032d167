import { Diagnostic, errorsOf, formatDiagnostic, hasErrors, plural, summary, warningsOf } from '../model/diagnostics';
import { CliIo } from './io';

/** `FILE:LINE:COL: error: <doc>: <path>: <message>`: one line per diagnostic, as compilers print them. */
export function formatLine(d: Diagnostic): string {
  return formatDiagnostic(d, 'compiler');
}

/** The diagnostics in input order (file, then line and column), errors and warnings interleaved. */
export function sorted(ds: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => {
    const m = /^(.*):(\d+):(\d+)$/.exec(d.location);
    return m ? { file: m[1], line: Number(m[2]), col: Number(m[3]) } : { file: d.location, line: 0, col: 0 };
  };
  return ds
    .map((d, i) => ({ d, i, k: key(d) }))
    .sort((a, b) => (a.k.file === b.k.file ? a.k.line - b.k.line || a.k.col - b.k.col || a.i - b.i : a.i - b.i))
    .map((x) => x.d);
}

/** The JSON form of `--format json`. */
export function toJson(ds: readonly Diagnostic[]) {
  return {
    valid: !hasErrors(ds),
    errors: errorsOf(ds).length,
    warnings: warningsOf(ds).length,
    diagnostics: sorted(ds).map((d) => {
      const m = /^(.*):(\d+):(\d+)$/.exec(d.location);
      return {
        severity: d.severity,
        code: d.code,
        location: d.location,
        ...(m ? { file: m[1], line: Number(m[2]), column: Number(m[3]) } : { file: d.location }),
        ...(d.document ? { document: d.document } : {}),
        ...(d.field ? { field: d.field } : {}),
        message: d.message,
      };
    }),
  };
}

export function printLines(io: CliIo, ds: readonly Diagnostic[], to: 'stdout' | 'stderr' = 'stderr'): void {
  const out = io[to];
  for (const d of sorted(ds)) out.write(formatLine(d) + '\n');
}

/** How the diagnostics of a run are printed: `--quiet`, `--max-warnings`. */
export interface ReportOptions {
  /** Print errors only (the summary still counts the warnings). */
  readonly quiet?: boolean;
  /** More warnings than this fail the run. */
  readonly maxWarnings?: number;
  /** Print every warning on its own line, repeated ones too (`--all-warnings`). */
  readonly allWarnings?: boolean;
}

/** A rule that warns more often than this is printed as one line. */
export const GROUP_AFTER = 3;
/** How many further documents a grouped line names. */
const NAMED = 3;

/**
 * The lines of a report, in input order: every error, and every warning, except that a rule
 * (diagnostic code) warning more than {@link GROUP_AFTER} times is one line: its first
 * occurrence, how many there are in all, and the first few other documents (unless
 * `allWarnings`).
 */
export function reportLines(ds: readonly Diagnostic[], options: ReportOptions = {}): string[] {
  const ordered = sorted(ds);
  const byRule = new Map<string, Diagnostic[]>();
  for (const d of ordered) {
    if (d.severity !== 'warning' || d.code === undefined) continue;
    const same = byRule.get(d.code);
    if (same) same.push(d);
    else byRule.set(d.code, [d]);
  }
  const out: string[] = [];
  for (const d of ordered) {
    if (d.severity === 'warning' && options.quiet) continue;
    const same = d.severity === 'warning' && d.code !== undefined ? byRule.get(d.code)! : [d];
    if (same.length <= GROUP_AFTER || options.allWarnings) {
      out.push(formatLine(d));
      continue;
    }
    if (same[0] !== d) continue;
    const others = [...new Set(same.slice(1).map((x) => x.document ?? x.location))].filter((x) => x !== (d.document ?? d.location));
    const named = others.slice(0, NAMED).join(', ') + (others.length > NAMED ? ` and ${others.length - NAMED} more` : '');
    out.push(`${formatLine(d)} [${d.code}: ${same.length} warnings like this one${named ? `, also in ${named}` : ''}]`);
  }
  return out;
}

/** Whether the warnings exceed `--max-warnings`. */
export function tooManyWarnings(ds: readonly Diagnostic[], options: ReportOptions): boolean {
  return options.maxWarnings !== undefined && warningsOf(ds).length > options.maxWarnings;
}

/**
 * Prints a run's diagnostics on stderr, then `notes` (advice about them), then the summary line (`2 errors, 1 warning`) last, with
 * what `--max-warnings` decided. Nothing when there is nothing to say.
 */
export function printReport(io: CliIo, ds: readonly Diagnostic[], options: ReportOptions = {}, last?: string, notes: readonly string[] = []): void {
  for (const l of [...reportLines(ds, options), ...notes]) io.stderr.write(l + '\n');
  const over = tooManyWarnings(ds, options) ? `; more than --max-warnings ${options.maxWarnings}` : '';
  if (ds.length > 0 || last !== undefined) io.stderr.write(`${last ? `${last}: ` : ''}${summary(ds)}${over}\n`);
}

// The commands count their output in the same words as the summary line.
export { plural, summary };
