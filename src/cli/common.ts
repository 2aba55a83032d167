import { ResolvedInputs, resolveInputs } from '../importer/resolve';
import { list, OptionSpec, ParsedArgs, str } from './args';
import { CliIo, UsageError } from './io';
import { printLines } from './report';

/** Options every command that reads manifests accepts, as in `armada apply`. */
export const INPUT_OPTIONS: Record<string, OptionSpec> = {
  'target-manifest': { type: 'string' },
  values: { type: 'string', short: 'f', multiple: true },
  set: { type: 'string', multiple: true },
};

export const INPUT_HELP = `Input options (as armada apply):
  --target-manifest NAME   build this armada/Manifest (required when the files have several)
  -f, --values FILE        override documents, deep-merged by schema and name (repeatable)
  --set TYPE:NAME:PATH=V   set one value; TYPE is chart, chart_group or manifest (repeatable).
                           As in Armada, V is always a string and is comma-split onto a list:
                           --set chart:x:wait.timeout=600 gives "600", which the schema rejects.`;

/** Loads, overrides and validates the positional files (`-` is stdin). */
export async function readManifest(args: ParsedArgs, io: CliIo, command: string): Promise<ResolvedInputs> {
  if (args.positionals.length === 0) throw new UsageError('no input files (use - for stdin)', command);
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
  return result;
}

/** Prints the diagnostics of a command that produces output: on stderr, so stdout stays clean. */
export function reportToStderr(io: CliIo, r: ResolvedInputs): boolean {
  printLines(io, r.diagnostics, 'stderr');
  return !r.diagnostics.some((d) => d.severity === 'error') && r.spec !== undefined;
}
