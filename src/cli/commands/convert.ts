import * as path from 'path';
import { Diagnostic } from '../../model/diagnostics';
import { buildPlan } from '../../model/plan';
import { SchemaVersion } from '../../model/spec';
import { toAirshipCharts } from '../../model/wire/airship-v1';
import { toArmadaDocuments } from '../../model/wire/documents';
import { KeleustesReleaseNaming, toKeleustesObjects } from '../../model/wire/keleustes-v1alpha1';
import { toYamlStream, writeYamlStream } from '../../model/wire/yaml';
import { flag, parse, str } from '../args';
import { INPUT_HELP, INPUT_OPTIONS, readManifest, reportToStderr } from '../common';
import { CliIo, EXIT, UsageError } from '../io';
import { printLines } from '../report';
import { writeFilesAtomically } from '../write';

export const TARGETS = ['airship-v1', 'keleustes-v1alpha1', 'documents-v1', 'documents-v2'] as const;

export const HELP = `Usage: armada-cdk convert FILE... --to TARGET [-o DIR] [options]

Converts Armada documents for another consumer, keeping their meaning; what the target cannot
express is reported (a warning, or an error when the output would be wrong).

Targets:
  airship-v1           armada.airshipit.org/v1 ArmadaChart objects (the airship armada-operator)
  keleustes-v1alpha1   ArmadaChart, ArmadaChartGroup, ArmadaManifest (the keleustes operator)
  documents-v1         classic armada/*/v1 documents
  documents-v2         classic armada/*/v2 documents (defaults that differ from v1 are written out)

Options:
  --to TARGET          the output format (required)
  -o, --output DIR     write DIR/<manifest>.<target>.yaml (all or nothing) instead of stdout
  --sync-waves         airship-v1: add argocd.argoproj.io/sync-wave annotations from the plan
  --release-naming prefixed|as-written
                       keleustes-v1alpha1: spec.release as the prefixed Helm release (default)
                       or as written
${INPUT_HELP}

Examples:
  armada-cdk convert site.yaml --to airship-v1 | kubectl apply -f -
  armada-cdk convert site.yaml --to documents-v2 -o out/
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('convert', argv, {
    ...INPUT_OPTIONS,
    to: { type: 'string', choices: TARGETS },
    output: { type: 'string', short: 'o' },
    'sync-waves': { type: 'boolean' },
    'release-naming': { type: 'string', choices: ['prefixed', 'as-written'] },
  });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const to = str(args, 'to') as (typeof TARGETS)[number] | undefined;
  if (!to) throw new UsageError(`--to is required (one of ${TARGETS.join(', ')})`, 'convert');
  const { objects, diagnostics, name } = await convert(args, io, to);
  if (!objects) return EXIT.INVALID;
  printLines(io, diagnostics, 'stderr');
  if (diagnostics.some((d) => d.severity === 'error')) return EXIT.INVALID;
  const dir = str(args, 'output');
  if (dir === undefined || dir === '-') {
    // Written once all of it is built (no partial output), from flat pieces rather than one
    // string: `charCodeAt` makes V8 flatten each piece, whose concatenations would otherwise be
    // kept as a tree several times the size of the text.
    const pieces: string[] = [];
    writeYamlStream(objects, (text) => {
      text.charCodeAt(0);
      pieces.push(text);
    });
    for (const p of pieces) io.stdout.write(p);
  } else {
    const file = path.resolve(io.cwd, dir, `${name}.${to}.yaml`);
    writeFilesAtomically([{ path: file, content: toYamlStream(objects) }]);
    io.stderr.write(`wrote ${path.relative(io.cwd, file) || file} (${objects.length} objects)\n`);
  }
  return EXIT.OK;
}

/**
 * Reads, checks and converts; `objects` is undefined when the input has errors (printed). Only
 * the converted objects outlive this call: the loaded documents and the spec can be collected
 * while the output is written.
 */
async function convert(args: ReturnType<typeof parse>, io: CliIo, to: (typeof TARGETS)[number]): Promise<{ objects?: unknown[]; diagnostics: readonly Diagnostic[]; name: string }> {
  const r = await readManifest(args, io, 'convert');
  if (!reportToStderr(io, r)) return { diagnostics: [], name: '' };
  const spec = r.spec!;
  let objects: unknown[];
  let diagnostics: readonly Diagnostic[];
  if (to === 'documents-v1' || to === 'documents-v2') {
    const out = toArmadaDocuments(spec, { version: to === 'documents-v1' ? SchemaVersion.V1 : SchemaVersion.V2 });
    objects = out.documents;
    diagnostics = out.diagnostics.all;
  } else if (to === 'airship-v1') {
    const out = toAirshipCharts(spec, buildPlan(spec), { syncWaves: flag(args, 'sync-waves') });
    objects = out.objects;
    diagnostics = out.diagnostics.all;
  } else {
    const naming = str(args, 'release-naming') === 'as-written' ? KeleustesReleaseNaming.AS_WRITTEN : KeleustesReleaseNaming.PREFIXED;
    const out = toKeleustesObjects(spec, buildPlan(spec), { releaseNaming: naming });
    objects = out.objects;
    diagnostics = out.diagnostics.all;
  }
  return { objects, diagnostics, name: spec.name };
}
