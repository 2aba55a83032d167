/**
 * Generates the operator CRDs (apiextensions.k8s.io/v1, structural schemas) from the wire types
 * in src/model/wire/types.ts, into src/cdk8s/operator/crds/*.json (committed; the ArmadaOperator
 * construct reads them at synth, and a test fails when they are stale).
 *
 *   npx ts-node scripts/generate-crds.ts          # write the files
 *   npx ts-node scripts/generate-crds.ts --check  # exit 1 when the committed files differ
 *
 * The CRD envelopes (names, printer columns, subresources) follow the upstream operators' CRDs;
 * the schemas come from the types only.
 */
import * as fs from 'fs';
import * as path from 'path';
import { createSchemaProgram, JsonSchema, schemasFor } from './ts-schema';

const ROOT = path.resolve(__dirname, '..');
/** The types file, relative to the project root. */
export const TYPES_FILE = path.join('src', 'model', 'wire', 'types.ts');
/** Where the CRDs are written, relative to the project root. */
export const CRD_DIR = path.join('src', 'cdk8s', 'operator', 'crds');

interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly jsonPath: string;
  readonly description?: string | undefined;
  readonly priority?: number | undefined;
}

/** One CRD: its names, the type of its body (`data` or `spec`) and of its status. */
interface CrdDefinition {
  readonly file: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames?: readonly string[] | undefined;
  readonly description: string;
  readonly bodyField: 'data' | 'spec';
  readonly bodyType: string;
  readonly statusType: string;
  readonly printerColumns: readonly PrinterColumn[];
}

const KELEUSTES_COLUMNS: readonly PrinterColumn[] = [
  { description: 'State', jsonPath: '.status.actual_state', name: 'State', type: 'string' },
  { description: 'Target State', jsonPath: '.spec.target_state', name: 'Target State', type: 'string' },
  { description: 'Satisfied', jsonPath: '.status.satisfied', name: 'Satisfied', type: 'boolean' },
];

const keleustes = (kind: string, plural: string, shortName: string, bodyType: string, description: string): CrdDefinition => ({
  file: `keleustes-v1alpha1-${plural}.json`,
  group: 'armada.airshipit.org',
  version: 'v1alpha1',
  kind,
  plural,
  singular: kind.toLowerCase(),
  shortNames: [shortName],
  description,
  bodyField: 'spec',
  bodyType,
  statusType: 'KeleustesStatus',
  printerColumns: KELEUSTES_COLUMNS,
});

/** Every CRD armada-cdk installs, by operator API. */
export const CRD_DEFINITIONS: readonly CrdDefinition[] = [
  {
    file: 'airship-v1-armadacharts.json',
    group: 'armada.airshipit.org',
    version: 'v1',
    kind: 'ArmadaChart',
    plural: 'armadacharts',
    singular: 'armadachart',
    description: 'ArmadaChart is one Helm release for the airship armada-operator; its specification is under `data`.',
    bodyField: 'data',
    bodyType: 'AirshipArmadaChartData',
    statusType: 'AirshipArmadaChartStatus',
    printerColumns: [
      { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
      { jsonPath: '.status.conditions[?(@.type=="Ready")].status', name: 'Ready', type: 'string' },
      { jsonPath: '.status.helmStatus', name: 'Helm Status', type: 'string' },
      { jsonPath: '.status.waitCompleted', name: 'Wait Done', type: 'boolean' },
      { jsonPath: '.status.tested', name: 'Tested', type: 'boolean' },
      { jsonPath: '.status.conditions[?(@.type=="Ready")].message', name: 'Message', priority: 10, type: 'string' },
    ],
  },
  keleustes('ArmadaChart', 'armadacharts', 'act', 'KeleustesArmadaChartSpec', 'ArmadaChart is one Helm release for the keleustes armada-operator.'),
  keleustes('ArmadaChartGroup', 'armadachartgroups', 'acg', 'KeleustesArmadaChartGroupSpec', 'ArmadaChartGroup enables ArmadaCharts of its namespace, in order.'),
  keleustes('ArmadaManifest', 'armadamanifests', 'amf', 'KeleustesArmadaManifestSpec', 'ArmadaManifest enables ArmadaChartGroups of its namespace, one at a time, in order.'),
];

const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

/** The CRDs as objects, by file name, from the types file under `root`. */
export function generateCrds(root: string = ROOT): Record<string, Record<string, unknown>> {
  const typesFile = path.join(root, TYPES_FILE);
  const program = createSchemaProgram([typesFile]);
  const names = [...new Set(CRD_DEFINITIONS.flatMap((d) => [d.bodyType, d.statusType]))];
  const { schemas } = schemasFor(program, typesFile, names, { mode: 'inline' });
  const out: Record<string, Record<string, unknown>> = {};
  for (const d of CRD_DEFINITIONS) out[d.file] = crd(d, schemas[d.bodyType], schemas[d.statusType]);
  return out;
}

function crd(d: CrdDefinition, body: JsonSchema, status: JsonSchema): Record<string, unknown> {
  const openAPIV3Schema: JsonSchema = {
    description: d.description,
    type: 'object',
    properties: {
      apiVersion: { description: API_VERSION_DESCRIPTION, type: 'string' },
      kind: { description: KIND_DESCRIPTION, type: 'string' },
      metadata: { type: 'object' },
      [d.bodyField]: body,
      status,
    },
    // A CR without its body does nothing; the API server may as well say so.
    required: [d.bodyField],
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${d.plural}.${d.group}` },
    spec: {
      group: d.group,
      names: {
        kind: d.kind,
        listKind: `${d.kind}List`,
        plural: d.plural,
        ...(d.shortNames ? { shortNames: [...d.shortNames] } : {}),
        singular: d.singular,
      },
      scope: 'Namespaced',
      versions: [
        {
          name: d.version,
          served: true,
          storage: true,
          additionalPrinterColumns: d.printerColumns.map((c) => ({ ...c })),
          schema: { openAPIV3Schema },
          subresources: { status: {} },
        },
      ],
    },
  };
}

/** The file contents: stable JSON, two-space indented, newline-terminated. */
export function renderCrd(crdObject: Record<string, unknown>): string {
  return JSON.stringify(crdObject, null, 2) + '\n';
}

/** Files under `root`'s CRD directory that differ from what the types generate (by file name). */
export function staleCrdFiles(root: string = ROOT): string[] {
  const generated = generateCrds(root);
  const dir = path.join(root, CRD_DIR);
  const present = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  const stale = Object.keys(generated).filter((f) => !present.includes(f) || fs.readFileSync(path.join(dir, f), 'utf8') !== renderCrd(generated[f]));
  const extra = present.filter((f) => !(f in generated));
  return [...stale, ...extra].sort();
}

function main(argv: readonly string[]): number {
  if (argv.includes('--check')) {
    const stale = staleCrdFiles();
    if (stale.length > 0) {
      process.stderr.write(`stale CRDs in ${CRD_DIR}: ${stale.join(', ')}; run scripts/generate-crds.ts\n`);
      return 1;
    }
    return 0;
  }
  const dir = path.join(ROOT, CRD_DIR);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, object] of Object.entries(generateCrds())) {
    fs.writeFileSync(path.join(dir, file), renderCrd(object));
    process.stdout.write(`wrote ${path.join(CRD_DIR, file)}\n`);
  }
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
