/**
 * `convert --to helmfile` of a small site over the harness's fixture charts, deployed by the real
 * Helmfile with the harness's Helm 3: the releases are synced in plan order (each step after the
 * step before is ready: the postsync hooks run `armada-cdk wait` of this checkout), the API's tests
 * run, and a release installed beforehand is taken over (upgraded, not installed again).
 *
 * `helmfile sync` is what `armada apply` does: every chart deployed and waited for, on every run.
 * `helmfile apply`, which syncs only what changed, is helmfile-apply.e2e.test.ts.
 */
import { convertedSite, expectPlanOrder, helmfile, releaseStates } from './converted-site';

describe('helmfile sync of convert --to helmfile', () => {
  test('deploys in plan order, waiting and testing in the hooks, taking over a release installed beforehand', async () => {
    const site = await convertedSite('helmfile', 2);
    const started = Date.now();
    const sync = await helmfile(site, 'sync');
    expect([sync.code, sync.code === 0 ? '' : `${sync.stdout}\n${sync.stderr}`]).toEqual([0, '']);

    const states = await releaseStates(site);
    // Taken over: upgraded from Armada's revision, not installed again; every release deployed.
    expect(states.get('hf-db')!.version).toBe(2);
    expect([...states.values()].map((r) => r.status)).toEqual(['deployed', 'deployed', 'deployed', 'deployed']);
    expectPlanOrder(site, states, started);
    // The hooks ran the waits and the API's tests (their stderr is in helmfile's debug log).
    expect(sync.stdout + sync.stderr).toContain(`${site.namespace}/hf-api: tests passed`);
    expect(sync.stdout + sync.stderr).toContain(`${site.namespace}/hf-agent-b: ready`);
  });
});
