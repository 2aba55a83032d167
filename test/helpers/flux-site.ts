import { ArmadaManifest, Chart, ChartGroup, ChartProps, ChartSource, SchemaVersion } from '../../src';
import { FluxOptions, toFluxObjects } from '../../src/model/wire/flux-v2';

/** The site's one warning about GitRepositories that follow a branch. */
export const BRANCH_NOTE = /GitRepositor(?:y|ies) follows? a branch/;

/** The Flux objects and diagnostics of a site that has no errors of its own. */
export function fluxOf(site: ArmadaManifest, options: FluxOptions = {}) {
  const { spec, plan, diagnostics } = site.resolve();
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`the test site is invalid: ${errors.map((e) => e.message).join('; ')}`);
  const r = toFluxObjects(spec, plan, options);
  const objects = r.objects as any[];
  return {
    objects,
    releases: objects.filter((o) => o.kind === 'HelmRelease'),
    sources: objects.filter((o) => o.kind === 'GitRepository' || o.kind === 'HelmRepository'),
    namespaces: objects.filter((o) => o.kind === 'Namespace'),
    diagnostics: r.diagnostics.all,
    /**
     * Flux findings about charts, as `[field, message]`, without the site's note on branches and
     * each chart's finding about its waits (test/flux/warnings.test.ts has both).
     */
    findings: r.diagnostics.all.filter((d) => !BRANCH_NOTE.test(d.message) && d.field !== 'wait').map((d) => [d.field, d.message] as [string | undefined, string]),
  };
}

export const TAR = ChartSource.tar('https://charts.example.org/charts/mariadb-0.1.0.tgz', { subpath: 'mariadb' });

/** One chart `mariadb` (tar source, no labels) in group `g`, with `props` on top. */
export function oneChart(props: Partial<ChartProps> = {}, version = SchemaVersion.V1, options: FluxOptions = {}) {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship', schemaVersion: version });
  new Chart(new ChartGroup(site, 'g'), 'mariadb', { namespace: 'openstack', source: TAR, ...props });
  const r = fluxOf(site, options);
  return { ...r, release: r.releases[0], spec: r.releases[0].spec };
}
