import { ArmadaManifest, Chart, ChartGroup, ChartProps, ChartSource, Diagnostic, Testing } from '../../src';

/** A small valid site: one sequenced group with two charts, and helm-toolkit as a subchart. */
export function smallSite(prefix = 'airship') {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: prefix });
  const htk = new Chart(site, 'helm-toolkit', { namespace: 'openstack', source: ChartSource.git('https://opendev.org/openstack/openstack-helm-infra', { subpath: 'helm-toolkit' }) });
  const infra = new ChartGroup(site, 'infra', { sequenced: true });
  const mariadb = new Chart(infra, 'mariadb', { ...base('mariadb'), dependencies: [htk] });
  const memcached = new Chart(infra, 'memcached', base('memcached'));
  return { site, htk, infra, mariadb, memcached };
}

export function base(name: string, namespace = 'openstack'): ChartProps {
  return {
    namespace,
    source: ChartSource.tar(`https://charts.example.org/${name}-0.1.0.tgz`, { subpath: name }),
    wait: { labels: { release_group: `airship-${name}` } },
  };
}

/** Diagnostics of a rule, as `[severity, location, field, message]`, for exact assertions. */
export function findings(site: ArmadaManifest, code?: string): [string, string, string | undefined, string][] {
  return Testing.validate(site)
    .filter((d: Diagnostic) => code === undefined || d.code === code)
    .map((d) => [d.severity, d.location, d.field, d.message]);
}
