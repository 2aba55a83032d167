/**
 * Issue "Flux target": `convert --to flux-v2` of the generated 2,000-chart site, next to the
 * airship conversion of the same site (the same input path, another writer).
 */
import { resolveInputs } from '../src/importer/resolve';
import { buildPlan } from '../src/model/plan';
import { ManifestSpec } from '../src/model/spec';
import { toAirshipCharts } from '../src/model/wire/airship-v1';
import { toFluxObjects } from '../src/model/wire/flux-v2';
import { toYamlStream } from '../src/model/wire/yaml';
import { Benchmark } from './harness';
import { generatedSite } from './synth.bench';

async function read(file: string): Promise<ManifestSpec> {
  const r = await resolveInputs([file], { skipChartSchemas: true });
  if (!r.spec || r.diagnostics.some((d) => d.severity === 'error')) throw new Error('the generated site did not validate');
  return r.spec;
}

export function benchmarks(): Benchmark[] {
  let file = '';
  return [
    {
      title: 'armada-cdk convert --to flux-v2 of a 2000-chart manifest',
      description: [
        'Input: `gen-manifest.mjs 2000` (git, tar and local sources, groups of 10), as in the CLI benchmark.',
        'armada-cdk flux-v2: `resolveInputs` (parse, Armada schemas, references, every rule), the plan, the Flux writer (2,000 HelmReleases with dependsOn, deduplicated sources, every finding) and the YAML writer, in process.',
        'airship-v1 conversion: the same input path with the airship ArmadaChart writer instead.',
        "The Flux writer reports about 4.5 times as many findings on this site (every generated chart has label-selected waits, pre-upgrade deletes and subcharts, which Flux cannot carry), and each is located in the YAML (file, line, column), which is most of the difference; hence the 2x target.",
      ].join('\n'),
      setup: () => {
        ({ file } = generatedSite());
      },
      subject: {
        name: 'armada-cdk flux-v2',
        run: async () => {
          const spec = await read(file);
          const r = toFluxObjects(spec, buildPlan(spec));
          if (r.diagnostics.hasErrors) throw new Error('the Flux conversion failed');
          return toYamlStream(r.objects);
        },
      },
      baselines: [
        {
          name: 'armada-cdk airship-v1',
          run: async () => {
            const spec = await read(file);
            return toYamlStream(toAirshipCharts(spec, buildPlan(spec)).objects);
          },
        },
      ],
      target: { ratio: 2, baseline: 0 },
    },
  ];
}
