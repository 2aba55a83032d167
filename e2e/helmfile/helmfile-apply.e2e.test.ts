/**
 * `helmfile apply` of the converted site (issue 46's acceptance): helmfile diffs each release with
 * the helm-diff plugin of the build, then syncs the releases that differ, in plan order, their
 * hooks waiting and testing as with `sync`; the database installed beforehand (with 1 server, the
 * site has 2) is taken over. A second `apply` finds nothing to change: no release is upgraded and
 * no hook runs (so no wait either: what docs/helmfile.md says about `apply` against `sync`).
 */
import { convertedSite, expectPlanOrder, helmfile, releaseStates } from './converted-site';

describe('helmfile apply of convert --to helmfile', () => {
  test('deploys in plan order with the waits and tests in the hooks, takes over the release installed beforehand; a second apply changes nothing', async () => {
    const site = await convertedSite('hfapply', 1);
    const started = Date.now();
    const first = await helmfile(site, 'apply');
    const log = first.stdout + first.stderr;
    expect([first.code, first.code === 0 ? '' : log]).toEqual([0, '']);

    const states = await releaseStates(site);
    // The database upgraded from Armada's revision (its server count changed), the others installed.
    expect([...states].map(([name, s]) => [name, s.version, s.status])).toEqual([
      ['hf-db', 2, 'deployed'],
      ['hf-api', 1, 'deployed'],
      ['hf-agent-a', 1, 'deployed'],
      ['hf-agent-b', 1, 'deployed'],
    ]);
    expectPlanOrder(site, states, started);
    // helm-diff ran for each release (helmfile's debug log names each call), then each release's
    // postsync hook: its wait, and the API's tests.
    for (const name of site.steps.flat()) expect([name, log.includes(` diff upgrade --allow-unreleased ${name} `)]).toEqual([name, true]);
    expect(log.match(/triggered by event "postsync"/g)).toHaveLength(4);
    for (const name of site.steps.flat()) expect(log).toContain(`${site.namespace}/${name}: ready`);
    expect(log).toContain(`${site.namespace}/hf-api: tests passed`);

    const second = await helmfile(site, 'apply');
    const log2 = second.stdout + second.stderr;
    expect([second.code, second.code === 0 ? '' : log2]).toEqual([0, '']);
    // Diffed again, nothing upgraded (the same revisions and deploy times), and no hook ran.
    expect(await releaseStates(site)).toEqual(states);
    for (const name of site.steps.flat()) expect([name, log2.includes(` diff upgrade --allow-unreleased ${name} `)]).toEqual([name, true]);
    expect(log2).not.toContain('triggered by event');
    expect(log2).not.toContain(': ready');
  });
});
