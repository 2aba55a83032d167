/**
 * `pulumi up` of a program using armada-cdk/pulumi (as packed), with the Pulumi CLI and the
 * Kubernetes provider built from their modules, against the stack's API server and kwok.
 */
import * as path from 'node:path';
import { createNamespace } from '../stack';
import { fixtureSite } from './fixture-site';
import { HelmRecord, helmRecord, helmReleases, helmTime } from './helm-records';
import { EngineEvent, pulumiWorkspace, PulumiWorkspace } from './pulumi-env';

const GATE = 'pulumi-nodejs:dynamic/armada:ReadinessGate';
const RELEASE = 'kubernetes:helm.sh/v3:Release';

/** The release a gate or Release URN belongs to: its name ends with `/<chart id>`. */
function chartOf(urn: string): string {
  return urn.slice(urn.lastIndexOf('/') + 1);
}

/** The sequence numbers at which each chart's resources of a type started and finished. */
function timeline(events: readonly EngineEvent[], type: string) {
  const started = new Map<string, number>();
  const finished = new Map<string, number>();
  for (const e of events) {
    const pre = e.resourcePreEvent?.metadata;
    if (pre && pre.type === type && !started.has(chartOf(pre.urn))) started.set(chartOf(pre.urn), e.sequence);
    const out = e.resOutputsEvent?.metadata;
    if (out && out.type === type) finished.set(chartOf(out.urn), e.sequence);
  }
  return { started, finished };
}

function changes(summary: { resourceChanges?: Readonly<Record<string, number>> }): Record<string, number> {
  return Object.fromEntries(Object.entries(summary.resourceChanges ?? {}).filter(([, n]) => n > 0));
}

describe('pulumi up of the fixture site', () => {
  const prefix = 'pe2e';
  let ws: PulumiWorkspace;
  let namespace: string;
  let steps: string[][];
  const records = async (): Promise<Record<string, HelmRecord | undefined>> =>
    Object.fromEntries(await Promise.all(steps.flat().map(async (r) => [r, await helmRecord(namespace, r)] as const)));

  beforeAll(async () => {
    ws = await pulumiWorkspace('site');
    namespace = await createNamespace('pulumi-site');
    const made = fixtureSite(prefix, namespace, path.join(ws.dir, 'chart-cache'));
    steps = made.steps;
    ws.writeSite(made.site);
  }, 900_000);

  test('installs every release in the plan order and runs the helm tests', async () => {
    const run = await ws.run('up');
    expect(run.summary.result).toBe('succeeded');
    const all = await records();
    for (const r of steps.flat()) expect([r, all[r]?.info.status, all[r]?.version]).toEqual([r, 'deployed', 1]);

    // Helm's records: every release of a step was first deployed after every release of the step before.
    for (let i = 1; i < steps.length; i++) {
      const lastBefore = steps[i - 1]!.map((r) => helmTime(all[r]!.info.first_deployed)).reduce((a, b) => (a > b ? a : b));
      for (const r of steps[i]!) expect([r, helmTime(all[r]!.info.first_deployed) > lastBefore]).toEqual([r, true]);
    }
    // The engine's events: each step's Releases start only after the gates of the step before finished.
    const gates = timeline(run.events, GATE);
    const releases = timeline(run.events, RELEASE);
    const chartIds = steps.map((s) => s.map((r) => r.slice(prefix.length + 1)));
    for (const id of chartIds.flat()) expect([id, gates.finished.has(id), releases.finished.has(id)]).toEqual([id, true, true]);
    for (let i = 1; i < chartIds.length; i++) {
      const gatesDone = Math.max(...chartIds[i - 1]!.map((id) => gates.finished.get(id)!));
      for (const id of chartIds[i]!) expect([id, releases.started.get(id)! > gatesDone]).toEqual([id, true]);
    }

    // The api's helm test pod ran, after its wait, and succeeded.
    const testHooks = (all[`${prefix}-api`]!.hooks ?? []).filter((h) => h.events.includes('test'));
    expect(testHooks.map((h) => [h.name, h.last_run?.phase])).toEqual([[`${prefix}-api-test`, 'Succeeded']]);
  });

  test('a second pulumi up changes nothing', async () => {
    const run = await ws.run('up');
    expect(Object.keys(changes(run.summary))).toEqual(['same']);
    const all = await records();
    expect(steps.flat().map((r) => [r, all[r]?.version])).toEqual(steps.flat().map((r) => [r, 1]));
  });

  test("changing one chart's values upgrades that release alone", async () => {
    ws.writeSite(fixtureSite(prefix, namespace, path.join(ws.dir, 'chart-cache'), { db: { conf: { revision: '2' } } }).site);
    const run = await ws.run('up');
    const updated = run.events
      .map((e) => e.resOutputsEvent?.metadata)
      .filter((m): m is NonNullable<typeof m> => !!m && m.op === 'update')
      .map((m) => `${m.type} ${chartOf(m.urn)}`)
      .sort();
    // The db's Release and its gate (which waits again after the upgrade); nothing of the others.
    expect(updated).toEqual([`${RELEASE} db`, `${GATE} db`]);
    const all = await records();
    expect(steps.flat().map((r) => [r, all[r]?.version])).toEqual(steps.flat().map((r) => [r, r === `${prefix}-db` ? 2 : 1]));
    expect(all[`${prefix}-db`]!.config).toMatchObject({ conf: { revision: '2' } });
  });

  test('pulumi destroy removes every release', async () => {
    const run = await ws.run('destroy');
    expect(run.summary.result).toBe('succeeded');
    expect(await helmReleases(namespace)).toEqual([]);
  });
});
