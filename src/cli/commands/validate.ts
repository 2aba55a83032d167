import { parse, str } from '../args';
import { INPUT_HELP, INPUT_OPTIONS, readManifest } from '../common';
import { CliIo, EXIT } from '../io';
import { printLines, summary, toJson } from '../report';

export const HELP = `Usage: armada-cdk validate FILE... [options]

Validates Armada documents the way Armada reads them: YAML 1.1 as PyYAML loads it, Armada's own
JSON schemas, references (manifest -> groups -> charts -> dependencies), then every rule armada-cdk
checks at synth (names, releases, waits, timeouts, values, ...). Documents of other schemas
(Deckhand, Pegleg, Promenade) are ignored, as Armada ignores them.

Prints one line per diagnostic: FILE:LINE:COL: error: <document>: <field>: <message>
Exit status: 0 valid, 1 invalid, 2 usage error.

Options:
  --format text|json       output format (default: text; json for CI)
${INPUT_HELP}

Examples:
  armada-cdk validate site/*.yaml
  armada-cdk validate --target-manifest full-site site.yaml --format json
  cat site.yaml | armada-cdk validate -
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('validate', argv, { ...INPUT_OPTIONS, format: { type: 'string', choices: ['text', 'json'] } });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const r = await readManifest(args, io, 'validate');
  const ok = r.spec !== undefined && !r.diagnostics.some((d) => d.severity === 'error');
  if (str(args, 'format') === 'json') {
    io.stdout.write(JSON.stringify({ ...toJson(r.diagnostics), manifest: r.spec?.name ?? null }, null, 2) + '\n');
  } else {
    printLines(io, r.diagnostics, 'stdout');
    io.stdout.write(ok ? `valid: manifest ${r.spec!.name}, ${r.spec!.charts.length} charts, ${r.spec!.groups.length} groups (${summary(r.diagnostics)})\n` : `invalid: ${summary(r.diagnostics)}\n`);
  }
  return ok ? EXIT.OK : EXIT.INVALID;
}
