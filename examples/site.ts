/**
 * An OpenStack-like site, defined once and used by both targets:
 * `examples/cdk8s/main.ts` (cdk8s synth) and `examples/pulumi/index.ts` (pulumi up).
 */
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from 'armada-cdk';

const OSH = 'https://opendev.org/openstack/openstack-helm';
const OSH_INFRA = 'https://opendev.org/openstack/openstack-helm-infra';
const OSH_REF = 'refs/changes/61/924261/3';
/** Published chart tarballs (helm-toolkit already packaged inside): what the airship operator can install. */
const tarball = (repo: 'openstack-helm' | 'openstack-helm-infra', chart: string, version = '2024.2.0') =>
  ChartSource.tar(`https://tarballs.opendev.org/openstack/${repo}/${chart}-${version}.tgz`, { subpath: chart });

/** The values this site sets on the mariadb chart (typed: a typo here fails to compile). */
export interface MariadbValues {
  readonly pod: { readonly replicas: { readonly server: number; readonly ingress?: number | undefined } };
  readonly conf?: { readonly database?: { readonly config_override?: string | undefined } } | undefined;
  readonly volume?: { readonly size?: string | undefined; readonly class_name?: string | undefined } | undefined;
}

/** Builds the site as a construct tree of its own, so that any target can render it. */
export function defineSite(): ArmadaManifest {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });

  // A subchart only: listed in no group, so it is not deployed on its own.
  const helmToolkit = new Chart(site, 'helm-toolkit', {
    namespace: 'helm-toolkit',
    source: ChartSource.git(OSH_INFRA, { subpath: 'helm-toolkit', reference: 'master' }),
  });

  const ingress = new ChartGroup(site, 'ingress', { description: 'Ingress controllers', sequenced: false });
  for (const [id, namespace] of [['ingress-kube-system', 'kube-system'], ['ingress-openstack', 'openstack']] as const) {
    new Chart(ingress, id, {
      namespace,
      release: id,
      source: tarball('openstack-helm-infra', 'ingress'),
      values: { labels: { server: { node_selector_key: 'openstack-control-plane', node_selector_value: 'enabled' } } },
      wait: {
        timeout: Duration.minutes(5),
        labels: { release_group: `airship-${id}` },
        resources: [WaitResource.deployment({ minReady: 1 })],
      },
      test: { enabled: false },
    });
  }

  const infra = new ChartGroup(site, 'openstack-infra', { description: 'Databases and messaging', sequenced: true });
  new Chart<MariadbValues>(infra, 'mariadb', {
    namespace: 'openstack',
    source: tarball('openstack-helm-infra', 'mariadb'),
    values: { pod: { replicas: { server: 3, ingress: 1 } }, volume: { size: '10Gi', class_name: 'general' } },
    wait: {
      timeout: Duration.minutes(15),
      labels: { release_group: 'airship-mariadb' },
      resources: [WaitResource.statefulSet({ minReady: '50%' }), WaitResource.job({ required: false })],
    },
    upgrade: { pre: { delete: [{ type: 'job', labels: { release_group: 'airship-mariadb' } }] } },
  });
  new Chart(infra, 'memcached', {
    namespace: 'openstack',
    source: tarball('openstack-helm-infra', 'memcached'),
    wait: { timeout: Duration.minutes(5), labels: { release_group: 'airship-memcached' } },
  });
  new Chart(infra, 'rabbitmq', {
    namespace: 'openstack',
    source: tarball('openstack-helm-infra', 'rabbitmq'),
    values: { pod: { replicas: { server: 2 } } },
    wait: {
      timeout: Duration.minutes(10),
      labels: { release_group: 'airship-rabbitmq' },
      resources: [WaitResource.statefulSet()],
      native: { enabled: false },
    },
    test: { enabled: true, timeout: Duration.minutes(10) },
    // A failed rabbitmq release is left alone (not purged) and the group carries on.
    protected: { continueProcessing: true },
    upgrade: { pre: { delete: [{ type: 'job', labels: { release_group: 'airship-rabbitmq' } }] } },
  });

  const keystone = new ChartGroup(site, 'openstack-keystone', { description: 'Identity', sequenced: true });
  new Chart(keystone, 'keystone', {
    namespace: 'openstack',
    // A change under review, straight from Gerrit, with helm-toolkit from git as its subchart.
    source: ChartSource.git(OSH, { subpath: 'keystone', reference: OSH_REF }),
    dependencies: [helmToolkit],
    values: { bootstrap: { enabled: true }, pod: { replicas: { api: 2 } } },
    wait: { timeout: Duration.minutes(20), labels: { release_group: 'airship-keystone' } },
    test: { timeout: Duration.minutes(10) },
    upgrade: {
      noHooks: false,
      pre: {
        delete: [
          { type: 'job', labels: { release_group: 'airship-keystone' } },
          { type: 'cronjob', labels: { release_group: 'airship-keystone', component: 'fernet-rotate' } },
        ],
      },
      options: { force: false },
    },
  });

  const compute = new ChartGroup(site, 'openstack-compute', { description: 'Compute kit, deployed at once', sequenced: false });
  for (const id of ['glance', 'nova', 'neutron']) {
    new Chart(compute, id, {
      namespace: 'openstack',
      source: tarball('openstack-helm', id),
      wait: {
        timeout: Duration.minutes(30),
        labels: { release_group: `airship-${id}` },
        resources: [WaitResource.job(), WaitResource.deployment({ minReady: '100%' })],
      },
      upgrade: { pre: { delete: [{ type: 'job', labels: { release_group: `airship-${id}` } }] } },
    });
  }
  for (const id of ['openvswitch', 'libvirt']) {
    // libvirt updates with OnDelete: without allowAsyncUpdates Armada would never call it ready.
    const asyncUpdates = id === 'libvirt' ? { allowAsyncUpdates: true } : {};
    new Chart(compute, id, {
      namespace: 'openstack',
      // Charts baked into the deployment host, not fetched.
      source: ChartSource.local('/opt/charts/openstack-helm-infra', { subpath: id }),
      dependencies: [helmToolkit],
      wait: {
        timeout: Duration.minutes(15),
        labels: { release_group: `airship-${id}` },
        resources: [WaitResource.daemonSet({ minReady: '90%', ...asyncUpdates })],
      },
    });
  }
  return site;
}

/** The site, shared by the cdk8s app and the Pulumi program. */
export const site = defineSite();
