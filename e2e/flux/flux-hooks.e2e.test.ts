/**
 * An OpenStack-Helm-like chart whose pods wait for its post-install db-sync hook, converted as the
 * OSH sites write it (Armada's native wait off, label waits of its own): the HelmRelease has
 * disableWait, so Helm returns after its hooks, as under Armada, and the release becomes Ready.
 * With Helm's wait on it could not (Helm waits before the hooks: see helm.e2e.test.ts).
 */
import * as yaml from 'js-yaml';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, Testing } from 'armada-cdk';
import { createNamespace } from '../stack';
import { tarball } from '../pulumi/fixture-site';
import { helmRecord } from '../pulumi/helm-records';
import { FluxControllers, startFluxControllers } from './flux-controllers';
import { applyYaml, convertToFlux, waitForReady } from './flux-site';

/** One e2e-api chart with its db-init/db-sync post-install hooks, as an OSH API chart has them. */
function hookSite(namespace: string): string {
  const site = new ArmadaManifest(undefined, 'hooks', { releasePrefix: 'fhooks' });
  const group = new ChartGroup(site, 'api', { description: 'An API whose pods wait for its db-sync hook', sequenced: true });
  const src = tarball('e2e-api') as { url: string; subpath: string };
  new Chart(group, 'api', {
    namespace,
    source: ChartSource.tar(src.url, { subpath: src.subpath }),
    wait: { timeout: Duration.minutes(2), labels: { release_group: 'fhooks-api' }, native: { enabled: false } },
    test: { enabled: false },
  });
  return Testing.documents(site)
    .map((d) => `---\n${yaml.dump(d, { noRefs: true, lineWidth: -1 })}`)
    .join('');
}

describe('flux-v2 output with post-install hooks', () => {
  let flux: FluxControllers | undefined;

  beforeAll(async () => {
    flux = await startFluxControllers('hooks');
  }, 600_000);
  afterAll(async () => {
    await flux?.stop();
  });

  test('a chart whose pods wait for its post-install db-sync hook becomes Ready, its hooks run once', async () => {
    const namespace = await createNamespace('flux-hooks');
    const out = await convertToFlux('hooks', hookSite(namespace));
    const releases = (yaml.loadAll(out) as { kind: string; metadata: { name: string }; spec: Record<string, any> }[]).filter((o) => o.kind === 'HelmRelease');
    expect(releases.map((r) => [r.metadata.name, r.spec.install.disableWait, r.spec.upgrade.disableWait, r.spec.waitStrategy])).toEqual([['hooks.fhooks-api', true, true, undefined]]);
    await applyYaml(out);
    // The chart's wait timeout is 2 minutes; Ready within 4 is what Armada delivers.
    await waitForReady(['hooks.fhooks-api'], 240_000);
    // Installed once, not remediated (an uninstall and a second install would be version 2).
    const record = await helmRecord(namespace, 'fhooks-api', 'helm4');
    expect([record?.info.status, record?.version]).toEqual(['deployed', 1]);
    // Helm ran both post-install hooks to completion before it returned.
    const hooks = (record?.hooks ?? []).filter((h) => h.events.includes('post-install')).map((h) => [h.name, h.last_run?.phase]);
    expect(hooks.sort()).toEqual([['fhooks-api-db-init', 'Succeeded'], ['fhooks-api-db-sync', 'Succeeded']]);
  }, 600_000);
});
