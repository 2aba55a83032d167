import * as fs from 'fs';
import * as path from 'path';
import { parse, str } from '../args';
import { CliIo, EXIT, UsageError } from '../io';
import { checkOutputFile, checkOutputNotInput, planFileOutput, writeFilesAtomically } from '../write';

export const HELP = `Usage: armada-cdk values-types PATH [-o FILE.ts] [--type-name NAME]

Generates a TypeScript interface for a chart's values from its values.schema.json, with doc
comments from the schema's titles and descriptions, the way \`cdk8s import helm:\` does. PATH is a
chart directory, a schema file, or - to read the schema from stdin. Use the type with Chart<V>:

  import { MariadbValues } from './mariadb-values';
  new Chart<MariadbValues>(group, 'mariadb', { ..., values: { ... } });

Options:
  -o, --output FILE    the TypeScript file to write (default: stdout); replaced if it exists,
                       its directory must exist; it may not be one of the inputs
  --type-name NAME     the interface name (default: <ChartName>Values, from Chart.yaml's name,
                       else the directory's; ChartValues for stdin)

The schema is at most 64 MiB of UTF-8 JSON, nested at most 256 levels (objects and arrays).

Examples:
  armada-cdk values-types charts/mariadb -o src/mariadb-values.ts
  curl -s https://example.org/values.schema.json | armada-cdk values-types - --type-name MyValues
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('values-types', argv, { output: { type: 'string', short: 'o' }, 'type-name': { type: 'string' } });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  if (args.positionals.length !== 1) throw new UsageError('expected exactly one chart directory or values.schema.json (or - for stdin)', 'values-types');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ids = require('../../values-schema/identifiers') as typeof import('../../values-schema/identifiers');
  const given = args.positionals[0];
  const typeNameOption = str(args, 'type-name');
  if (typeNameOption !== undefined) {
    if (!ids.isIdentifier(typeNameOption)) {
      throw new UsageError(`--type-name must be a TypeScript identifier (ASCII letters, digits, _ and $, not starting with a digit); received ${JSON.stringify(typeNameOption)}`, 'values-types');
    }
    if (!ids.isValidTypeName(typeNameOption)) {
      throw new UsageError(`--type-name ${JSON.stringify(typeNameOption)} cannot name a type: it is a reserved word in TypeScript; use another name, such as ${pascal(typeNameOption)}Values`, 'values-types');
    }
  }
  const out = str(args, 'output');
  const toFile = out !== undefined && out !== '-';
  const outAbs = toFile ? checkOutputFile(io.cwd, out, 'values-types') : undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vs = require('../../values-schema') as typeof import('../../values-schema');
  const fail = (message: string) => (io.stderr.write(`${message}\n`), EXIT.INVALID);

  let schema: import('../../values-schema').JsonSchema | undefined;
  // The chart's values.yaml: a required key it sets need not be written.
  let defaults: Record<string, unknown> | undefined;
  let typeName = typeNameOption;
  // The files read, as the user named them (relative to the working directory).
  const inputs: string[] = [];
  try {
    if (given === '-') {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { readInputs, STDIN_NAME } = require('../../importer/load/read') as typeof import('../../importer/load/read');
      const r = await readInputs(['-'], io.stdin, { reader: 'Helm' });
      const text = r.inputs[0]?.text;
      if (text === undefined) return fail(r.diagnostics.map((d) => (d.code === 'no-documents' ? `${STDIN_NAME} is empty; expected a values schema (JSON)` : d.message)).join('\n'));
      schema = vs.parseValuesSchema(text, STDIN_NAME);
      typeName ??= 'ChartValues';
    } else {
      const target = path.resolve(io.cwd, given);
      schema = vs.loadValuesSchema(target);
      if (schema === undefined) return fail(`${given}: the chart has no ${vs.VALUES_SCHEMA_FILE}; nothing to generate`);
      const isDir = fs.statSync(target).isDirectory();
      inputs.push(isDir ? path.join(given, vs.VALUES_SCHEMA_FILE) : given);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const own = (require('../../values-schema/check-charts') as typeof import('../../values-schema/check-charts')).readChartDefaults(isDir ? target : path.dirname(target));
      if ('values' in own) defaults = own.values;
      else io.stderr.write(`warning: ${own.problem}; every key the schema requires is required\n`);
      if (typeName === undefined) {
        const dir = isDir ? target : path.dirname(target);
        const shownDir = isDir ? given : path.dirname(given);
        const chart = chartName(dir, path.join(shownDir, 'Chart.yaml'));
        if (chart.read) inputs.push(path.join(shownDir, 'Chart.yaml'));
        if (chart.warning) io.stderr.write(`${chart.warning}\n`);
        typeName = `${pascal(chart.name)}Values`;
        if (!ids.isValidTypeName(typeName)) {
          const prefixed = `Chart${typeName}`;
          io.stderr.write(`note: the chart name ${JSON.stringify(chart.name)} (from ${chart.from}) does not make a TypeScript identifier; the type is named ${prefixed} (choose another with --type-name)\n`);
          typeName = prefixed;
        }
      }
    }
    if (outAbs !== undefined) checkOutputNotInput(io.cwd, `-o ${out}`, outAbs, inputs, 'values-types');
    const code = vs.generateValuesTypes(schema, { typeName, defaults });
    if (!toFile) io.stdout.write(code);
    else {
      await writeFilesAtomically(planFileOutput(io.cwd, out, code, 'values-types'), () => out);
      io.stderr.write(`wrote ${out} (${typeName})\n`);
    }
    return EXIT.OK;
  } catch (e) {
    if (e instanceof vs.ValuesSchemaError) return fail(e.message);
    throw e;
  }
}

/**
 * The chart's name, from its Chart.yaml (read as every input is: a device or a huge file is
 * refused), or the directory's name when there is none. A Chart.yaml that cannot be read or
 * parsed, or that has no name, gives a warning and the name `Chart`.
 */
function chartName(dir: string, shown: string): { name: string; from: string; read: boolean; warning?: string | undefined } {
  const file = path.join(dir, 'Chart.yaml');
  if (!fs.existsSync(file)) return { name: path.basename(dir), from: 'the directory name', read: false };
  const fallback = (why: string) => ({ name: 'Chart', from: shown, read: true, warning: `${why}; the type is named ChartValues (choose another with --type-name)` });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readRegularFile, textProblem } = require('../../values-schema/read-file') as typeof import('../../values-schema/read-file');
  const r = readRegularFile(file);
  if ('problem' in r) return fallback(`warning: cannot read the chart's name: ${r.problem.split(file).join(shown)}`);
  const problem = textProblem(r.bytes, shown, 'Helm');
  if (problem) return fallback(`${problem.location}: warning: cannot read the chart's name: ${problem.message}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('js-yaml') as typeof import('js-yaml');
  let doc: unknown;
  try {
    doc = yaml.load(r.bytes.toString('utf8'), { filename: shown });
  } catch (e) {
    const err = e as { reason?: string; mark?: { line: number; column: number }; message?: string };
    const at = err.mark ? `:${err.mark.line + 1}:${err.mark.column + 1}` : '';
    return fallback(`${shown}${at}: warning: cannot read the chart's name: invalid YAML: ${err.reason ?? err.message ?? String(e)}`);
  }
  const name = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>).name : undefined;
  if (typeof name !== 'string' || name === '') {
    const received = name === undefined ? 'it has none' : `received ${JSON.stringify(name)}`;
    return fallback(`${shown}: warning: cannot read the chart's name: "name" must be a non-empty string; ${received}`);
  }
  return { name, from: shown, read: true };
}

function pascal(s: string): string {
  return s.split(/[^A-Za-z0-9]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('') || 'Chart';
}
