/**
 * The `armada-cdk` command: the only place with argv and exit codes. Commands are loaded on
 * demand, so that `armada-cdk --version` starts as fast as Node itself.
 */
import { suggest } from '../model/diagnostics';
import { CliIo, EXIT, OutputError, processIo, settleOutput, UsageError } from './io';

/* eslint-disable @typescript-eslint/no-require-imports -- each command loads on demand (start-up time) */
const COMMANDS: Record<string, { summary: string; load: () => { run(argv: string[], io: CliIo): Promise<number>; HELP: string } }> = {
  validate: { summary: 'validate Armada documents (schemas, references, armada-cdk rules)', load: () => require('./commands/validate') },
  plan: { summary: 'print the deployment steps (text, json, mermaid, dot)', load: () => require('./commands/plan') },
  convert: { summary: 'convert to operator CRs, Armada documents v1/v2 or Flux HelmReleases', load: () => require('./commands/convert') },
  import: { summary: 'generate TypeScript constructs from Armada documents', load: () => require('./commands/import') },
  render: { summary: 'render a Pegleg/Deckhand site (layering, substitution) as pegleg site render', load: () => require('./commands/render') },
  wait: { summary: "run a chart's (or group's) Armada wait against a cluster", load: () => require('./commands/wait') },
  'values-types': { summary: "generate a chart's values type from its values.schema.json", load: () => require('./commands/values-types') },
};
/* eslint-enable @typescript-eslint/no-require-imports */

const HELP = `Usage: armada-cdk <command> [options]

Commands:
${Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(14)} ${c.summary}`).join('\n')}

Options:
  -h, --help      show help (also: armada-cdk <command> --help)
  -V, --version   print the version (also -v)

Examples:
  armada-cdk validate site.yaml
  armada-cdk plan site.yaml --format mermaid
  armada-cdk convert site.yaml --to airship-v1 -o out/
  armada-cdk import site.yaml -o site.ts
`;

function version(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { findPackageRoot } = require('../importer/load/package-root') as typeof import('../importer/load/package-root');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(`${findPackageRoot()}/package.json`) as { version: string }).version;
}

/** Runs the CLI; resolves to the exit code. Never throws for a user mistake. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    // Asked for, help is the output (a failed write fails the run); without a command it explains
    // a usage error, on stderr.
    if (command === 'help' && rest[0] && Object.hasOwn(COMMANDS, rest[0])) return io.stdout.write(COMMANDS[rest[0]].load().HELP), settleOutput(io, EXIT.OK);
    if (command === undefined) return io.stderr.write(HELP), EXIT.USAGE;
    io.stdout.write(HELP);
    return settleOutput(io, EXIT.OK);
  }
  if (command === '-V' || command === '-v' || command === '--version') {
    io.stdout.write(`${version()}\n`);
    return settleOutput(io, EXIT.OK);
  }
  const cmd = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!cmd) {
    const hint = suggest(command, Object.keys(COMMANDS));
    io.stderr.write(`armada-cdk: unknown command ${JSON.stringify(command)}${hint ? ` (did you mean ${hint}?)` : ''}\nRun armada-cdk --help for the commands.\n`);
    return EXIT.USAGE;
  }
  try {
    return await settleOutput(io, await cmd.load().run([...rest], io));
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr.write(`armada-cdk ${command}: ${e.message}\nRun armada-cdk ${command} --help for usage.\n`);
      return EXIT.USAGE;
    }
    if (e instanceof OutputError) return io.stderr.write(`armada-cdk ${command}: ${e.message}\n`), e.exitCode;
    // Not a user mistake: say so plainly; the stack only on request.
    const err = e as Error;
    io.stderr.write(`armada-cdk ${command}: internal error: ${err?.message ?? String(e)}\n`);
    if (process.env.ARMADA_CDK_DEBUG) io.stderr.write(`${err?.stack ?? ''}\n`);
    else io.stderr.write('This is a bug in armada-cdk; rerun with ARMADA_CDK_DEBUG=1 for details and report it.\n');
    return 70;
  }
}
