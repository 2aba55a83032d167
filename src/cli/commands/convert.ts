import * as path from 'path';
import { DiagnosticCodes } from '../../model/codes';
import { Diagnostic, isError } from '../../model/diagnostics';
import { buildPlan } from '../../model/plan';
import { SchemaVersion } from '../../model/spec';
import { airshipChartsAsRead } from '../../model/wire/airship-v1';
import { toArmadaDocuments } from '../../model/wire/documents';
import { otherToolsNotes } from '../left-out';
import { redactDiagnostics } from '../pegleg-input';
import { KeleustesReleaseNaming, toKeleustesObjects } from '../../model/wire/keleustes-v1alpha1';
import { WriterForm } from '../../model/wire/emit';
import { toYamlStream, yamlStreamChunks } from '../../model/wire/yaml';
import type { HelmfileOptions } from '../../model/wire/helmfile';
import { helmfileFromDocuments } from '../../helmfile/from-documents';
import { HELMFILE_CLI_HELP, HELMFILE_CLI_OPTIONS, helmfileOptions } from '../helmfile-options';
import { flag, list, parse, str } from '../args';
import { finishReport, INPUT_HELP, INPUT_OPTIONS, SITE_HELP, SITE_OPTIONS, inputFailed, readManifest, REPORT_HELP, REPORT_OPTIONS, reportOptions } from '../common';
import { FLUX_CLI_HELP, FLUX_CLI_OPTIONS, FluxLayoutArgs, fluxLayoutArgs, fluxOptions } from '../flux-options';
import { FluxDirectory, fluxDirectory, fluxSecretPaths } from '../../model/wire/flux-gitops';
import { FLUX_PACKAGING_HELP, FLUX_PACKAGING_OPTIONS, FluxPackaging, FluxPackagingArgs, fluxPackagingArgs, runFluxPackaging } from '../flux-packaging';
import { chartValueSecrets } from '../../pegleg/secrets';
import { fluxObjectsAsRead } from '../../model/wire/flux-v2';
import { CliIo, EXIT, UsageError, writePieces } from '../io';
import { plural } from '../report';
import { checkOutputDirectory, checkOutputNotInput, planDirectoryOutput, writeFilesAtomically } from '../write';

export const TARGETS = ['airship-v1', 'keleustes-v1alpha1', 'documents-v1', 'documents-v2', 'flux-v2', 'helmfile'] as const;

export const HELP = `Usage: armada-cdk convert (FILE... | --site NAME [--repo DIR]) --to TARGET [-o DIR] [options]

Converts Armada documents for another consumer, keeping their meaning; what the target cannot
express is reported (a warning, or an error when the output would be wrong).

Targets:
  airship-v1           armada.airshipit.org/v1 ArmadaChart objects (the airship armada-operator)
  keleustes-v1alpha1   ArmadaChart, ArmadaChartGroup, ArmadaManifest (the keleustes operator)
  documents-v1         classic armada/*/v1 documents
  documents-v2         classic armada/*/v2 documents (defaults that differ from v1 are written out)
  flux-v2              Flux HelmReleases (helm.toolkit.fluxcd.io/v2) ordered by dependsOn, with
                       their GitRepository/HelmRepository sources (source.toolkit.fluxcd.io/v1)
  helmfile             a helmfile.yaml (Helmfile v1): one release per chart, ordered by needs,
                       with hooks running armada-cdk wait (Armada's waits, tests, pre-upgrade
                       deletes); secret values as ref+envsubst:// references

Options:
  --to TARGET          the output format (required)
  -o, --output DIR     write DIR/<manifest>.<target>.yaml (all or nothing) instead of stdout
                       (flux-v2: the directory DIR/<manifest>/, see below). DIR is a directory
                       (created if missing, not its parents); an existing output file there is
                       replaced only with --force
  --force              replace an existing DIR/<manifest>.<target>.yaml (or flux-v2's files)
  --sync-waves         airship-v1: add argocd.argoproj.io/sync-wave annotations from the plan
  --release-naming prefixed|as-written
                       keleustes-v1alpha1: spec.release as the prefixed Helm release (default)
                       or as written
  --crd upstream|generated
                       keleustes-v1alpha1: the ArmadaChart CRD installed in the cluster.
                       upstream (default): keleustes's own, whose closed values schema drops
                       values it does not list (a warning each) and rejects values of another
                       type (an error each); real OpenStack-Helm values often fail it.
                       generated: the CRD armada-cdk generates (ArmadaOperator in cdk8s), with
                       free-form values: every value is kept as written.
${FLUX_CLI_HELP}
${FLUX_PACKAGING_HELP}
${HELMFILE_CLI_HELP}
${INPUT_HELP}
${SITE_HELP}
${REPORT_HELP}

Examples:
  armada-cdk convert site.yaml --to airship-v1 | kubectl apply -f -
  armada-cdk convert site.yaml --to documents-v2 -o out/
`;

/** Options that only mean something for one target are refused with another. */
const TARGET_OPTIONS: Record<string, (typeof TARGETS)[number]> = {
  'sync-waves': 'airship-v1',
  'release-naming': 'keleustes-v1alpha1',
  crd: 'keleustes-v1alpha1',
  ...Object.fromEntries(Object.keys(FLUX_CLI_OPTIONS).map((o) => [o, 'flux-v2' as const])),
  ...Object.fromEntries(Object.keys(FLUX_PACKAGING_OPTIONS).map((o) => [o, 'flux-v2' as const])),
  ...Object.fromEntries(Object.keys(HELMFILE_CLI_OPTIONS).map((o) => [o, 'helmfile' as const])),
};

function targetOnly(args: ReturnType<typeof parse>, to: string): void {
  for (const [option, target] of Object.entries(TARGET_OPTIONS)) {
    if (args.values[option] !== undefined && to !== target) throw new UsageError(`--${option} applies to --to ${target} only; received --to ${to}`, 'convert');
  }
}

const CLOSED_VALUES_NOTE =
  'note: these values were checked against the upstream keleustes ArmadaChart CRD (--crd upstream, the default), whose closed values schema accepts only the values it lists. ' +
  'If the cluster has the CRD armada-cdk generates (ArmadaOperator; its values are free-form), convert with --crd generated.';

// A rejected value, or the count of those past the ones listed (a chart's findings are bounded).
const rejectedByClosedValues = (d: Diagnostic) =>
  isError(d) && (d.code === DiagnosticCodes.NOT_EXPRESSIBLE || d.code === DiagnosticCodes.FINDING_LIMIT) && d.message.startsWith('the keleustes ArmadaChart CRD rejects ');

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('convert', argv, {
    ...INPUT_OPTIONS,
    ...SITE_OPTIONS,
    to: { type: 'string', choices: TARGETS },
    output: { type: 'string', short: 'o' },
    force: { type: 'boolean' },
    'sync-waves': { type: 'boolean' },
    'release-naming': { type: 'string', choices: ['prefixed', 'as-written'] },
    crd: { type: 'string', choices: ['upstream', 'generated'] },
    ...FLUX_CLI_OPTIONS,
    ...FLUX_PACKAGING_OPTIONS,
    ...HELMFILE_CLI_OPTIONS,
    ...REPORT_OPTIONS,
  });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const to = str(args, 'to') as (typeof TARGETS)[number] | undefined;
  if (!to) throw new UsageError(`--to is required (one of ${TARGETS.join(', ')})`, 'convert');
  // Option mistakes are usage errors, found before any file is read.
  targetOnly(args, to);
  const flux = to === 'flux-v2' ? fluxOptions(args) : undefined;
  const report = reportOptions(args, 'convert');
  const dir = str(args, 'output');
  const layout = to === 'flux-v2' ? fluxLayoutArgs(args, dir) : undefined;
  const packaging = to === 'flux-v2' ? fluxPackagingArgs(args, dir, io.cwd) : undefined;
  if (dir !== undefined && dir !== '-') checkOutputDirectory(io.cwd, dir, 'convert');
  const helmfile = to === 'helmfile' ? helmfileOptions(args, io.cwd, dir === undefined || dir === '-' ? io.cwd : path.resolve(io.cwd, dir)) : undefined;
  const { objects, name, text, directory, chartFiles } = await convert(args, io, to, flux, report, layout, helmfile, packaging);
  if (!objects) return EXIT.INVALID;
  if (text !== undefined) {
    // One YAML document, as Helmfile reads a state file: no document markers.
    if (dir === undefined || dir === '-') {
      // In pieces, each handed over when the reader has taken the one before (see writePieces).
      const pieces = function* () {
        for (let i = 0; i < text.length; i += 65536) yield text.slice(i, i + 65536);
      };
      await writePieces(io.stdout, pieces());
      return EXIT.OK;
    }
    const plan = planDirectoryOutput(io.cwd, dir, [{ name: `${name}.${to}.yaml`, content: text }], { force: flag(args, 'force'), command: 'convert' });
    for (const f of plan.files) checkOutputNotInput(io.cwd, `the output ${path.join(dir, path.basename(f.path))}`, f.path, [...args.positionals, ...list(args, 'values')], 'convert');
    await writeFilesAtomically(plan, (p) => path.relative(io.cwd, p) || p);
    const file = plan.files[0].path;
    io.stderr.write(`wrote ${path.relative(io.cwd, file) || file}\n`);
    return EXIT.OK;
  }
  if (directory !== undefined && dir !== undefined) {
    const out = directory.files.map((f) => ({ name: f.path, content: f.content }));
    const plan = planDirectoryOutput(io.cwd, dir, [...out, ...(chartFiles ?? [])], { force: flag(args, 'force'), command: 'convert' });
    for (const f of plan.files) checkOutputNotInput(io.cwd, `the output ${path.relative(io.cwd, f.path) || f.path}`, f.path, [...args.positionals, ...list(args, 'values')], 'convert');
    await writeFilesAtomically(plan, (p) => path.relative(io.cwd, p) || p);
    io.stderr.write(`wrote ${path.join(dir, name)}/ (${plural(directory.files.length, 'file')}, ${plural(directory.objectCount, 'object')})\n`);
    wroteCharts(io, dir, name, chartFiles, packaging);
    for (const line of directory.notes) io.stderr.write(`${line}\n`);
    return EXIT.OK;
  }
  if (dir === undefined || dir === '-') {
    // Every finding is reported before the first byte: what is left, building the objects not
    // built yet (Flux's HelmReleases, the airship ArmadaCharts) and writing plain objects as
    // YAML, cannot fail, so the pieces go out as they are made and none is kept (on a large site,
    // held pieces were most of what the young GC copied at the end).
    // Each is made when the reader has taken the one before (see writePieces).
    await writePieces(io.stdout, yamlStreamChunks(objects));
  } else {
    const all = [...objects];
    const plan = planDirectoryOutput(io.cwd, dir, [{ name: `${name}.${to}.yaml`, content: toYamlStream(all) }, ...(chartFiles ?? [])], { force: flag(args, 'force'), command: 'convert' });
    for (const f of plan.files) checkOutputNotInput(io.cwd, `the output ${path.join(dir, path.basename(f.path))}`, f.path, [...args.positionals, ...list(args, 'values')], 'convert');
    await writeFilesAtomically(plan, (p) => path.relative(io.cwd, p) || p);
    const file = plan.files[0].path;
    io.stderr.write(`wrote ${path.relative(io.cwd, file) || file} (${plural(all.length, 'object')})\n`);
    wroteCharts(io, dir, name, chartFiles, packaging);
  }
  return EXIT.OK;
}

/** The line that says where the chart repository of --package-charts went, and where it goes. */
function wroteCharts(io: CliIo, dir: string, name: string, files: FluxPackaging['files'] | undefined, packaging: FluxPackagingArgs | undefined): void {
  if (files === undefined || files.length === 0 || packaging?.url === undefined) return;
  io.stderr.write(`wrote ${path.join(dir, `${name}.charts`)}/ (index.yaml, ${plural(files.length - 1, 'chart archive')}): publish its files at ${packaging.url}, where the HelmRepository reads them\n`);
}

/** The objects are written as YAML and kept by nobody: chart values are not copied for them. */
const FOR_YAML: WriterForm = { valuesForYamlWriter: true };

/**
 * Reads, checks, converts and reports; `objects` is undefined when the input has errors (or too
 * many warnings). Only the converted objects outlive this call: the loaded documents and the spec
 * can be collected while the output is written. Flux's HelmReleases and the airship ArmadaCharts
 * are made as they are written (every finding is made before), so what outlives it for them is
 * what builds them.
 */
async function convert(
  args: ReturnType<typeof parse>,
  io: CliIo,
  to: (typeof TARGETS)[number],
  flux: ReturnType<typeof fluxOptions> | undefined,
  report: ReturnType<typeof reportOptions>,
  layout: FluxLayoutArgs | undefined,
  helmfile?: HelmfileOptions | undefined,
  packaging?: FluxPackagingArgs | undefined,
): Promise<{ objects?: Iterable<unknown> | undefined; name: string; text?: string | undefined; directory?: FluxDirectory | undefined; chartFiles?: FluxPackaging['files'] | undefined }> {
  const r = await readManifest(args, io, 'convert');
  if (await inputFailed(io, r, report)) return { name: '' };
  const spec = r.spec!;
  let objects: Iterable<unknown>;
  let diagnostics: readonly Diagnostic[];
  let text: string | undefined;
  let directory: (() => FluxDirectory) | undefined;
  const secretFindings: Diagnostic[] = [];
  let secretNotes: readonly string[] = [];
  let pk: FluxPackaging | undefined;
  if (helmfile !== undefined) {
    const out = helmfileFromDocuments({ spec, documents: r.documents, secrets: r.secrets }, helmfile);
    text = out.text;
    objects = [];
    diagnostics = out.diagnostics;
    secretNotes = out.notes;
  } else if (to === 'documents-v1' || to === 'documents-v2') {
    const out = toArmadaDocuments(spec, { version: to === 'documents-v1' ? SchemaVersion.V1 : SchemaVersion.V2 }, FOR_YAML);
    objects = out.documents;
    diagnostics = out.diagnostics.all;
  } else if (flux !== undefined) {
    const plan = buildPlan(spec);
    // Fetched only for an input without errors.
    pk = packaging === undefined || r.diagnostics.some(isError) ? undefined : await runFluxPackaging(spec, plan, packaging, flux.localSources);
    const options = pk === undefined ? flux : { ...flux, chartRepository: pk.repository, subchartOutcomes: pk.outcomes };
    const out = fluxObjectsAsRead(spec, plan, options, FOR_YAML);
    const toFiles = str(args, 'output') !== undefined && str(args, 'output') !== '-';
    const secrets = fluxSecretPaths(spec, plan, chartValueSecrets(r.documents, r.secrets), {
      substituteFrom: layout?.substituteFrom,
      toFiles,
      from: "from Deckhand's secret documents",
      fix: 'write the GitOps directory with -o DIR --substitute-from SECRET, which puts a ${SECRET_...} placeholder there and names the keys to put in that Secret',
    });
    secretFindings.push(...secrets.diagnostics);
    objects = out.objects;
    diagnostics = out.diagnostics.all;
    if (layout !== undefined) {
      directory = () => fluxDirectory(spec, plan, out.objects, options, layout, secrets.secretPaths);
    }
  } else if (to === 'airship-v1') {
    const out = airshipChartsAsRead(spec, buildPlan(spec), { syncWaves: flag(args, 'sync-waves') }, FOR_YAML);
    objects = out.objects;
    diagnostics = out.diagnostics.all;
  } else {
    const naming = str(args, 'release-naming') === 'as-written' ? KeleustesReleaseNaming.AS_WRITTEN : KeleustesReleaseNaming.PREFIXED;
    const out = toKeleustesObjects(spec, buildPlan(spec), { releaseNaming: naming, crd: str(args, 'crd') === 'generated' ? 'generated' : 'upstream' }, FOR_YAML);
    objects = out.objects;
    diagnostics = out.diagnostics.all;
  }
  const all = [...r.diagnostics, ...redactDiagnostics([...diagnostics, ...secretFindings, ...(pk?.diagnostics ?? [])], r.secrets)];
  const notes = [
    ...otherToolsNotes(r.documents, `convert --to ${to}`),
    ...(to === 'keleustes-v1alpha1' && str(args, 'crd') !== 'generated' && all.some(rejectedByClosedValues) ? [CLOSED_VALUES_NOTE] : []),
    // What to set for the output: only when it is written.
    ...(all.some(isError) ? [] : secretNotes),
  ];
  if (!(await finishReport(io, all, report, notes))) return { name: spec.name };
  // Built only for an input without errors: its objects are complete.
  return { objects, name: spec.name, text, directory: directory?.(), chartFiles: pk?.files };
}
