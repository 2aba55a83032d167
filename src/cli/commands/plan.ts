import { buildPlan, Plan } from '../../model/plan';
import { parse, str } from '../args';
import { finishReport, INPUT_HELP, INPUT_OPTIONS, SITE_HELP, SITE_OPTIONS, inputFailed, readManifest, REPORT_HELP, REPORT_OPTIONS, reportOptions } from '../common';
import { CliIo, EXIT } from '../io';

export const HELP = `Usage: armada-cdk plan (FILE... | --site NAME [--repo DIR]) [options]

Prints the deployment steps armada apply would run: groups in manifest order; a sequenced group
is one step per chart, an unsequenced group one step with all its charts. Each step starts once
every release of the previous step is ready.

Options:
  --format text|json|mermaid|dot   output format (default: text)
${INPUT_HELP}
${SITE_HELP}
${REPORT_HELP}

The text form lists each release with its namespace, chart and wait: the timeout, the resource
types waited on (a "?" marks an optional one, which passes when there is none: job?), "no
resource wait" for wait.resources: [], "helm --wait" when Helm's native wait is on, the test
timeout when tests run, "after X" for addDependency edges, and "again" for a chart deployed by
an earlier group too.

The JSON form: {"manifest", "releasePrefix", "steps": [{"index", "group", "sequenced",
"releases": [{"name", "namespace", "chart", "waitTimeout"}]}]}, steps in deployment order.

Examples:
  armada-cdk plan site.yaml
  armada-cdk plan site.yaml --format mermaid > plan.mmd
  armada-cdk plan site.yaml --format dot | dot -Tsvg > plan.svg
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('plan', argv, { ...INPUT_OPTIONS, ...SITE_OPTIONS, ...REPORT_OPTIONS, format: { type: 'string', choices: ['text', 'json', 'mermaid', 'dot'] } });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const report = reportOptions(args, 'plan');
  const r = await readManifest(args, io, 'plan');
  if ((await inputFailed(io, r, report)) || !(await finishReport(io, r.diagnostics, report))) return EXIT.INVALID;
  const plan = buildPlan(r.spec!);
  const format = str(args, 'format') ?? 'text';
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const render = require('../plan-formats') as typeof import('../plan-formats');
  const text = format === 'json' ? JSON.stringify(plan.toJSON(), null, 2) + '\n' : format === 'mermaid' ? render.mermaid(plan) : format === 'dot' ? render.dot(plan) : render.text(plan);
  io.stdout.write(text);
  return EXIT.OK;
}

export type { Plan };
