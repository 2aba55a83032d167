/**
 * Issue "Pulumi backend": constructing the Pulumi program for a generated 2,000-chart manifest
 * under Pulumi's mocks, next to a program of 2,000 bare `helm.v3.Release`s with the same inputs
 * and the same step ordering (every release depends on every release of the previous step).
 */
import * as pulumi from '@pulumi/pulumi';
import * as k8s from '@pulumi/kubernetes';
import { specToConstructs } from '../src/importer/to-constructs';
import { buildPlan } from '../src/model/plan';
import { ManifestSpec } from '../src/model/spec';
import { ManifestDeployment } from '../src/pulumi';
import { releaseInputs } from '../src/pulumi/release-args';
import { Benchmark } from './harness';
import { generatedSite, specOf } from './synth.bench';

const CHARTS = 2000;

/** Fresh mocks for each run, so that neither case pays for the resources of the previous runs. */
function mocks(): void {
  void pulumi.runtime.setMocks(
    { newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: (a) => a.inputs },
    'bench',
    'bench',
    false,
  );
}

/**
 * Resolves when the program is done: every registration, and every component's outputs, sent to
 * the (mock) engine. The SDK's own wait for its RPC queue, which `pulumi up` also waits on.
 */
function programDone(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('@pulumi/pulumi/runtime/settings') as { waitForRPCs: () => Promise<void> }).waitForRPCs();
}

interface BareRelease {
  readonly step: number;
  readonly group: string;
  readonly args: k8s.helm.v3.ReleaseArgs;
  /** Whether the chart has `upgrade.pre.delete` actions and enabled tests. */
  readonly preDelete: boolean;
  readonly test: boolean;
}

/** A dynamic provider that does nothing, for the resources of the second baseline. */
const noop: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    return { id: 'noop', outs: inputs };
  },
};

/** A bare dynamic resource with the same number of inputs as the gate, test and pre-delete. */
class Bare extends pulumi.dynamic.Resource {
  constructor(name: string, props: Record<string, unknown>, opts: pulumi.CustomResourceOptions) {
    super(noop, name, props, opts);
  }
}

export function benchmarks(): Benchmark[] {
  let spec: ManifestSpec;
  let bare: BareRelease[] = [];
  return [
    {
      title: `Pulumi program for a ${CHARTS}-chart manifest under mocks`,
      description: [
        'Times are CPU time of the benchmark process (the work runs in it alone), so that other processes on the machine do not inflate them.',
        `Input: \`gen-manifest.mjs ${CHARTS}\` (${CHARTS} charts in groups of 10, half of them sequenced, ~2 kB of values each, pre-upgrade deletes on all, tests on 80%), parsed once in setup.`,
        'armada-cdk: the whole program under `pulumi.runtime.setMocks`: constructs from the spec, `new ManifestDeployment` (resolution, validation, plan, layout) and every resource registered: per chart an `armada:index:Chart` component, the Release, its readiness gate (which also runs the tests) and its pre-upgrade delete (dynamic resources), plus the group components. Charts resolve to fixed paths (no download).',
        'bare Releases: the same 2,000 Releases with the same inputs, created directly, each depending on every Release of the previous step.',
        "the same resources, bare: armada-cdk's resource graph (components, Releases, a do-nothing dynamic resource in place of each gate and pre-upgrade delete, the same edges) created directly, with the default stack trace limit: what Pulumi itself charges for that many resources.",
        "What bounds the ratio: Pulumi's SDK charges per resource (the registration, and four promises per input property, each capturing a stack trace). armada-cdk builds its resources with `Error.stackTraceLimit` at 0, so those captures cost nothing (see docs/pulumi.md), and creates one post-release resource per chart (gate and tests together) and a pre-upgrade delete only where the chart has one.",
      ].join('\n'),
      setup: () => {
        spec = specOf(generatedSite(CHARTS).text);
        const charts = new Map(spec.charts.map((c) => [c.name, c]));
        bare = buildPlan(spec).steps.flatMap((s) =>
          s.releases.map((r) => ({
            step: s.index,
            group: s.group,
            args: { ...releaseInputs(r, charts.get(r.chart)!), values: charts.get(r.chart)!.values as Record<string, unknown>, chart: `/charts/${r.chart}` },
            preDelete: (charts.get(r.chart)!.upgrade?.pre?.delete ?? []).length > 0,
            test: r.test.enabled,
          })),
        );
        if (bare.length !== CHARTS) throw new Error(`expected ${CHARTS} releases, got ${bare.length}`);
      },
      subject: {
        name: 'armada-cdk',
        clock: 'cpu',
        run: async () => {
          mocks();
          const deployment = new ManifestDeployment('site', { manifest: specToConstructs(spec), resolveChart: async (c) => `/charts/${c.name}` });
          await programDone();
          const releases = await new Promise<Record<string, string>>((resolve) => deployment.releases.apply(resolve));
          if (Object.keys(releases).length !== CHARTS) throw new Error('not every release was created');
        },
      },
      baselines: [
        {
          name: 'bare helm.v3.Release',
          clock: 'cpu',
          run: async () => {
            mocks();
            const all: k8s.helm.v3.Release[] = [];
            let previous: k8s.helm.v3.Release[] = [];
            let current: k8s.helm.v3.Release[] = [];
            let step = 0;
            for (const b of bare) {
              if (b.step !== step) {
                previous = current;
                current = [];
                step = b.step;
              }
              const r = new k8s.helm.v3.Release(String(b.args.name), b.args, { dependsOn: previous });
              current.push(r);
              all.push(r);
            }
            await programDone();
          },
        },
        {
          name: 'the same resources, bare',
          clock: 'cpu',
          run: async () => {
            mocks();
            // armada-cdk's resource graph without armada-cdk: per chart a component, [a dynamic
            // resource] > Release > dynamic resource, group components, the same edges.
            const root = new pulumi.ComponentResource('bench:index:Manifest', 'site', {});
            let previous: pulumi.Resource[] = [];
            let current: pulumi.Resource[] = [];
            let step = 0;
            const groups = new Map<string, pulumi.ComponentResource>();
            for (const b of bare) {
              if (b.step !== step) {
                previous = current;
                current = [];
                step = b.step;
              }
              let group = groups.get(b.group);
              if (!group) groups.set(b.group, (group = new pulumi.ComponentResource('bench:index:ChartGroup', `site/${b.group}`, {}, { parent: root })));
              const name = String(b.args.name);
              const chart = new pulumi.ComponentResource('bench:index:Chart', `site/${name}`, {}, { parent: group });
              const target = { release: name, namespace: b.args.namespace, timeoutSeconds: 900 };
              const pre = b.preDelete ? new Bare(`${name}-pre`, { target, fingerprint: 'f' }, { parent: chart, dependsOn: previous }) : undefined;
              const release = new k8s.helm.v3.Release(name, b.args, { parent: chart, dependsOn: pre ? [...previous, pre] : previous });
              current.push(new Bare(`${name}-gate`, b.test ? { target, release: release.status, test: target } : { target, release: release.status }, { parent: chart }));
            }
            await programDone();
          },
        },
      ],
      target: { ratio: 1.3, baseline: 0 },
    },
  ];
}
