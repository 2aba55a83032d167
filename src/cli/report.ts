import { inInputOrder, InputOrder } from '../model/diagnostic-order';
import { redactCredentials } from '../model/safe-text';
import { DeferredDiagnostic, DeferredDiagnosticRun, Diagnostic, errorsOf, expandRuns, formatDiagnostic, hasErrors, parseLocation, plural, ruleField, summary, warningsOf, weightOf } from '../model/diagnostics';
import { inPieces } from '../model/text-pieces';
import { CliIo, writePieces } from './io';
import { isListOfLabels, listOfLabelsNotes } from './list-labels';

/** `FILE:LINE:COL: error: <doc>: <path>: <message>`: one line per diagnostic, as compilers print them. */
export function formatLine(d: Diagnostic): string {
  return formatDiagnostic(d, 'compiler');
}

/**
 * The diagnostics in input order (files in the order given, then line and column), errors and
 * warnings interleaved; a run of like warnings as its members.
 * @param files - the input files in the order given (see `ReportOptions.files`)
 */
export function sorted(ds: readonly Diagnostic[], files?: readonly string[]): Diagnostic[] {
  return inInputOrder(expandRuns(ds), files);
}

/** The JSON form of `--format json`. */
export function toJson(compact: readonly Diagnostic[], files?: readonly string[]) {
  const ds = expandRuns(compact);
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
 * one code's different findings (a wait's labels, a chart's source) each get a line. A deferred
 * diagnostic names its field without being located.
 */
function ruleOf(d: Diagnostic): string {
  return d instanceof DeferredDiagnostic ? d.rule : d.field === undefined ? '' : ruleField(d.field);
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
 * but for its numbers), unless `all`. Only the diagnostics printed are located (see
 * `diagnostic-order`).
 */
export function reportLines(compact: readonly Diagnostic[], options: ReportOptions = {}): string[] {
  const { ds, groupOf, weight } = inGroups(compact, options);
  const order = new InputOrder(ds, options.files);
  const shown: number[] = [];
  const grouped = new Map<number, number[]>();
  ds.forEach((d, i) => {
    if (d.severity === 'warning' && options.quiet) return;
    const same = groupOf[i];
    const every = options.all || (d.severity === 'warning' && options.allWarnings);
    if (same === undefined || weight.get(same)! <= GROUP_AFTER || every) shown.push(i);
    else if (same[0] === i) {
      const first = order.earliest(same);
      grouped.set(first, same);
      shown.push(first);
    }
  });
  return order.sorted(shown).map((i) => {
    const d = ds[i];
    const same = grouped.get(i);
    if (same === undefined) return formatLine(d);
    const own = d.document ?? d.location;
    const others = order.firstDocuments(same.filter((x) => x !== i), NAMED, own);
    const named = others.first.join(', ') + (others.total > NAMED ? ` and ${others.total - NAMED} more` : '');
    return `${formatLine(d)} [${d.code}: ${weight.get(same)} ${d.severity === 'error' ? 'errors' : 'warnings'} like this one${named ? `, also in ${named}` : ''}]`;
  });
}

/**
 * Groups of like diagnostics, found by code, then field: a site's hundreds of thousands of
 * warnings share a few of each, so no key is built per warning. Errors are few but for one
 * mistake repeated, and keyed apart.
 */
class Groups {
  private readonly byRule = { warning: new Map<string, Map<string, number[]>>(), error: new Map<string, Map<string, number[]>>() };
  /** Every group, in the order first found. */
  public readonly all: number[][] = [];
  /** The group of `d` (an empty list the first time), or none for a diagnostic never grouped. */
  public of(d: Diagnostic): number[] | undefined {
    if ((d.severity !== 'warning' && d.severity !== 'error') || d.code === undefined) return undefined;
    const codes = this.byRule[d.severity];
    let fields = codes.get(d.code);
    if (fields === undefined) codes.set(d.code, (fields = new Map()));
    const rule = d.severity === 'warning' ? ruleOf(d) : errorRuleOf(d);
    let same = fields.get(rule);
    if (same === undefined) {
      fields.set(rule, (same = []));
      this.all.push(same);
    }
    return same;
  }
}

/**
 * The diagnostics a report orders, each with its group of like ones (by index) and each group's
 * weight (how many diagnostics it counts), in one pass over the rules. A run of like warnings
 * stays one entry (its first member stands for it on a grouped line) unless its members are
 * printed one by one (`--all-warnings`, `--all`, or a group of no more than {@link GROUP_AFTER}).
 */
function inGroups(compact: readonly Diagnostic[], options: ReportOptions) {
  const groups = new Groups();
  const groupOfEntry: (number[] | undefined)[] = new Array(compact.length);
  let runs = false;
  for (let j = 0; j < compact.length; j++) {
    const d = compact[j];
    const same = groups.of(d);
    groupOfEntry[j] = same;
    same?.push(j);
    if (d instanceof DeferredDiagnosticRun) runs = true;
  }
  const weight = new Map<number[], number>();
  // Without runs (every target but keleustes's closed values), each entry is one diagnostic and
  // the entries are the list ordered: the groups found are final.
  if (!runs) {
    for (const same of groups.all) weight.set(same, same.length);
    return { ds: compact, groupOf: groupOfEntry, weight };
  }
  for (let j = 0; j < compact.length; j++) {
    const same = groupOfEntry[j];
    if (same !== undefined) weight.set(same, (weight.get(same) ?? 0) + weightOf(compact[j]));
  }
  for (const same of groups.all) same.length = 0;
  const ds: Diagnostic[] = [];
  const groupOf: (number[] | undefined)[] = [];
  const add = (d: Diagnostic, same: number[] | undefined) => {
    same?.push(ds.length);
    groupOf.push(same);
    ds.push(d);
  };
  compact.forEach((d, j) => {
    const same = groupOfEntry[j];
    if (d instanceof DeferredDiagnosticRun && (options.all || options.allWarnings || weight.get(same!)! <= GROUP_AFTER)) {
      for (const m of d.members()) add(m, same);
    } else add(d, same);
  });
  return { ds, groupOf, weight };
}

/** Whether the warnings exceed `--max-warnings`. */
export function tooManyWarnings(ds: readonly Diagnostic[], options: ReportOptions): boolean {
  if (options.maxWarnings === undefined) return false;
  let warnings = 0;
  for (let i = 0; i < ds.length; i++) if (ds[i].severity === 'warning') warnings += weightOf(ds[i]);
  return warnings > options.maxWarnings;
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
