import * as path from 'path';
import { exportNameProblem, generateTypeScript } from '../../importer/codegen';
import { flag, list, parse, str } from '../args';
import { finishReport, INPUT_HELP, INPUT_OPTIONS, SITE_HELP, SITE_OPTIONS, inputFailed, readManifest, REPORT_HELP, REPORT_OPTIONS, reportOptions } from '../common';
import { CliIo, EXIT, UsageError } from '../io';
import { plural } from '../report';
import { checkOutputFile, checkOutputNotInput, planFileOutput, writeFilesAtomically } from '../write';
import { otherToolsNotes } from '../left-out';
import { chartValueSecrets } from '../../pegleg/secrets';

export const HELP = `Usage: armada-cdk import (FILE... | --site NAME [--repo DIR]) -o site.ts [options]

Generates readable TypeScript that builds the same site with armada-cdk's constructs: one Chart
per chart document, values as object literals, ChartSource.* sources, Duration.* timeouts and
WaitResource.* waits. It compiles as is and synthesizes back to documents equal in meaning to the
input. The documents are validated first; nothing is written if they are invalid.

Options:
  -o, --output FILE    the TypeScript file to write (default: stdout); replaced if it exists,
                       its directory must exist; it may not be one of the inputs
  --export-name NAME   name of the exported manifest constant (default: site); "default"
                       makes it the module's default export
  --pulumi             also write the site's ManifestDeployment (armada-cdk/pulumi), to deploy
                       it with pulumi up
  --pulumi-takeover    the same, taking over the releases Armada installed (implies --pulumi)
${INPUT_HELP}
${SITE_HELP}
${REPORT_HELP}

Examples:
  armada-cdk import site.yaml -o src/site.ts
  armada-cdk import global/*.yaml --target-manifest full-site -o site.ts
  armada-cdk import site.yaml --pulumi-takeover -o index.ts
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('import', argv, { ...INPUT_OPTIONS, ...SITE_OPTIONS, ...REPORT_OPTIONS, output: { type: 'string', short: 'o' }, 'export-name': { type: 'string' }, pulumi: { type: 'boolean' }, 'pulumi-takeover': { type: 'boolean' } });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const out = str(args, 'output');
  if (out !== undefined && out !== '-') checkOutputNotInput(io.cwd, `-o ${out}`, checkOutputFile(io.cwd, out, 'import'), [...args.positionals, ...list(args, 'values')], 'import');
  const exportName = str(args, 'export-name') ?? 'site';
  const problem = exportNameProblem(exportName);
  if (problem) throw new UsageError(`--export-name ${JSON.stringify(exportName)} cannot name the exported manifest: ${problem}; use another name, or --export-name default for a default export`, 'import');
  const report = reportOptions(args, 'import');
  const r = await readManifest(args, io, 'import');
  if ((await inputFailed(io, r, report)) || !(await finishReport(io, r.diagnostics, report, otherToolsNotes(r.documents, 'import')))) return EXIT.INVALID;
  const code = generateTypeScript(r.spec!, { sources: str(args, 'site') !== undefined ? [`Pegleg site ${str(args, 'site')}`] : args.positionals.map((p) => path.basename(p)), exportName, secretValues: chartValueSecrets(r.documents, r.secrets), ...pulumiOption(args) });
  if (out === undefined || out === '-') io.stdout.write(code);
  else {
    await writeFilesAtomically(planFileOutput(io.cwd, out, code, 'import'), () => out);
    io.stderr.write(`wrote ${out} (${plural(r.spec!.charts.length, 'chart')}, ${plural(r.spec!.chartGroups.length, 'group')})\n`);
  }
  return EXIT.OK;
}

/** `--pulumi` and `--pulumi-takeover`: the ManifestDeployment the generated module also writes. */
function pulumiOption(args: ReturnType<typeof parse>): { pulumi?: { takeover: boolean } } {
  if (flag(args, 'pulumi-takeover')) return { pulumi: { takeover: true } };
  return flag(args, 'pulumi') ? { pulumi: { takeover: false } } : {};
}
