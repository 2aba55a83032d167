import * as fs from 'fs';
import * as path from 'path';
import { parse, str } from '../args';
import { CliIo, EXIT, UsageError } from '../io';
import { planFileOutput, writeFilesAtomically } from '../write';

export const HELP = `Usage: armada-cdk values-types PATH [-o FILE.ts] [--type-name NAME]

Generates a TypeScript interface for a chart's values from its values.schema.json, with doc
comments from the schema's titles and descriptions, the way \`cdk8s import helm:\` does. PATH is a
chart directory or a schema file. Use the type with Chart<V>:

  import { MariadbValues } from './mariadb-values';
  new Chart<MariadbValues>(group, 'mariadb', { ..., values: { ... } });

Options:
  -o, --output FILE    the TypeScript file to write (default: stdout); replaced if it exists,
                       its directory must exist
  --type-name NAME     the interface name (default: <ChartName>Values, from Chart.yaml)

Examples:
  armada-cdk values-types charts/mariadb -o src/mariadb-values.ts
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('values-types', argv, { output: { type: 'string', short: 'o' }, 'type-name': { type: 'string' } });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  if (args.positionals.length !== 1) throw new UsageError('expected exactly one chart directory or values.schema.json', 'values-types');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vs = require('../../values-schema') as typeof import('../../values-schema');
  const target = path.resolve(io.cwd, args.positionals[0]);
  let schema;
  try {
    schema = vs.loadValuesSchema(target);
  } catch (e) {
    if (e instanceof vs.ValuesSchemaError) {
      io.stderr.write(`${e.message}\n`);
      return EXIT.INVALID;
    }
    throw e;
  }
  if (schema === undefined) {
    io.stderr.write(`${args.positionals[0]}: the chart has no ${vs.VALUES_SCHEMA_FILE}; nothing to generate\n`);
    return EXIT.INVALID;
  }
  const typeName = str(args, 'type-name') ?? `${pascal(chartName(target) ?? 'Chart')}Values`;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(typeName)) throw new UsageError(`--type-name must be a TypeScript identifier; received ${JSON.stringify(typeName)}`, 'values-types');
  const code = vs.generateValuesTypes(schema, { typeName });
  const out = str(args, 'output');
  if (out === undefined || out === '-') io.stdout.write(code);
  else {
    await writeFilesAtomically(planFileOutput(io.cwd, out, code, 'values-types'), () => out);
    io.stderr.write(`wrote ${out} (${typeName})\n`);
  }
  return EXIT.OK;
}

function chartName(target: string): string | undefined {
  const dir = fs.statSync(target).isDirectory() ? target : path.dirname(target);
  try {
    const m = /^name:\s*["']?([^"'\s#]+)/m.exec(fs.readFileSync(path.join(dir, 'Chart.yaml'), 'utf8'));
    return m?.[1];
  } catch {
    return path.basename(dir);
  }
}

function pascal(s: string): string {
  return s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('') || 'Chart';
}
