import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import { ArmadaManifest, ArmadaManifestProps, Chart, ChartGroup, ChartGroupProps, ChartProps, ChartSource, Testing, WaitResource } from '../../src';
import { ArmadaDocuments } from '../../src/cdk8s';
import { base } from '../helpers/site';

/**
 * Props of the wrong runtime type, as JavaScript callers (or TypeScript through `as any`) pass
 * them: each is an error with the construct path, the field, the value received and what is
 * allowed, collected with every other error; never a TypeError, never a document Armada rejects.
 */
type Props = { manifest?: Record<string, unknown>; group?: Record<string, unknown>; chart?: Record<string, unknown> };

function site(p: Props, scope?: cdk8s.Chart) {
  const m = new ArmadaManifest(scope, 'site', { releasePrefix: 'airship', ...p.manifest } as ArmadaManifestProps);
  const g = new ChartGroup(m, 'g', { ...p.group } as ChartGroupProps);
  new Chart(g, 'c', { ...base('c'), ...p.chart } as ChartProps);
  return m;
}

const wait = (w: Record<string, unknown>) => ({ chart: { wait: { labels: { a: 'b' }, ...w } } });
const DURATION = 'must be a Duration: use Duration.seconds(n) or Duration.minutes(n)';
const WAIT_RESOURCE = 'a WaitResource: use WaitResource.job(...), .pod(...), .deployment(...), .daemonSet(...) or .statefulSet(...)';
const HOOK = 'a hook action ({ type: "job" | "cronjob" | "pod", labels?, name? })';

const rows: [string, Props, string][] = [
  // Chart
  ['wait.timeout number', wait({ timeout: 600 }), `site/g/c: wait.timeout: received 600; wait.timeout ${DURATION}`],
  ['timeout number', { chart: { timeout: 600 } }, `site/g/c: timeout: received 600; timeout ${DURATION}`],
  ['delete.timeout string', { chart: { delete: { timeout: '5m' } } }, `site/g/c: delete.timeout: received "5m"; delete.timeout ${DURATION}`],
  ['delete string', { chart: { delete: 'yes' } }, 'site/g/c: delete: received "yes"; delete must be { timeout? }'],
  ['test.timeout number', { chart: { test: { timeout: 300 } } }, `site/g/c: test.timeout: received 300; test.timeout ${DURATION}`],
  ['test string', { chart: { test: 'yes' } }, 'site/g/c: test: received "yes"; test must be true, false or { enabled?, timeout?, cleanup? }'],
  ['test.enabled string', { chart: { test: { enabled: 'no' } } }, 'site/g/c: test.enabled: received "no"; test.enabled must be true or false'],
  ['test.cleanup number', { chart: { test: { cleanup: 1 } } }, 'site/g/c: test.cleanup: received 1; test.cleanup must be true or false'],
  ['dependencies strings', { chart: { dependencies: ['x'] } }, 'site/g/c: dependencies[0]: received "x"; dependencies[0] must be a Chart construct'],
  ['dependencies string', { chart: { dependencies: 'x' } }, 'site/g/c: dependencies: received "x"; dependencies must be a list of Chart constructs'],
  ['dependencies number', { chart: { dependencies: 5 } }, 'site/g/c: dependencies: received 5; dependencies must be a list of Chart constructs'],
  ['wait.resources plain object', wait({ resources: [{ type: 'job' }] }), `site/g/c: wait.resources[0]: received {"type":"job"}; wait.resources[0] must be ${WAIT_RESOURCE}`],
  ['wait.resources string', wait({ resources: 'job' }), `site/g/c: wait.resources: received "job"; wait.resources must be a list, each item ${WAIT_RESOURCE}`],
  ['wait.resources[].required string', wait({ resources: [WaitResource.job({ required: 'no' as never })] }), 'site/g/c: wait.resources[0].required: received "no"; wait.resources[0].required must be true or false'],
  ['wait.resources[].allowAsyncUpdates string', wait({ resources: [WaitResource.statefulSet({ allowAsyncUpdates: 'yes' as never })] }), 'site/g/c: wait.resources[0].allowAsyncUpdates: received "yes"; wait.resources[0].allowAsyncUpdates must be true or false'],
  ['wait.resources[].labels string', wait({ resources: [WaitResource.pod({ labels: 'a=b' as never })] }), 'site/g/c: wait.resources[0].labels: received "a=b"; wait.resources[0].labels must be labels: an object of strings ({ "app.kubernetes.io/name": "x" })'],
  ['wait.native boolean', wait({ native: true }), 'site/g/c: wait.native: received true; wait.native must be { enabled?: true | false }'],
  ['wait.native.enabled string', wait({ native: { enabled: 'yes' } }), 'site/g/c: wait.native.enabled: received "yes"; wait.native.enabled must be true or false'],
  ['wait.labels string', wait({ labels: 'a=b' }), 'site/g/c: wait.labels: received "a=b"; wait.labels must be labels: an object of strings ({ "app.kubernetes.io/name": "x" })'],
  ['wait string', { chart: { wait: 'yes' } }, 'site/g/c: wait: received "yes"; wait must be { timeout?, labels?, resources?, native? }'],
  ['upgrade.pre.delete string', { chart: { upgrade: { pre: { delete: 'job' } } } }, `site/g/c: upgrade.pre.delete: received "job"; upgrade.pre.delete must be a list, each item ${HOOK}`],
  ['upgrade.pre.delete[] string', { chart: { upgrade: { pre: { delete: ['job'] } } } }, `site/g/c: upgrade.pre.delete[0]: received "job"; upgrade.pre.delete[0] must be ${HOOK}`],
  ['upgrade.pre.delete[].type number', { chart: { upgrade: { pre: { delete: [{ type: 5 }] } } } }, 'site/g/c: upgrade.pre.delete[0].type: received 5; upgrade.pre.delete[0].type must be a string'],
  ['upgrade.pre.update[].name number', { chart: { upgrade: { pre: { update: [{ type: 'job', name: 5 }] } } } }, 'site/g/c: upgrade.pre.update[0].name: received 5; upgrade.pre.update[0].name must be a string'],
  ['upgrade.pre.create[].labels string', { chart: { upgrade: { pre: { create: [{ type: 'job', labels: 'a=b' }] } } } }, 'site/g/c: upgrade.pre.create[0].labels: received "a=b"; upgrade.pre.create[0].labels must be labels: an object of strings ({ "app.kubernetes.io/name": "x" })'],
  ['upgrade.post.create[] number', { chart: { upgrade: { post: { create: [5] } } } }, `site/g/c: upgrade.post.create[0]: received 5; upgrade.post.create[0] must be ${HOOK}`],
  ['upgrade.options string', { chart: { upgrade: { options: 'force' } } }, "site/g/c: upgrade.options: received \"force\"; upgrade.options must be { force?: true | false }"],
  ['delete.timeout missing object', { chart: { delete: null } }, 'site/g/c: delete: received null; delete must be { timeout? }'],
  ['upgrade.pre string', { chart: { upgrade: { pre: 'x' } } }, 'site/g/c: upgrade.pre: received "x"; upgrade.pre must be { delete?, update?, create? }'],
  ['upgrade.post.create string', { chart: { upgrade: { post: { create: 'x' } } } }, `site/g/c: upgrade.post.create: received "x"; upgrade.post.create must be a list, each item ${HOOK}`],
  ['upgrade.noHooks string', { chart: { upgrade: { noHooks: 'yes' } } }, 'site/g/c: upgrade.noHooks: received "yes"; upgrade.noHooks must be true or false'],
  ['upgrade.options.force number', { chart: { upgrade: { options: { force: 1 } } } }, 'site/g/c: upgrade.options.force: received 1; upgrade.options.force must be true or false'],
  ['upgrade string', { chart: { upgrade: 'x' } }, 'site/g/c: upgrade: received "x"; upgrade must be { noHooks?, pre?, post?, options? }'],
  ['values string', { chart: { values: 'str' } }, 'site/g/c: values: received "str"; values must be an object of Helm values ({ key: value })'],
  ['values list', { chart: { values: [1, 2] } }, 'site/g/c: values: received [1,2]; values must be an object of Helm values ({ key: value })'],
  ['protected string', { chart: { protected: 'yes' } }, 'site/g/c: protected: received "yes"; protected must be { continueProcessing?: true | false }'],
  ['protected.continueProcessing string', { chart: { protected: { continueProcessing: 'yes' } } }, 'site/g/c: protected.continueProcessing: received "yes"; protected.continueProcessing must be true or false'],
  ['chartName number', { chart: { chartName: 5 } }, 'site/g/c: chartName: received 5; chartName must be a string'],
  ['chart schemaVersion string', { chart: { schemaVersion: '2' } }, 'site/g/c: schemaVersion: received "2"; schemaVersion must be SchemaVersion.V1 or SchemaVersion.V2'],
  ['install string', { chart: { install: 'x' } }, 'site/g/c: install: received "x"; install must be an object'],
  ['source plain object', { chart: { source: { type: 'git', location: 'https://x' } } }, 'site/g/c: source: received {"type":"git","location":"https://x"}; source must be a ChartSource: use ChartSource.git(...), .tar(...) or .local(...)'],
  ['source missing', { chart: { source: undefined } }, 'site/g/c: source: received undefined; source must be a ChartSource: use ChartSource.git(...), .tar(...) or .local(...)'],
  // ChartGroup
  ['sequenced string', { group: { sequenced: 'yes' } }, 'site/g: sequenced: received "yes"; sequenced must be true or false'],
  ['testCharts string', { group: { testCharts: 'yes' } }, 'site/g: testCharts: received "yes"; testCharts must be true or false'],
  ['description number', { group: { description: 5 } }, 'site/g: description: received 5; description must be a string'],
  ['displayName number', { group: { displayName: 5 } }, 'site/g: displayName: received 5; displayName must be a string'],
  ['group schemaVersion number', { group: { schemaVersion: 3 } }, 'site/g: schemaVersion: received 3; schemaVersion must be SchemaVersion.V1 or SchemaVersion.V2'],
  ['charts strings', { group: { charts: ['x'] } }, 'site/g: charts[0]: received "x"; charts[0] must be a Chart construct'],
  ['charts string', { group: { charts: 'x' } }, 'site/g: charts: received "x"; charts must be a list of Chart constructs'],
  // ArmadaManifest
  ['manifest schemaVersion string', { manifest: { schemaVersion: 'v2' } }, 'site: schemaVersion: received "v2"; schemaVersion must be SchemaVersion.V1 or SchemaVersion.V2'],
  ['chartGroups strings', { manifest: { chartGroups: ['g'] } }, 'site: chartGroups[0]: received "g"; chartGroups[0] must be a ChartGroup construct'],
  ['chartGroups number', { manifest: { chartGroups: 1 } }, 'site: chartGroups: received 1; chartGroups must be a list of ChartGroup constructs'],
];

const propErrors = (m: ArmadaManifest) => Testing.validate(m).filter((d) => d.code === 'prop-type').map((d) => `${d.location}: ${d.field}: ${d.message}`);

describe('props of the wrong runtime type', () => {
  test.each(rows)('%s', (_name, props, line) => {
    const m = site(props);
    expect(propErrors(m)).toEqual([line]);
    // The plan is built before validation: it must not crash either.
    expect(() => m.resolve()).not.toThrow();
  });

  test('several are reported together, with the other errors', () => {
    const m = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
    const g = new ChartGroup(m, 'g', { sequenced: 'yes' as never });
    new Chart(g, 'a', { ...base('a'), namespace: 42 as never, wait: { labels: { a: 'b' }, timeout: 600 as never, resources: [{ type: 'job' } as never] } });
    new Chart(g, 'b', { ...base('b'), dependencies: ['x' as never], upgrade: { pre: { delete: 'job' as never } }, values: 'str' as never });
    expect(() => m.plan()).toThrow(expect.objectContaining({ message: expect.stringContaining('ArmadaManifest site') }));
    const lines = Testing.validate(m).filter((d) => d.severity === 'error').map((d) => `${d.location}: ${d.field}: ${d.message}`);
    expect(lines).toEqual(expect.arrayContaining([
      'site/g: sequenced: received "yes"; sequenced must be true or false',
      'site/g/a: namespace: namespace 42 must be a non-empty string',
      `site/g/a: wait.timeout: received 600; wait.timeout ${DURATION}`,
      `site/g/a: wait.resources[0]: received {"type":"job"}; wait.resources[0] must be ${WAIT_RESOURCE}`,
      'site/g/b: dependencies[0]: received "x"; dependencies[0] must be a Chart construct',
      `site/g/b: upgrade.pre.delete: received "job"; upgrade.pre.delete must be a list, each item ${HOOK}`,
      'site/g/b: values: received "str"; values must be an object of Helm values ({ key: value })',
    ]));
    expect(lines).toHaveLength(7);
  });

  test('cdk8s synth reports them all in one error and writes nothing', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-prop-types-'));
    const app = new cdk8s.App({ outdir });
    const chart = new cdk8s.Chart(app, 'site');
    const m = site({ group: { sequenced: 'yes' }, chart: { test: 'yes', wait: { labels: { a: 'b' }, timeout: 600, native: true } } }, chart);
    new ArmadaDocuments(chart, 'docs', { manifest: m });
    let error: unknown;
    try {
      app.synth();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).not.toMatch(/TypeError|is not a function|Cannot read properties/);
    for (const line of [
      'site/site/g: sequenced: received "yes"; sequenced must be true or false',
      'site/site/g/c: test: received "yes"; test must be true, false or { enabled?, timeout?, cleanup? }',
      `site/site/g/c: wait.timeout: received 600; wait.timeout ${DURATION}`,
      'site/site/g/c: wait.native: received true; wait.native must be { enabled?: true | false }',
    ]) expect(message).toContain(line);
    expect(fs.readdirSync(outdir)).toEqual([]);
  });

  test('a well-typed definition is left as it is', () => {
    const m = site({ chart: { dependencies: [], test: true, values: { a: 1 }, wait: { labels: { a: 'b' }, resources: [WaitResource.job({ required: false })], native: { enabled: true } } } });
    expect(propErrors(m)).toEqual([]);
    expect(m.resolve().spec.charts[0].source).toBeInstanceOf(ChartSource);
  });
});
