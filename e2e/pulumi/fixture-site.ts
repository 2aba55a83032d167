/**
 * The site the Pulumi tests deploy (program/index.js builds it): `examples/site.ts`'s shape over the
 * harness's fixture charts. A sequenced database group, an API from Git with helm-toolkit injected
 * as Armada injects it (native wait off, as OpenStack-Helm sites set it, since the API's pods wait
 * for its post-install db-sync hook), then a parallel group of two node agents.
 */
import { stack } from '../stack';

export interface SiteChart {
  readonly id: string;
  readonly namespace: string;
  readonly source: { type: 'tar'; url: string; subpath: string } | { type: 'git'; url: string; subpath: string; reference: string } | { type: 'local'; path: string };
  readonly dependencies?: readonly string[];
  readonly values?: Readonly<Record<string, unknown>>;
  readonly wait: { timeoutSeconds: number; labels: Readonly<Record<string, string>>; resources?: readonly { type: string; minReady?: number | string }[]; native?: boolean };
  readonly test?: boolean;
}

export interface SiteDescription {
  readonly releasePrefix: string;
  /** ManifestDeploymentArgs.takeover. */
  readonly takeover?: boolean;
  readonly helmCommand: string;
  readonly chartCacheDir: string;
  readonly subcharts: readonly SiteChart[];
  readonly groups: readonly { id: string; description: string; sequenced: boolean; charts: readonly SiteChart[] }[];
}

/** A chart of the harness's Helm repository as a tar source (`<url><chart>-<version>.tgz`). */
export function tarball(chart: string): SiteChart['source'] {
  const s = stack();
  const version = s.helmRepository.charts[chart];
  if (!version) throw new Error(`the harness's Helm repository has no chart ${chart}; it has ${Object.keys(s.helmRepository.charts).join(', ')}`);
  return { type: 'tar', url: `${s.helmRepository.url}${chart}-${version}.tgz`, subpath: chart };
}

/** A chart folder of the harness's git repository `charts` (each chart under `charts/`). */
export function gitChart(chart: string): SiteChart['source'] {
  return { type: 'git', url: stack().git.repositories.charts!, subpath: `charts/${chart}`, reference: 'main' };
}

/** The release names of the site, plan step by plan step. */
export function fixtureSite(prefix: string, namespace: string, cacheDir: string, values: { db?: Readonly<Record<string, unknown>> } = {}): { site: SiteDescription; steps: string[][] } {
  const labels = (id: string) => ({ release_group: `${prefix}-${id}` });
  const site: SiteDescription = {
    releasePrefix: prefix,
    helmCommand: stack().binaries.helm3,
    chartCacheDir: cacheDir,
    subcharts: [{ id: 'helm-toolkit', namespace, source: gitChart('helm-toolkit'), wait: { timeoutSeconds: 60, labels: {} } }],
    groups: [
      {
        id: 'infra',
        description: 'Databases',
        sequenced: true,
        charts: [
          {
            id: 'db',
            namespace,
            source: tarball('e2e-db'),
            values: { pod: { replicas: { server: 2 } }, ...(values.db ?? {}) },
            wait: { timeoutSeconds: 240, labels: labels('db'), resources: [{ type: 'statefulset', minReady: '50%' }] },
          },
        ],
      },
      {
        id: 'api',
        description: 'The API, its db-sync hook and its helm test',
        sequenced: true,
        charts: [
          {
            id: 'api',
            namespace,
            source: gitChart('e2e-api'),
            dependencies: ['helm-toolkit'],
            values: { pod: { replicas: { api: 2 } } },
            wait: { timeoutSeconds: 240, labels: labels('api'), resources: [{ type: 'job' }, { type: 'deployment', minReady: '100%' }], native: false },
            test: true,
          },
        ],
      },
      {
        id: 'compute',
        description: 'Node agents, deployed at once',
        sequenced: false,
        charts: ['agent-a', 'agent-b'].map((id) => ({
          id,
          namespace,
          source: tarball('e2e-agent'),
          wait: { timeoutSeconds: 240, labels: labels(id), resources: [{ type: 'daemonset', minReady: '90%' }] },
        })),
      },
    ],
  };
  return { site, steps: [[`${prefix}-db`], [`${prefix}-api`], [`${prefix}-agent-a`, `${prefix}-agent-b`]] };
}
