import { capture, Captured, GATE, PRE_DELETE, RELEASE, settled, valueOf } from './mocks';
import * as pulumi from '@pulumi/pulumi';
import { defineSite } from '../../examples/site';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { ManifestDeployment } from '../../src/pulumi';

const debuggable = require('@pulumi/pulumi/runtime/debuggable') as { debuggablePromise: (...a: unknown[]) => unknown };
const settings = require('@pulumi/pulumi/runtime/settings') as { getMonitor(): { registerResource: (req: any, callback: unknown) => void } };

const charts = async (c: { name: string }) => `/charts/${c.name}`;
const DEBUG = 'PULUMI_DEBUG_PROMISE_LEAKS';
let limitBefore: number;

beforeEach(() => {
  jest.spyOn(pulumi.log, 'warn').mockImplementation(async () => undefined);
  limitBefore = Error.stackTraceLimit;
  // A value of our own, to see that it is the one restored.
  Error.stackTraceLimit = 17;
  delete process.env[DEBUG];
});
afterEach(() => {
  jest.restoreAllMocks();
  Error.stackTraceLimit = limitBefore;
  delete process.env[DEBUG];
});

/**
 * Deploys the example site, recording `Error.stackTraceLimit` where the SDK captures a stack for
 * each promise it makes (by the type of the resource being created), where a transformation (the
 * user's code) runs, and what the SDK sends the engine.
 */
async function deploy(throwOn?: string) {
  const sdk = new Map<string, Set<number>>();
  const user = new Map<string, number>();
  const seen: Captured[] = [];
  let creating = '';
  const record: pulumi.ResourceTransformation = (args) => {
    creating = args.type;
    user.set(args.type, Error.stackTraceLimit);
    if (`${args.type} ${args.name}` === throwOn) throw new Error(`transformation failed on ${args.name}`);
    return undefined;
  };
  const original = debuggable.debuggablePromise;
  const spy = jest.spyOn(debuggable, 'debuggablePromise').mockImplementation((...a: unknown[]) => {
    if (creating) sdk.set(creating, (sdk.get(creating) ?? new Set()).add(Error.stackTraceLimit));
    return original(...a);
  });
  const monitor = settings.getMonitor();
  const sent: string[] = [];
  monitor.registerResource = (req, callback) => {
    sent.push(JSON.stringify({ type: req.getType(), name: req.getName(), position: req.getSourceposition()?.toObject(), stack: req.getStacktrace()?.toObject() }));
    return Object.getPrototypeOf(monitor).registerResource.call(monitor, req, callback);
  };
  try {
    const deployment = new ManifestDeployment('site', { manifest: defineSite(), resolveChart: charts }, { transformations: [record, capture(seen)] });
    creating = '';
    const after = Error.stackTraceLimit;
    await settled(seen);
    await valueOf(deployment.releases);
    const limits = (m: Map<string, Set<number>>) => Object.fromEntries([...m].map(([type, set]) => [type, [...set].sort()]));
    return { sdk: limits(sdk), user: Object.fromEntries(user), after, sent: sent.sort(), seen };
  } finally {
    creating = '';
    spy.mockRestore();
    delete (monitor as { registerResource?: unknown }).registerResource;
  }
}

describe('Error.stackTraceLimit while ManifestDeployment builds its resources', () => {
  test("0 where the SDK captures stacks while every resource is created, the program's own in the user's transformations, the previous value afterwards", async () => {
    const { sdk, user, after, seen } = await deploy();
    expect(seen.length).toBe(1 + 4 + 11 * 3 + 6);
    // The Manifest component registers itself before it builds the rest.
    expect(sdk).toEqual({ 'armada:index:Manifest': [17], 'armada:index:ChartGroup': [0], 'armada:index:Chart': [0], [RELEASE]: [0], [GATE]: [0], [PRE_DELETE]: [0] });
    expect(user).toEqual({ 'armada:index:Manifest': 17, 'armada:index:ChartGroup': 17, 'armada:index:Chart': 17, [RELEASE]: 17, [GATE]: 17, [PRE_DELETE]: 17 });
    expect(after).toBe(17);
    expect(Error.stackTraceLimit).toBe(17);
  });

  test("restored when building throws, and the user's error reaches the caller with its stack", async () => {
    let error: unknown;
    try {
      await deploy(`${RELEASE} site/openstack-infra/memcached`);
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toBe('transformation failed on site/openstack-infra/memcached');
    // The frame that threw is the test's own transformation.
    expect((error as Error).stack?.split('\n')[1]).toMatch(/^ +at .*stack-trace-limit\.test\.ts:\d+:\d+\)?$/);
    expect(Error.stackTraceLimit).toBe(17);
  });

  test("a parent component's transformations keep their stacks too; so does a values function, which runs once the limit is restored", async () => {
    const stacks: Record<string, string | undefined> = {};
    const probe =
      (name: string): pulumi.ResourceTransformation =>
      (args) => {
        if (args.type === RELEASE) stacks[name] ??= new Error(name).stack;
        return undefined;
      };
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const image = pulumi.output('registry.example.org/app:1').apply((v) => {
      stacks.values ??= new Error('values').stack;
      return v;
    });
    new Chart(new ChartGroup(site, 'g'), 'app', { namespace: 'ns', source: ChartSource.tar('https://c.example.org/app.tgz'), wait: { labels: { app: 'x' } }, values: { image } });
    const seen: Captured[] = [];
    const parent = new pulumi.ComponentResource('test:index:Parent', 'parent', {}, { transformations: [probe('parent')] });
    const deployment = new ManifestDeployment('site', { manifest: site, resolveChart: charts }, { parent, transformations: [probe('own'), capture(seen)] });
    await settled(seen);
    await valueOf(deployment.releases);
    const frames = (s: string | undefined) => (s ?? '').split('\n').slice(1);
    expect(Object.keys(stacks).sort()).toEqual(['own', 'parent', 'values']);
    for (const [name, stack] of Object.entries(stacks)) expect([name, frames(stack)[0]]).toEqual([name, expect.stringMatching(/stack-trace-limit\.test\.ts:\d+:\d+\)?$/)]);
    // Up to the program's own limit.
    expect(frames(stacks.own).length).toBe(17);
  });

  test('left alone when PULUMI_DEBUG_PROMISE_LEAKS is set, so that the leak report keeps its traces', async () => {
    process.env[DEBUG] = '1';
    const { sdk, user, after } = await deploy();
    expect(new Set(Object.values(sdk).flat())).toEqual(new Set([17]));
    expect(new Set(Object.values(user))).toEqual(new Set([17]));
    expect(after).toBe(17);
  });

  test('source positions and stack traces sent to the engine are the same with and without the lower limit', async () => {
    const runs = [];
    for (const debug of [false, true]) {
      if (debug) process.env[DEBUG] = '1';
      // From the same (empty) stack each time, so that the traces can be compared.
      await new Promise((resolve) => setImmediate(resolve));
      runs.push(await deploy());
    }
    const [lowered, kept] = runs;
    expect(lowered.sent).toEqual(kept.sent);
    const sent = lowered.sent.map((s) => JSON.parse(s) as { type: string; name: string; position?: { uri: string; line: number }; stack?: unknown });
    expect(sent).toHaveLength(1 + 4 + 11 * 3 + 6);
    // Each resource's position is the line that creates it, inside the backend; the stack goes on to the caller.
    for (const type of [RELEASE, GATE, PRE_DELETE]) {
      const positions = new Set(sent.filter((s) => s.type === type).map((s) => `${s.position?.uri.replace(/^.*\/src\//, 'src/')}:${s.position?.line}`));
      expect([type, positions.size]).toEqual([type, 1]);
      expect([...positions][0]).toMatch(/^src\/pulumi\/resources\/(manifest-deployment|chart-group-deployment|chart-deployment|readiness-gate|pre-upgrade-delete)\.ts:\d+$/);
    }
    const reachesTheTest = (s: (typeof sent)[number]) => JSON.stringify(s.stack).includes('stack-trace-limit.test.ts');
    expect(sent.filter((s) => !reachesTheTest(s))).toEqual([]);
  });
});
