/**
 * The example site's `flux-v2` output, pointed at the harness's fixture sources, applied to the
 * stack and reconciled by Flux's real source- and helm-controller.
 */
import * as yaml from 'js-yaml';
import { helmRecord, helmTime } from '../pulumi/helm-records';
import { exampleDocuments } from './example-site';
import { FluxControllers, startFluxControllers } from './flux-controllers';
import { applyYaml, convertToFlux, HelmReleaseObject, waitForReady } from './flux-site';

describe('flux-v2 output of the example site', () => {
  let flux: FluxControllers | undefined;

  beforeAll(async () => {
    flux = await startFluxControllers('example');
  }, 600_000);
  afterAll(async () => {
    await flux?.stop();
  });

  test('is reconciled into Ready HelmReleases in dependsOn order', async () => {
    const site = exampleDocuments();
    const out = await convertToFlux('example', site.yaml);
    const objects = yaml.loadAll(out) as { kind: string; metadata: { name: string }; spec: HelmReleaseObject['spec'] }[];
    const releases = objects.filter((o) => o.kind === 'HelmRelease');
    // One HelmRelease per planned release, and dependsOn edges to exist.
    expect(releases.map((r) => r.spec.releaseName ?? r.metadata.name).sort()).toEqual(site.steps.flat().slice().sort());
    expect(releases.some((r) => (r.spec.dependsOn ?? []).length > 0)).toBe(true);
    await applyYaml(out);

    const ready = await waitForReady(releases.map((r) => r.metadata.name), 900_000);
    // Helm's records (nanosecond times): each HelmRelease was first installed after each of its dependencies.
    const firstDeployed = new Map<string, bigint>();
    for (const hr of ready) {
      const ns = hr.spec.storageNamespace ?? hr.spec.targetNamespace ?? hr.metadata.namespace;
      const record = await helmRecord(ns, hr.spec.releaseName ?? hr.metadata.name, 'helm4');
      expect([hr.metadata.name, record?.info.status]).toEqual([hr.metadata.name, 'deployed']);
      firstDeployed.set(hr.metadata.name, helmTime(record!.info.first_deployed));
    }
    const edges = ready.flatMap((hr) => (hr.spec.dependsOn ?? []).map((d) => [hr.metadata.name, d.name] as const));
    expect(edges.length).toBeGreaterThan(0);
    for (const [after, before] of edges) expect([after, before, firstDeployed.get(after)! > firstDeployed.get(before)!]).toEqual([after, before, true]);
  });
});
