/**
 * Issue "core": synthesizing a generated 2,000-chart manifest through cdk8s, next to the same
 * objects as plain cdk8s ApiObjects and a raw js-yaml dump of the same data.
 */
import { execFileSync } from 'child_process';
import * as cdk8s from 'cdk8s';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as os from 'os';
import * as path from 'path';
import { ArmadaChartOutput } from '../src/cdk8s';
import { specToConstructs } from '../src/importer/to-constructs';
import { ManifestSpec } from '../src/model/spec';
import { documentsToSpec, InputDocument } from '../src/model/wire/from-documents';
import { Benchmark } from './harness';

const CHARTS = 2000;

/**
 * The generated site, generated once per machine and generator version (the file name carries a
 * hash of the generator, so a changed generator never reuses an old file).
 */
export function generatedSite(charts = CHARTS): { file: string; text: string } {
  const generator = path.resolve(__dirname, '..', '..', '..', 'shared', 'tools', 'gen-manifest.mjs');
  if (!fs.existsSync(generator)) throw new Error(`the benchmark needs the shared generator beside the checkout (${path.relative(process.cwd(), generator)})`);
  const version = crypto.createHash('sha256').update(fs.readFileSync(generator)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), 'armada-cdk-bench');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `site-${charts}-${version}.yaml`);
  if (!fs.existsSync(file)) {
    const generated = execFileSync(process.execPath, [generator, String(charts)], { maxBuffer: 1 << 30, encoding: 'utf8' });
    // written beside and renamed, so that a concurrent run never reads half a file
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, generated);
    fs.renameSync(tmp, file);
  }
  return { file, text: fs.readFileSync(file, 'utf8') };
}

/** The spec of a generated site, read without positions (the benchmarks that start from a spec). */
export function specOf(text: string): ManifestSpec {
  const docs: InputDocument[] = (yaml.loadAll(text) as any[]).map((d, i) => ({
    schema: d.schema,
    name: d.metadata.name,
    data: d.data,
    origin: { locate: () => ({ location: `site#${i}` }) },
  }));
  const { spec, diagnostics } = documentsToSpec(docs);
  if (!spec || diagnostics.hasErrors) throw new Error('generated site did not convert');
  return spec;
}

export function benchmarks(): Benchmark[] {
  let spec: ManifestSpec;
  let objects: any[] = [];
  return [
    {
      title: `cdk8s synth of a ${CHARTS}-chart manifest (airship v1 ArmadaCharts)`,
      description: [
        `Input: \`gen-manifest.mjs ${CHARTS}\` (${CHARTS} charts in groups of 10, ~2 kB of values each), parsed once in setup.`,
        'armada-cdk: build the ArmadaManifest/ChartGroup/Chart constructs, then `app.synthYaml()` (resolution, validation, plan, rendering, cdk8s serialization).',
        'cdk8s ApiObjects: the same ArmadaChart objects, precomputed, as plain `cdk8s.ApiObject`s in one chart, then `app.synthYaml()`.',
        'js-yaml dump: `yaml.dump` of the same objects as one multi-document string.',
      ].join('\n'),
      setup: () => {
        spec = specOf(generatedSite().text);
        const app = new cdk8s.App();
        const chart = new cdk8s.Chart(app, 'site');
        new ArmadaChartOutput(chart, 'crs', { manifest: specToConstructs(spec), onWarning: () => undefined });
        objects = cdk8s.Testing.synth(chart);
        if (objects.length !== CHARTS) throw new Error(`expected ${CHARTS} ArmadaCharts, got ${objects.length}`);
      },
      subject: {
        name: 'armada-cdk',
        run: () => {
          const app = new cdk8s.App();
          const chart = new cdk8s.Chart(app, 'site');
          new ArmadaChartOutput(chart, 'crs', { manifest: specToConstructs(spec), onWarning: () => undefined });
          return app.synthYaml();
        },
      },
      baselines: [
        {
          name: 'cdk8s ApiObjects',
          run: () => {
            const app = new cdk8s.App();
            const chart = new cdk8s.Chart(app, 'site');
            objects.forEach((o, i) => new cdk8s.ApiObject(chart, `o${i}`, o));
            return app.synthYaml();
          },
        },
        { name: 'js-yaml dump', run: () => objects.map((o) => yaml.dump(o)).join('---\n') },
      ],
      target: { ratio: 1.5, baseline: 0 },
    },
  ];
}
