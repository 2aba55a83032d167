import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, hasErrors } from '../model/diagnostics';
import { ResolvedInputs, resolveInputs, ResolveInputsOptions } from '../importer/resolve';
import type { ReadManifest } from './pegleg-input';
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

/** `--site NAME [--repo DIR]`: a Pegleg site rendered first, instead of files. */
export const SITE_OPTIONS: Record<string, OptionSpec> = {
  site: { type: 'string' },
  repo: { type: 'string' },
  order: { type: 'string' },
};

export const SITE_HELP = `Pegleg site options (instead of FILE...):
  --site NAME              render the site NAME of a Pegleg site repository first (Pegleg's
                           layering and substitution, as pegleg site render does), then read
                           the rendered documents; diagnostics point into the site's files
  --repo DIR               the site repository (default: the current directory): its
                           site/NAME/site-definition.yaml names the site type, and every *.yaml
                           of global/, type/<site_type>/ and site/NAME/ is read, in sorted path
                           order (Pegleg reads them in the file system's order, which differs
                           from machine to machine)
  --order FILE             with --site, read the site's files in the order FILE lists them (one
                           path a line, relative to --repo): to reproduce one Pegleg run, whose
                           order Deckhand's output depends on in a few places
  Without --target-manifest, a shipyard/DeploymentConfiguration/v1 of the documents names the
  manifest (data.armada.manifest), as Shipyard tells Armada.`;

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
                           --set chart:x:wait.timeout=600 gives "600", which the schema rejects.
                           V is read as the body of a JSON string: \\n, \\t, \\", \\\\ and \\uXXXX are
                           decoded, and a bare " or another backslash is refused.`;

export type { ReadManifest };

/**
 * Loads, overrides and validates the positional files (`-` is stdin), or the Pegleg site of
 * `--site`, rendered first. Secret values are kept out of the diagnostics.
 */
export async function readManifest(args: ParsedArgs, io: CliIo, command: string): Promise<ReadManifest> {
  const site = str(args, 'site');
  if (site === undefined && (str(args, 'repo') !== undefined || str(args, 'order') !== undefined)) throw new UsageError(`--${str(args, 'repo') !== undefined ? 'repo' : 'order'} goes with a --site; give --site NAME too`, command);
  if (site !== undefined && args.positionals.length > 0) throw new UsageError(`--site reads the site's own files; received files too (${args.positionals.slice(0, 3).join(', ')}${args.positionals.length > 3 ? ', ...' : ''}): give one or the other`, command);
  if (site === undefined && args.positionals.length === 0) throw new UsageError('no input files (use - for stdin, or --site NAME for a Pegleg site)', command);
  checkSets(list(args, 'set'), command);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded for the runs that need it
  const pegleg = require('./pegleg-input') as typeof import('./pegleg-input');
  if (site !== undefined) return pegleg.readSite(io, path.resolve(io.cwd, str(args, 'repo') ?? '.'), site, resolveOptions(args, io), orderOf(args, io, command));
  // Progress only where a person watches (a TTY) and a run can be long (many files).
  const progress = io.stderr.isTTY && args.positionals.length > 10 ? (msg: string) => io.stderr.write(`\r${msg.slice(0, 100)}\x1b[K`) : undefined;
  const result = await resolveInputs(args.positionals, { ...resolveOptions(args, io), onProgress: progress });
  if (progress) io.stderr.write('\r\x1b[K');
  return pegleg.withSecrets({ ...result, diagnostics: [...result.diagnostics, ...placeholderWarnings(result.documents)] });
}

/** `--order FILE`: the site's files in order, or undefined. */
export function orderOf(args: ParsedArgs, io: CliIo, command: string): string[] | undefined {
  const file = str(args, 'order');
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`--order ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'read error'})`, command);
  }
  const files = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (files.length === 0) throw new UsageError(`--order ${file} lists no files`, command);
  return files;
}

/** The resolve options of the command line (but progress). */
function resolveOptions(args: ParsedArgs, io: CliIo): ResolveInputsOptions {
  const valuesFiles = list(args, 'values');
  return {
    targetManifest: str(args, 'target-manifest'),
    valuesFiles,
    sets: list(args, 'set'),
    // Armada documents go back to Armada, which retypes the values again when it deploys them.
    ...(/^documents-v[12]$/.test(str(args, 'to') ?? '') ? { retypedValues: 'deployed-by-armada' as const } : {}),
    // only `-` reads stdin, and a process builds its stdin stream on first use
    ...(args.positionals.includes('-') || valuesFiles?.includes('-') ? { stdin: io.stdin } : {}),
  };
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
