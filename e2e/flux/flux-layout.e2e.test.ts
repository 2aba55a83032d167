/**
 * The GitOps directory of `convert --to flux-v2 -o DIR`, committed to a Git repository of the
 * harness's git server and reconciled by the real source-, kustomize- and helm-controller: every
 * folder builds with kustomize; the plan's steps are installed in order on the first commit, and
 * upgraded in order after one commit that changes the first step and the last (the Kustomizations'
 * dependsOn waits for the step before to apply that revision and be Ready, where HelmRelease
 * dependsOn alone would upgrade both at once).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, Testing, WaitResource } from 'armada-cdk';
import { createNamespace, runTool, stack } from '../stack';
import { tarball } from '../pulumi/fixture-site';
import { helmRecord, helmTime } from '../pulumi/helm-records';
import { FLUX_NAMESPACE, FluxControllers, startFluxControllers } from './flux-controllers';
import { applyYaml, convertToFluxDir, helmReleases, HelmReleaseObject, readyOf, waitForReady } from './flux-site';

const GROUPS = ['first', 'middle', 'last'];
/** How long each StatefulSet's pods take to be Ready: what makes an overlap of steps visible. */
const READY_AFTER_S = 6;

/** Three groups of one database each, native wait on (Helm 3's wait, which the delay slows). */
function layoutSite(namespace: string, revisions: Readonly<Record<string, string>>): string {
  const site = new ArmadaManifest(undefined, 'layout', { releasePrefix: 'flay' });
  const src = tarball('e2e-db') as { url: string; subpath: string };
  for (const g of GROUPS) {
    new Chart(new ChartGroup(site, g, { sequenced: true }), g, {
      namespace,
      source: ChartSource.tar(src.url, { subpath: src.subpath }),
      values: { pod: { replicas: { server: 1 }, server: { ready_after: `${READY_AFTER_S}s` } }, conf: { revision: revisions[g] ?? '1' } },
      wait: { timeout: Duration.minutes(3), resources: [WaitResource.statefulSet()] },
      test: { enabled: false },
    });
  }
  return Testing.documents(site).map((d) => `---\n${yaml.dump(d, { noRefs: true, lineWidth: -1 })}`).join('');
}

const IDENTITY = { GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@armada-cdk.invalid', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@armada-cdk.invalid', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...process.env, ...IDENTITY }, stdio: 'pipe', encoding: 'utf8' });

/** When a HelmRelease became Ready, in nanoseconds (the condition keeps whole seconds). */
function readySince(hr: HelmReleaseObject): bigint {
  const c = hr.status?.conditions?.find((x) => x.type === 'Ready') as { lastTransitionTime?: string } | undefined;
  return BigInt(Date.parse(c!.lastTransitionTime!)) * 1_000_000n;
}

/**
 * Polls until every HelmRelease named is Ready; returns when each became Ready, read when it was
 * first seen Ready (a later reconcile may move the condition's time).
 */
async function firstReady(names: readonly string[], timeoutMs: number): Promise<Map<string, bigint>> {
  const seen = new Map<string, bigint>();
  const end = Date.now() + timeoutMs;
  while (seen.size < names.length) {
    for (const hr of await helmReleases()) {
      if (names.includes(hr.metadata.name) && !seen.has(hr.metadata.name) && readyOf(hr).status === 'True') seen.set(hr.metadata.name, readySince(hr));
    }
    if (seen.size === names.length) break;
    if (Date.now() > end) await waitForReady(names, 0); // throws, naming each one's condition
    await new Promise((r) => setTimeout(r, 1000));
  }
  return seen;
}

async function waitForVersion(namespace: string, release: string, version: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await helmRecord(namespace, release, 'helm4');
    if (r && r.version >= version && r.info.status === 'deployed') return;
    if (Date.now() > end) throw new Error(`${release}: no deployed revision ${version} after ${timeoutMs / 1000} s (now ${r ? `${r.version} ${r.info.status}` : 'none'})`);
    await new Promise((res) => setTimeout(res, 2000));
  }
}

describe('flux-v2 GitOps directory', () => {
  let flux: FluxControllers | undefined;

  beforeAll(async () => {
    flux = await startFluxControllers('layout');
  }, 600_000);
  afterAll(async () => {
    await flux?.stop();
  });

  test('every folder builds; steps reconcile in plan order on the first commit and after a commit changing the first and the last', async () => {
    const s = stack();
    const namespace = await createNamespace('flux-layout');
    const work = path.join(s.dir, 'work', 'flux-layout-repo');
    fs.mkdirSync(work, { recursive: true });
    git(work, 'init', '-q', '-b', 'main');
    const stderr = await convertToFluxDir('layout', layoutSite(namespace, {}), work, 'sites', ['--repository-source', 'e2e-gitops']);
    expect(stderr).toContain('wrote sites/layout/');
    const root = path.join(work, 'sites', 'layout');

    // What kustomize-controller runs on each folder.
    const folders = execFileSync('find', [root, '-name', 'kustomization.yaml'], { encoding: 'utf8' }).trim().split('\n').map((f) => path.dirname(f)).sort();
    expect(folders.map((f) => path.relative(root, f))).toEqual(['', 'sources', 'steps/0-first', 'steps/1-middle', 'steps/2-last']);
    for (const f of folders) await runTool('kubectl', ['kustomize', f]);

    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'site');
    const bare = path.join(s.dir, 'git', 'flux-layout.git');
    git(path.dirname(bare), 'clone', '-q', '--bare', work, bare);
    git(work, 'remote', 'add', 'origin', bare);
    const url = `${s.git.url}flux-layout.git`;
    await applyYaml(yaml.dump({ apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', metadata: { name: 'e2e-gitops', namespace: FLUX_NAMESPACE }, spec: { url, ref: { branch: 'main' }, interval: '10s' } }) +
      '---\n' + yaml.dump({ apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', metadata: { name: 'e2e-root', namespace: FLUX_NAMESPACE }, spec: { interval: '1m', path: './sites/layout', prune: false, sourceRef: { kind: 'GitRepository', name: 'e2e-gitops' } } }));

    const names = GROUPS.map((g) => `flay-${g}`);
    // The HelmReleases are <manifest>.<Helm release>.
    const objects = names.map((n) => `layout.${n}`);
    const readyAt = await firstReady(objects, 600_000);
    const first = await Promise.all(names.map((n) => helmRecord(namespace, n, 'helm4')));
    for (let i = 1; i < names.length; i++) {
      const start = helmTime(first[i]!.info.first_deployed);
      // Installed after the step before was Ready, so at least its pods' delay after that one started.
      expect([names[i], start >= readyAt.get(objects[i - 1])!, start - helmTime(first[i - 1]!.info.first_deployed) >= BigInt(READY_AFTER_S) * 1_000_000_000n]).toEqual([names[i], true, true]);
    }

    // One commit changes the first step and the last.
    await convertToFluxDir('layout', layoutSite(namespace, { first: '2', last: '2' }), work, 'sites', ['--repository-source', 'e2e-gitops', '--force']);
    git(work, 'commit', '-q', '-am', 'first and last');
    git(work, 'push', '-q', 'origin', 'main');
    await waitForVersion(namespace, 'flay-last', 2, 600_000);
    const upgraded = await Promise.all(names.map((n) => helmRecord(namespace, n, 'helm4')));
    expect(upgraded.map((r) => r!.version)).toEqual([2, 1, 2]);
    // Upgraded after the first step's upgrade had waited for its pods: at least their delay later
    // (HelmRelease dependsOn alone would have upgraded both at once).
    const lastStart = helmTime(upgraded[2]!.info.last_deployed);
    expect(lastStart - helmTime(upgraded[0]!.info.last_deployed) >= BigInt(READY_AFTER_S) * 1_000_000_000n).toBe(true);
  }, 1_500_000);
});
