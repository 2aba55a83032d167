/**
 * The example site (examples/site.ts) as the Armada documents `armada apply` would read, with every
 * chart source pointed at the harness's fixtures on 127.0.0.1: OpenStack-Helm's tarballs become the
 * fixture chart of the same shape in the harness's Helm repository, the Git and local sources the
 * fixture repository. Everything else (groups, order, waits, tests, values) is the example's.
 */
import * as yaml from 'js-yaml';
import { Testing } from 'armada-cdk';
import { defineSite } from '../../examples/site';
import { gitChart, tarball } from '../pulumi/fixture-site';

/** Example chart → the fixture chart of its shape. */
const FIXTURE_OF: Readonly<Record<string, string>> = {
  'ingress-kube-system': 'e2e-api',
  'ingress-openstack': 'e2e-api',
  mariadb: 'e2e-db',
  memcached: 'e2e-db',
  rabbitmq: 'e2e-db',
  keystone: 'e2e-api',
  glance: 'e2e-api',
  nova: 'e2e-api',
  neutron: 'e2e-api',
  openvswitch: 'e2e-agent',
  libvirt: 'e2e-agent',
  'helm-toolkit': 'helm-toolkit',
};

/**
 * Values added to the e2e-api charts: without their post-install db-sync hooks. Most of the
 * example's charts keep Armada's native wait on, which is Helm's wait, run before the hooks: under
 * Armada as under Flux such a chart would never become ready (flux-hooks.e2e.test.ts has the chart
 * with its hooks, native wait off, as the OSH sites write it).
 */
const NO_HOOKS = { manifests: { job_db_init: false, job_db_sync: false } };

export interface ExampleDocuments {
  readonly yaml: string;
  /** The Helm release names of the example's charts, in the plan's steps. */
  readonly steps: readonly (readonly string[])[];
}

/** The example site's documents with fixture sources; `keepHooks` leaves the db-sync hooks on. */
export function exampleDocuments(options: { keepHooks?: boolean } = {}): ExampleDocuments {
  const site = defineSite();
  const docs = Testing.documents(site).map((d) => {
    if (!/^armada\/Chart\//.test(d.schema)) return d;
    const data = { ...d.data };
    const fixture = FIXTURE_OF[String(data.chart_name)];
    if (!fixture) throw new Error(`example chart ${String(data.chart_name)} has no fixture chart; add it to FIXTURE_OF`);
    const original = data.source as { type: string };
    // Git and local sources come from the fixture repository (keystone keeps its injected
    // helm-toolkit from Git); tarballs from the Helm repository.
    const src = original.type === 'tar' ? tarball(fixture) : gitChart(fixture);
    data.source = src.type === 'tar' ? { type: 'tar', location: src.url, subpath: src.subpath } : { type: 'git', location: (src as { url: string }).url, subpath: (src as { subpath: string }).subpath, reference: 'main' };
    if (fixture === 'e2e-api' && !options.keepHooks) data.values = { ...((data.values as object | undefined) ?? {}), ...NO_HOOKS };
    return { ...d, data };
  });
  const plan = Testing.plan(site);
  return {
    yaml: docs.map((d) => `---\n${yaml.dump(d, { noRefs: true, lineWidth: -1 })}`).join(''),
    steps: plan.steps.map((s) => s.releases.map((r) => r.name)),
  };
}
