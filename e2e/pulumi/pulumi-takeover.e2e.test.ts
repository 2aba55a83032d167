/**
 * What Pulumi's Kubernetes provider does with releases and charts Armada handles (#43): taking
 * over releases installed outside Pulumi (with Helm 3 and with Helm 4, as Armada runs either), and
 * upgrading a chart whose objects fail Helm's OpenAPI validation.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNamespace, endpoint, kubeRequest, runTool, stack } from '../stack';
import { SiteChart, SiteDescription, tarball } from './fixture-site';
import { helmRecord } from './helm-records';
import { EngineEvent, pulumiWorkspace } from './pulumi-env';

const GATE = 'pulumi-nodejs:dynamic/armada:ReadinessGate';
const RELEASE = 'kubernetes:helm.sh/v3:Release';

/** A site of the given charts in one sequenced group. */
function site(prefix: string, cacheDir: string, charts: readonly SiteChart[], takeover = false): SiteDescription {
  return {
    releasePrefix: prefix,
    ...(takeover ? { takeover: true } : {}),
    helmCommand: stack().binaries.helm3,
    chartCacheDir: cacheDir,
    subcharts: [],
    groups: [{ id: 'only', description: 'The charts', sequenced: true, charts }],
  };
}

/** For each chart, the operations of the steps the engine started on its resources of a type, in order. */
function operations(events: readonly EngineEvent[], type: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (m && m.type === type) (out[m.urn.slice(m.urn.lastIndexOf('/') + 1)] ??= []).push(m.op);
  }
  return out;
}

function changes(summary: { resourceChanges?: Readonly<Record<string, number>> }): Record<string, number> {
  return Object.fromEntries(Object.entries(summary.resourceChanges ?? {}).filter(([, n]) => n > 0));
}

describe('Pulumi against releases and charts Armada handles', () => {
  test('takes over releases installed with plain helm install (Helm 3 and Helm 4): no replacement, the revision history continued, then nothing to change', async () => {
    const ws = await pulumiWorkspace('takeover');
    const namespace = await createNamespace('pulumi-takeover');
    const dbValues = { pod: { replicas: { server: 2 } } };
    const agentValues = { conf: { revision: '7' } };
    // As `armada apply` would have left them: installed from a values file, revision 1, one by
    // each Helm (Armada moved to Helm 4 in 2026; the provider embeds Helm 3).
    const valuesFile = (name: string, values: object) => {
      const f = path.join(ws.dir, `${name}.json`);
      fs.writeFileSync(f, JSON.stringify(values));
      return f;
    };
    const db = tarball('e2e-db') as { url: string };
    const agent = tarball('e2e-agent') as { url: string };
    await runTool('helm3', ['install', 'ptk-db', db.url, '--namespace', namespace, '--values', valuesFile('db', dbValues), '--wait', '--timeout', '180s']);
    await runTool('helm4', ['install', 'ptk-agent', agent.url, '--namespace', namespace, '--values', valuesFile('agent', agentValues), '--wait', '--timeout', '180s']);
    const before = { db: (await helmRecord(namespace, 'ptk-db'))!, agent: (await helmRecord(namespace, 'ptk-agent'))! };
    expect([before.db.version, before.agent.version]).toEqual([1, 1]);

    ws.writeSite(
      site(
        'ptk',
        path.join(ws.dir, 'chart-cache'),
        [
          { id: 'db', namespace, source: tarball('e2e-db'), values: dbValues, wait: { timeoutSeconds: 180, labels: { release_group: 'ptk-db' }, resources: [{ type: 'statefulset' }] } },
          { id: 'agent', namespace, source: tarball('e2e-agent'), values: agentValues, wait: { timeoutSeconds: 180, labels: { release_group: 'ptk-agent' }, resources: [{ type: 'daemonset' }] } },
        ],
        true,
      ),
    );

    // The preview reads each release and shows an import, then an in-place update: no create, no replace.
    const preview = await ws.run('preview');
    expect(operations(preview.events, RELEASE)).toEqual({ db: ['import', 'update'], agent: ['import', 'update'] });

    // Taken over: the Releases imported and upgraded in place, each gate waiting after its upgrade.
    const first = await ws.run('up');
    expect(first.summary.result).toBe('succeeded');
    expect(changes(first.summary).replace).toBeUndefined();
    expect([operations(first.events, RELEASE), operations(first.events, GATE)]).toEqual([
      { db: ['import', 'update'], agent: ['import', 'update'] },
      { db: ['create'], agent: ['create'] },
    ]);
    const after = { db: (await helmRecord(namespace, 'ptk-db'))!, agent: (await helmRecord(namespace, 'ptk-agent'))! };
    // The same releases, one upgrade each: revision 2, first deployed when helm installed them, the same values.
    expect([after.db.version, after.db.info.status, after.db.info.first_deployed, after.db.config]).toEqual([2, 'deployed', before.db.info.first_deployed, dbValues]);
    expect([after.agent.version, after.agent.info.status, after.agent.info.first_deployed, after.agent.config]).toEqual([2, 'deployed', before.agent.info.first_deployed, agentValues]);
    const history = await runTool('helm3', ['history', 'ptk-db', '--namespace', namespace, '--output', 'json']);
    expect((JSON.parse(history.stdout) as { revision: number; status: string }[]).map((h) => [h.revision, h.status])).toEqual([
      [1, 'superseded'],
      [2, 'deployed'],
    ]);

    // Helm 4, which Armada now runs, reads the records the provider's Helm 3 wrote.
    expect((await helmRecord(namespace, 'ptk-agent', 'helm4'))?.version).toBe(2);

    // A second `pulumi up` changes nothing: no upgrade, no wait.
    const second = await ws.run('up');
    expect(Object.keys(changes(second.summary))).toEqual(['same']);
    expect([(await helmRecord(namespace, 'ptk-db'))!.version, (await helmRecord(namespace, 'ptk-agent'))!.version]).toEqual([2, 2]);
  }, 900_000);

  test("upgrades a chart whose objects fail OpenAPI validation: the provider's upgrade validates, but a current API server only drops the unknown field, as Armada's --disable-openapi-validation lets it through", async () => {
    const ws = await pulumiWorkspace('openapi');
    const namespace = await createNamespace('pulumi-openapi');
    const write = (revision: string) =>
      ws.writeSite(
        site('poa', path.join(ws.dir, 'chart-cache'), [
          { id: 'legacy', namespace, source: { type: 'local', path: path.join(__dirname, 'fixtures', 'openapi-legacy') }, values: { conf: { revision } }, wait: { timeoutSeconds: 60, labels: { release_group: 'poa-legacy' }, resources: [] } },
        ]),
      );
    write('1');
    await ws.run('up');
    expect((await helmRecord(namespace, 'poa-legacy'))?.version).toBe(1);
    // The provider does not disable the validation on upgrade; Helm leaves it to a server that
    // supports field validation (Kubernetes 1.25 and later), and never asks it to be strict.
    write('2');
    const run = await ws.run('up', { allowFailure: true });
    expect([run.result.code, (await helmRecord(namespace, 'poa-legacy'))?.version]).toEqual([0, 2]);
    const configMap = await kubeRequest(endpoint(), 'GET', `/api/v1/namespaces/${namespace}/configmaps/poa-legacy-conf`);
    const body = configMap.body as { data?: Record<string, string>; legacyField?: unknown };
    expect([body.data, 'legacyField' in body]).toEqual([{ revision: '2' }, false]);
  }, 900_000);
});
