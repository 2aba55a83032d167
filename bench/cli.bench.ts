/**
 * Issue "import and CLI": parse + validate + convert of a generated 2,000-chart manifest next to
 * js-yaml load + dump of the same file and ajv validation of the same documents; and CLI start-up
 * next to `node -e 0`.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as path from 'path';
import AjvDraft04 from 'ajv-draft-04';
import { resolveInputs } from '../src/importer/resolve';
import { toArmadaDocuments } from '../src/model/wire/documents';
import { toYamlStream } from '../src/model/wire/yaml';
import { SchemaVersion } from '../src/model/spec';
import { Benchmark } from './harness';
import { generatedSite } from './synth.bench';

const ROOT = path.resolve(__dirname, '..', '..');

export function benchmarks(): Benchmark[] {
  let file = '';
  let validators: Map<string, (d: unknown) => boolean>;
  return [
    {
      title: 'armada-cdk convert of a 2000-chart manifest (parse + validate + convert to documents v1)',
      description: [
        'armada-cdk: `resolveInputs` (read, PyYAML-semantics parse, Armada JSON schemas, references, every semantic rule) then the documents-v1 writer and the YAML writer, in process.',
        'baseline: `js-yaml` `loadAll` + `dump` of every document, and ajv (draft-04) validation of every document against the same Armada schemas, compiled beforehand.',
      ].join('\n'),
      setup: () => {
        ({ file } = generatedSite());
        const ajv = new AjvDraft04({ allErrors: true, strict: false });
        validators = new Map();
        for (const f of fs.readdirSync(path.join(ROOT, 'schemas', 'armada'))) {
          const doc = yaml.loadAll(fs.readFileSync(path.join(ROOT, 'schemas', 'armada', f), 'utf8')).find((d: any) => d && d.metadata) as any;
          const { $schema: _ignored, ...schema } = doc.data;
          validators.set(doc.metadata.name, ajv.compile(schema));
        }
      },
      subject: {
        name: 'armada-cdk',
        run: async () => {
          const r = await resolveInputs([file], { skipChartSchemas: true });
          if (!r.spec || r.diagnostics.some((d) => d.severity === 'error')) throw new Error('the generated site did not validate');
          return toYamlStream(toArmadaDocuments(r.spec, { version: SchemaVersion.V1 }).documents);
        },
      },
      baselines: [
        {
          name: 'js-yaml load+dump + ajv',
          run: () => {
            const docs = yaml.loadAll(fs.readFileSync(file, 'utf8')) as any[];
            for (const d of docs) if (!validators.get(d.schema)!(d.data)) throw new Error('invalid');
            return docs.map((d) => yaml.dump(d)).join('---\n');
          },
        },
      ],
      target: { ratio: 3, baseline: 0 },
    },
    {
      title: 'CLI start-up (`armada-cdk --version`)',
      description: 'A fresh `node bin/armada-cdk.js --version` process (compiled JavaScript, commands loaded on demand), next to `node -e 0`, 5 processes per run.',
      subject: { name: 'armada-cdk --version', run: () => spawnTimes(5, [path.join(ROOT, 'bin', 'armada-cdk.js'), '--version']) },
      baselines: [{ name: 'node -e 0', run: () => spawnTimes(5, ['-e', '0']) }],
      target: { ratio: 4, baseline: 0 },
    },
  ];
}

function spawnTimes(n: number, args: string[]): void {
  for (let i = 0; i < n; i++) execFileSync(process.execPath, args, { stdio: 'ignore' });
}
