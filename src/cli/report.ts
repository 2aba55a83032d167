import { redactCredentials } from '../model/safe-text';
import { Diagnostic, errorsOf, formatDiagnostic, hasErrors, parseLocation, plural, ruleField, summary, warningsOf } from '../model/diagnostics';
import { inPieces } from '../model/text-pieces';
import { CliIo, writePieces } from './io';
import { isListOfLabels, listOfLabelsNotes } from './list-labels';

/** `FILE:LINE:COL: error: <doc>: <path>: <message>`: one line per diagnostic, as compilers print them. */
export function formatLine(d: Diagnostic): string {
  return formatDiagnostic(d, 'compiler');
}

/**
 * The indexes of `ds` in input order: files in the order given (then any other file as it first
 * appears), then line and column, then the order found.
 */
function inputOrder(ds: readonly Diagnostic[], files: readonly string[] = []): number[] {
  const ranks = new Map<string, number>();
  const rankOf = (file: string) => {
    let r = ranks.get(file);
    if (r === undefined) ranks.set(file, (r = ranks.size));
    return r;
  };
  for (const f of files) rankOf(f);
  // A site's thousands of diagnostics are mostly in one file, and each location is read once:
  // the numbers are read in place, and the file is looked up only when it changes.
  const n = ds.length;
  const rank = new Float64Array(n);
  const line = new Float64Array(n);
  const column = new Float64Array(n);
  let lastFile = '';
  let lastRank = -1;
  for (let i = 0; i < n; i++) {
    const location = ds[i].location;
    const c2 = location.lastIndexOf(':');
    const c1 = c2 > 0 ? location.lastIndexOf(':', c2 - 1) : -1;
    const l = c1 >= 0 ? digitsValue(location, c1 + 1, c2) : -1;
    const c = l >= 0 ? digitsValue(location, c2 + 1, location.length) : -1;
    const fileEnd = c >= 0 ? c1 : location.length;
    if (lastRank < 0 || fileEnd !== lastFile.length || !location.startsWith(lastFile)) {
      lastFile = fileEnd === location.length ? location : location.slice(0, fileEnd);
      lastRank = rankOf(lastFile);
    }
    rank[i] = lastRank;
    line[i] = c >= 0 ? l : 0;
    column[i] = c >= 0 ? c : 0;
  }
  const order: number[] = new Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => rank[a] - rank[b] || line[a] - line[b] || column[a] - column[b] || a - b);
}

/** The number written in `s` from `from` to `to`, or -1 unless that is digits only (as {@link parseLocation} reads it). */
function digitsValue(s: string, from: number, to: number): number {
  if (from >= to) return -1;
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

/**
 * The diagnostics in input order (files in the order given, then line and column), errors and
 * warnings interleaved.
 * @param files - the input files in the order given (see `ReportOptions.files`)
 */
export function sorted(ds: readonly Diagnostic[], files?: readonly string[]): Diagnostic[] {
  return inputOrder(ds, files).map((i) => ds[i]);
}

/** The JSON form of `--format json`. */
export function toJson(ds: readonly Diagnostic[], files?: readonly string[]) {
  return {
    valid: !hasErrors(ds),
    errors: errorsOf(ds).length,
    warnings: warningsOf(ds).length,
    diagnostics: sorted(ds, files).map((d) => {
      const p = parseLocation(d.location);
      return {
        severity: d.severity,
        code: d.code,
        location: d.location,
        ...(p.file !== d.location ? { file: p.file, line: p.line, column: p.column } : { file: d.location }),
        ...(d.document ? { document: d.document } : {}),
        ...(d.field ? { field: d.field } : {}),
        // The printed lines hide credentials (formatDiagnostic); the JSON form must not quote them either.
        message: redactCredentials(d.message),
      };
    }),
  };
}

/** How the diagnostics of a run are printed: `--quiet`, `--max-warnings`. */
export interface ReportOptions {
  /** Print errors only (the summary still counts the warnings). */
  readonly quiet?: boolean | undefined;
  /** More warnings than this fail the run. */
  readonly maxWarnings?: number | undefined;
  /** Print every warning on its own line, repeated ones too (`--all-warnings`). */
  readonly allWarnings?: boolean | undefined;
  /**
   * Print every diagnostic on its own line, repeated errors and warnings too (`--all`).
   * @default false
   */
  readonly all?: boolean | undefined;
  /**
   * The input files in the order given, as diagnostics name them: diagnostics are printed file by
   * file in this order (then by line and column); any other file's after them.
   * @default - files in the order they first appear among the diagnostics
   */
  readonly files?: readonly string[] | undefined;
}

/** A rule that warns (or an error repeated) more often than this is printed as one line. */
export const GROUP_AFTER = 3;
/** How many further documents a grouped line names. */
const NAMED = 3;

/**
 * What makes warnings alike: their code and the field they are about ({@link ruleField}), so that
 * one code's different findings (a wait's labels, a chart's source) each get a line.
 */
function ruleOf(d: Diagnostic): string {
  return d.field === undefined ? '' : ruleField(d.field);
}

/**
 * What makes errors alike: their rule, and their message but for its numbers (`document 7 is
 * empty`), so that one mistake repeated is one line and every different error keeps its own.
 */
function errorRuleOf(d: Diagnostic): string {
  // Labels of older Armada (a list of one-key mappings) are one mistake whatever the labels say.
  if (isListOfLabels(d)) return `${ruleOf(d)}\u0000list of labels`;
  return `${ruleOf(d)}\u0000${d.message.replace(/[0-9]+/g, '#')}`;
}

/**
 * The lines of a report, in input order: every error and every warning, except that a rule
 * (a diagnostic code about one field) warning more than {@link GROUP_AFTER} times is one line:
 * its first occurrence, how many there are in all, and the first few other documents (unless
 * `allWarnings` or `all`); so is an error repeated more than that (same code, field and message
 * but for its numbers), unless `all`.
 */
export function reportLines(ds: readonly Diagnostic[], options: ReportOptions = {}): string[] {
  const order = inputOrder(ds, options.files);
  const rank = new Int32Array(ds.length);
  order.forEach((i, r) => (rank[i] = r));
  const groups = new Groups();
  const groupOf = ds.map((d, i) => {
    const same = groups.of(d);
    same?.push(i);
    return same;
  });
  const shown: number[] = [];
  const grouped = new Map<number, number[]>();
  ds.forEach((d, i) => {
    if (d.severity === 'warning' && options.quiet) return;
    const same = groupOf[i];
    const every = options.all || (d.severity === 'warning' && options.allWarnings);
    if (same === undefined || same.length <= GROUP_AFTER || every) shown.push(i);
    else if (same[0] === i) {
      const first = same.reduce((a, b) => (rank[b] < rank[a] ? b : a));
      grouped.set(first, same);
      shown.push(first);
    }
  });
  return shown.sort((a, b) => rank[a] - rank[b]).map((i) => {
    const d = ds[i];
    const same = grouped.get(i);
    if (same === undefined) return formatLine(d);
    const own = d.document ?? d.location;
    // The other documents, each once, in the input order of their first diagnostic.
    const others = [...new Set([...same].sort((a, b) => rank[a] - rank[b]).map((x) => ds[x].document ?? ds[x].location))].filter((x) => x !== own);
    const named = others.slice(0, NAMED).join(', ') + (others.length > NAMED ? ` and ${others.length - NAMED} more` : '');
    return `${formatLine(d)} [${d.code}: ${same.length} ${d.severity === 'error' ? 'errors' : 'warnings'} like this one${named ? `, also in ${named}` : ''}]`;
  });
}

/**
 * Groups of like diagnostics, found by code, then field: a site's thousands of warnings share a
 * few of each. Errors are few but for one mistake repeated, and keyed apart.
 */
class Groups {
  private readonly byRule = { warning: new Map<string, Map<string, number[]>>(), error: new Map<string, Map<string, number[]>>() };
  /** The group of `d` (an empty list the first time), or none for a diagnostic never grouped. */
  public of(d: Diagnostic): number[] | undefined {
    if ((d.severity !== 'warning' && d.severity !== 'error') || d.code === undefined) return undefined;
    const codes = this.byRule[d.severity];
    let fields = codes.get(d.code);
    if (fields === undefined) codes.set(d.code, (fields = new Map()));
    const rule = d.severity === 'warning' ? ruleOf(d) : errorRuleOf(d);
    let same = fields.get(rule);
    if (same === undefined) fields.set(rule, (same = []));
    return same;
  }
}

/** Whether the warnings exceed `--max-warnings`. */
export function tooManyWarnings(ds: readonly Diagnostic[], options: ReportOptions): boolean {
  if (options.maxWarnings === undefined) return false;
  return warningsOf(ds).length > options.maxWarnings;
}

/**
 * Prints a run's diagnostics on stderr, then `notes` (advice about them), then the summary line (`2 errors, 1 warning`) last, with
 * what `--max-warnings` decided. Nothing when there is nothing to say.
 */
export async function printReport(io: CliIo, ds: readonly Diagnostic[], options: ReportOptions = {}, last?: string, notes: readonly string[] = []): Promise<void> {
  const lines = [...reportLines(ds, options), ...listOfLabelsNotes(ds), ...notes];
  const over = tooManyWarnings(ds, options) ? `; more than --max-warnings ${options.maxWarnings}` : '';
  if (ds.length > 0 || last !== undefined) lines.push(`${last ? `${last}: ` : ''}${summary(ds)}${over}`);
  // `--all-warnings` on a large site prints tens of thousands of lines: a few writes, not one each.
  await writePieces(io.stderr, inPieces(lines.map((l) => l + '\n')));
}

// The commands count their output in the same words as the summary line.
export { plural, summary };
