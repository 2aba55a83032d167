import { parse, str } from '../args';
import { INPUT_HELP, INPUT_OPTIONS, SITE_HELP, SITE_OPTIONS, readManifest, REPORT_HELP, REPORT_OPTIONS, reportOptions } from '../common';
import { CliIo, EXIT } from '../io';
import { hasErrors } from '../../model/diagnostics';
import { plural, printReport, tooManyWarnings, toJson } from '../report';

export const HELP = `Usage: armada-cdk validate (FILE... | --site NAME [--repo DIR]) [options]

Validates Armada documents the way Armada reads them: YAML 1.1 as PyYAML loads it, Armada's own
JSON schemas, references (manifest -> groups -> charts -> dependencies), then every rule armada-cdk
checks at synth (names, releases, waits, timeouts, values, ...). A document the schemas reject
is left out of the rules, which still check the others. Documents of other schemas (Deckhand,
Pegleg, Promenade) are ignored, as Armada ignores them.

Prints one line per diagnostic on stderr: FILE:LINE:COL: error: <document>: <field>: <message>,
then "valid: ..." or "invalid: ..." with the counts (N errors, M warnings).
Exit status: 0 valid, 1 invalid (or more warnings than --max-warnings), 2 usage error.

Options:
  --format text|json       output format (default: text; json for CI, on stdout)
${INPUT_HELP}
${SITE_HELP}
${REPORT_HELP}

Examples:
  armada-cdk validate site/*.yaml
  armada-cdk validate --target-manifest full-site site.yaml --format json
  cat site.yaml | armada-cdk validate -
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('validate', argv, { ...INPUT_OPTIONS, ...SITE_OPTIONS, ...REPORT_OPTIONS, format: { type: 'string', choices: ['text', 'json'] } });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const report = reportOptions(args, 'validate');
  const r = await readManifest(args, io, 'validate');
  const valid = r.spec !== undefined && !hasErrors(r.diagnostics);
  const ok = valid && !tooManyWarnings(r.diagnostics, report);
  if (str(args, 'format') === 'json') {
    io.stdout.write(JSON.stringify({ ...toJson(r.diagnostics, report.files), manifest: r.spec?.name ?? null }, null, 2) + '\n');
  } else {
    await printReport(io, r.diagnostics, report, valid ? `valid: manifest ${r.spec!.name}, ${plural(r.spec!.charts.length, 'chart')}, ${plural(r.spec!.groups.length, 'group')}` : 'invalid');
  }
  return ok ? EXIT.OK : EXIT.INVALID;
}
