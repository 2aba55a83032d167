import { Diagnostic, hasErrors } from '../model/diagnostics';
import { ResolvedInputs, resolveInputs } from '../importer/resolve';
import { STDIN_NAME } from '../importer/load/read';
import { flag, list, OptionSpec, ParsedArgs, str } from './args';
import { CliIo, UsageError } from './io';
import { placeholderWarnings } from './placeholders';
import { printReport, ReportOptions, tooManyWarnings } from './report';

/** Options every command that reads manifests accepts, as in `armada apply`. */
export const INPUT_OPTIONS: Record<string, OptionSpec> = {
  'target-manifest': { type: 'string' },
  values: { type: 'string', short: 'f', multiple: true },
  set: { type: 'string', multiple: true },
};

/** How diagnostics are reported, for every command that reads manifests. */
export const REPORT_OPTIONS: Record<string, OptionSpec> = {
  quiet: { type: 'boolean', short: 'q' },
  'max-warnings': { type: 'string' },
  'all-warnings': { type: 'boolean' },
  all: { type: 'boolean' },
};

export const REPORT_HELP = `Report options (diagnostics go to stderr, with a summary line last):
  -q, --quiet              print errors only (the summary still counts warnings)
  --max-warnings N         fail (exit 1, nothing written) with more than N warnings
  --all-warnings           print every warning on its own line
  --all                    print every error and warning on its own line
  A rule that warns about one field (values count as one) more than 3 times is printed once,
  with the count and the first few documents (unless --all-warnings or --all); so is an error
  repeated more than 3 times (same code, field and message but for its numbers), unless --all.`;

export const INPUT_HELP = `Input options (as armada apply):
  --target-manifest NAME   build this armada/Manifest (required when the files have several)
  -f, --values FILE        override documents, deep-merged by schema and name (repeatable)
  --set TYPE:NAME:PATH=V   set one value; TYPE is chart, chart_group or manifest (repeatable).
                           As in Armada, V is always a string and is comma-split onto a list:
                           --set chart:x:wait.timeout=600 gives "600", which the schema rejects.`;

/** Loads, overrides and validates the positional files (`-` is stdin). */
export async function readManifest(args: ParsedArgs, io: CliIo, command: string): Promise<ResolvedInputs> {
  if (args.positionals.length === 0) throw new UsageError('no input files (use - for stdin)', command);
  checkSets(list(args, 'set'), command);
  // Progress only where a person watches (a TTY) and a run can be long (many files).
  const progress = io.stderr.isTTY && args.positionals.length > 10 ? (msg: string) => io.stderr.write(`\r${msg.slice(0, 100)}\x1b[K`) : undefined;
  const valuesFiles = list(args, 'values');
  const result = await resolveInputs(args.positionals, {
    targetManifest: str(args, 'target-manifest'),
    valuesFiles,
    sets: list(args, 'set'),
    // only `-` reads stdin, and a process builds its stdin stream on first use
    ...(args.positionals.includes('-') || valuesFiles?.includes('-') ? { stdin: io.stdin } : {}),
    onProgress: progress,
  });
  if (progress) io.stderr.write('\r\x1b[K');
  return { ...result, diagnostics: [...result.diagnostics, ...placeholderWarnings(result.documents)] };
}

/** A malformed `--set` is a usage error, as any other malformed option: every one is named. */
function checkSets(sets: readonly string[], command: string): void {
  if (sets.length === 0) return;
  // Loaded only for a run with --set, as resolve loads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { quotedSet, setSyntaxError } = require('../importer/overrides') as typeof import('../importer/overrides');
  const wrong: string[] = [];
  sets.forEach((expr, i) => {
    const why = setSyntaxError(expr);
    if (why !== undefined) wrong.push(`--set[${i}] ${quotedSet(expr)}: ${why}`);
  });
  if (wrong.length > 0) throw new UsageError(wrong.join('; '), command);
}

/** `--quiet`, `--max-warnings`, `--all-warnings` and `--all` of the command line. */
export function reportOptions(args: ParsedArgs, command: string): ReportOptions {
  const max = str(args, 'max-warnings');
  if (max !== undefined && !/^\d+$/.test(max)) throw new UsageError(`--max-warnings must be a whole number (0 or more); received ${JSON.stringify(max)}`, command);
  // Named as the loader names them in diagnostics: the path as given, `<stdin>` for `-`.
  const files = [...args.positionals, ...(list(args, 'values') ?? [])].map((p) => (p === '-' ? STDIN_NAME : p));
  return { quiet: flag(args, 'quiet'), maxWarnings: max === undefined ? undefined : Number(max), allWarnings: flag(args, 'all-warnings'), all: flag(args, 'all'), files };
}

/**
 * When the input cannot be used (errors, or no manifest), prints its diagnostics and the summary
 * on stderr and returns true; otherwise prints nothing yet, so that a command reports the input's
 * diagnostics and its own together, once.
 */
export async function inputFailed(io: CliIo, r: ResolvedInputs, options: ReportOptions): Promise<boolean> {
  if (r.spec !== undefined && !hasErrors(r.diagnostics)) return false;
  await printReport(io, r.diagnostics, options);
  return true;
}

/** Prints the run's diagnostics, `notes` and the summary on stderr; whether the run may write its output. */
export async function finishReport(io: CliIo, ds: readonly Diagnostic[], options: ReportOptions, notes: readonly string[] = []): Promise<boolean> {
  await printReport(io, ds, options, undefined, notes);
  return !hasErrors(ds) && !tooManyWarnings(ds, options);
}
