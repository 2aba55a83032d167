import * as path from 'path';
import { generateTypeScript } from '../../importer/codegen';
import { parse, str } from '../args';
import { INPUT_HELP, INPUT_OPTIONS, readManifest, reportToStderr } from '../common';
import { CliIo, EXIT } from '../io';
import { checkOutputFile, planFileOutput, writeFilesAtomically } from '../write';

export const HELP = `Usage: armada-cdk import FILE... -o site.ts [options]

Generates readable TypeScript that builds the same site with armada-cdk's constructs: one Chart
per chart document, values as object literals, ChartSource.* sources, Duration.* timeouts and
WaitResource.* waits. It compiles as is and synthesizes back to documents equal in meaning to the
input. The documents are validated first; nothing is written if they are invalid.

Options:
  -o, --output FILE    the TypeScript file to write (default: stdout); replaced if it exists,
                       its directory must exist
  --export-name NAME   name of the exported manifest constant (default: site)
${INPUT_HELP}

Examples:
  armada-cdk import site.yaml -o src/site.ts
  armada-cdk import global/*.yaml --target-manifest full-site -o site.ts
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('import', argv, { ...INPUT_OPTIONS, output: { type: 'string', short: 'o' }, 'export-name': { type: 'string' } });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const out = str(args, 'output');
  if (out !== undefined && out !== '-') checkOutputFile(io.cwd, out, 'import');
  const r = await readManifest(args, io, 'import');
  if (!reportToStderr(io, r)) return EXIT.INVALID;
  const exportName = str(args, 'export-name') ?? 'site';
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(exportName)) {
    io.stderr.write(`--export-name must be a JavaScript identifier; received ${JSON.stringify(exportName)}\n`);
    return 2;
  }
  const code = generateTypeScript(r.spec!, { sources: args.positionals.map((p) => path.basename(p)), exportName });
  if (out === undefined || out === '-') io.stdout.write(code);
  else {
    await writeFilesAtomically(planFileOutput(io.cwd, out, code, 'import'), () => out);
    io.stderr.write(`wrote ${out} (${r.spec!.charts.length} charts, ${r.spec!.chartGroups.length} groups)\n`);
  }
  return EXIT.OK;
}
