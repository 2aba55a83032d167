import { capture, Captured, GATE, PRE_DELETE, RELEASE, settled, valueOf } from './mocks';
import * as pulumi from '@pulumi/pulumi';
import { defineSite } from '../../examples/site';
import { ManifestDeployment } from '../../src/pulumi';

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

/** Deploys the example site, recording `Error.stackTraceLimit` whenever a resource is created and what the SDK sends the engine. */
async function deploy(throwOn?: string) {
  const limits = new Map<string, number>();
  const seen: Captured[] = [];
  const record: pulumi.ResourceTransformation = (args) => {
    limits.set(args.type, Error.stackTraceLimit);
    if (`${args.type} ${args.name}` === throwOn) throw new Error(`transformation failed on ${args.name}`);
    return undefined;
  };
  const monitor = settings.getMonitor();
  const sent: string[] = [];
  monitor.registerResource = (req, callback) => {
    sent.push(JSON.stringify({ type: req.getType(), name: req.getName(), position: req.getSourceposition()?.toObject(), stack: req.getStacktrace()?.toObject() }));
    return Object.getPrototypeOf(monitor).registerResource.call(monitor, req, callback);
  };
  try {
    const deployment = new ManifestDeployment('site', { manifest: defineSite(), resolveChart: charts }, { transformations: [record, capture(seen)] });
    const after = Error.stackTraceLimit;
    await settled(seen);
    await valueOf(deployment.releases);
    return { limits: Object.fromEntries(limits), after, sent: sent.sort(), seen };
  } finally {
    delete (monitor as { registerResource?: unknown }).registerResource;
  }
}

describe('Error.stackTraceLimit while ManifestDeployment builds its resources', () => {
  test('0 while every resource is created, the previous value afterwards', async () => {
    const { limits, after, seen } = await deploy();
    expect(seen.length).toBe(1 + 4 + 11 * 3 + 6);
    // The Manifest component registers itself before it builds the rest.
    expect(limits).toEqual({ 'armada:index:Manifest': 17, 'armada:index:ChartGroup': 0, 'armada:index:Chart': 0, [RELEASE]: 0, [GATE]: 0, [PRE_DELETE]: 0 });
    expect(after).toBe(17);
    expect(Error.stackTraceLimit).toBe(17);
  });

  test('restored when building throws, and the error reaches the caller', async () => {
    let error: unknown;
    try {
      await deploy(`${RELEASE} site/openstack-infra/memcached`);
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toBe('transformation failed on site/openstack-infra/memcached');
    expect(Error.stackTraceLimit).toBe(17);
  });

  test('left alone when PULUMI_DEBUG_PROMISE_LEAKS is set, so that the leak report keeps its traces', async () => {
    process.env[DEBUG] = '1';
    const { limits, after } = await deploy();
    expect(new Set(Object.values(limits))).toEqual(new Set([17]));
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
