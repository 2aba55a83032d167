/**
 * Issue 45, class 7: readiness as Armada's armada/handlers/wait.py does it.
 * - PodWait.get_exclude_reason reads `self.chart_wait.chart['schema']`: the chart document's own
 *   version decides which pods a pod wait leaves out, not the manifest's.
 * - ControllerWait.__init__ parses min_ready: a string with re.match('(.*)%$') and int(); anything
 *   else is a count, compared in ControllerWait._is_min_ready (`ready >= min_ready`). Values that
 *   parser accepts but armada-cdk refuses are refused with what Armada would do with each.
 */
import { buildPlan } from '../../src/model/plan';
import { SchemaVersion } from '../../src/model/spec';
import { documentsToSpec } from '../../src/model/wire/from-documents';
import { podExcludeReason } from '../../src/pulumi/provider/readiness';
import type { Pod } from '../../src/pulumi/provider/readiness';
import { cli, tmpdir, write } from '../helpers/cli';
import { parseDocuments } from '../helpers/documents';

const pod = (ownerKind: string): Pod => ({ metadata: { name: 'p', ownerReferences: [{ kind: ownerKind }] }, status: { phase: 'Running' } });

describe("pod exclusion by the chart document's own version (wait.py PodWait.get_exclude_reason reads chart['schema'])", () => {
  test.each([
    ['a v1 chart in a v2 manifest', 'armada/Manifest/v2', 'armada/Chart/v1', SchemaVersion.V1],
    ['a v2 chart in a v1 manifest', 'armada/Manifest/v1', 'armada/Chart/v2', SchemaVersion.V2],
  ])('%s: the plan carries the chart\'s version and the gate excludes pods by it', (_, manifest, chartSchema, expected) => {
    const text = `---
schema: ${chartSchema}
metadata: {schema: metadata/Document/v1, name: legacy}
data:
  release: legacy
  namespace: default
  wait: {labels: {release_group: site-legacy}}
  source: {type: local, location: /charts, subpath: legacy}
---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: g}
data: {chart_group: [legacy]}
---
schema: ${manifest}
metadata: {schema: metadata/Document/v1, name: site}
data: {release_prefix: site, chart_groups: [g]}
`;
    const { spec, diagnostics } = documentsToSpec(parseDocuments(text, 'mixed.yaml'));
    expect(diagnostics.errors).toEqual([]);
    const legacy = buildPlan(spec!).releases.find((r) => r.chart === 'legacy')!;
    expect(legacy.schemaVersion).toBe(expected);
    // v1: only Job pods are left out; v2: every pod with an owner.
    expect([podExcludeReason(pod('ReplicaSet'), legacy.schemaVersion), podExcludeReason(pod('Job'), legacy.schemaVersion)]).toEqual(
      expected === SchemaVersion.V1 ? [undefined, 'owned by job'] : ['owned by another resource', 'owned by another resource'],
    );
  });
});

const dir = tmpdir('armada-cdk-min-ready-');
const ALLOWED = 'minReady must be a whole number of pods (0 or more) or a percentage "N%" with N from 0 to 100';

/** The min_ready values and what the message says Armada does with each, after ALLOWED. */
const CASES: [string, string][] = [
  ['"150%"', 'Armada reads it as 150% and waits for ceil(pods × 1.5) ready pods, more than a controller has: the wait is never met while the controller has pods (it passes only with none), and the chart fails at its timeout'],
  ['"+50%"', 'Armada reads it with Python\'s int() as 50%, the same as "50%"; armada-cdk takes only that plain form, which every target reads alike: write "50%"'],
  ['" 50%"', 'Armada reads it with Python\'s int() as 50%, the same as "50%"; armada-cdk takes only that plain form, which every target reads alike: write "50%"'],
  ['"5_0%"', 'Armada reads it with Python\'s int() as 50%, the same as "50%"; armada-cdk takes only that plain form, which every target reads alike: write "50%"'],
  ['"50%\\n"', 'Armada reads it with Python\'s int() as 50%, the same as "50%"; armada-cdk takes only that plain form, which every target reads alike: write "50%"'],
  ['"-5%"', 'Armada reads it as -5% and counts the wait as met at once; armada-cdk refuses it: write "0%" for that'],
  ['-1', 'Armada accepts it and counts the wait as met at once (any number of ready pods is at least -1); armada-cdk refuses a negative or fractional count: write 0 for that'],
  ['2.5', 'Armada compares the ready pods with it (ready >= 2.5), so it waits for 3; armada-cdk takes whole counts only: write 3'],
  ['true', "Python's bool is an int, so Armada waits for ready >= True, that is 1 pod; armada-cdk takes a count, not a boolean: write 1"],
  ['null', 'Armada passes None on as a count (only a missing min_ready gets the default 100%) and fails the chart with a TypeError ("\'>=\' not supported") at the first deployment, daemonset or statefulset it checks: leave min_ready out for the default'],
  ['"5\\n0%"', 'Armada rejects it too, when it deploys the chart and before it installs it (ManifestException: "`min_ready` as string must be formatted as a percent")'],
  ['"5.5%"', 'Armada fails on it when it deploys the chart, before it installs it (Python\'s int() cannot read "5.5": ValueError)'],
];

describe('min_ready values Armada\'s parser takes (wait.py ControllerWait.__init__, _is_min_ready): refused, saying what Armada would do', () => {
  test('each value, in the list form of wait.resources (which Armada\'s schema does not check)', async () => {
    const file = write(
      dir,
      'min-ready.yaml',
      `---
schema: armada/Chart/v2
metadata: {schema: metadata/Document/v1, name: c}
data:
  release: c
  namespace: ns
  source: {type: local, location: /charts, subpath: c}
  wait:
    labels: {a: b}
    resources:
${CASES.map(([v]) => `      - {type: deployment, min_ready: ${v}}\n`).join('')}---
schema: armada/ChartGroup/v2
metadata: {schema: metadata/Document/v1, name: g}
data: {chart_group: [c]}
---
schema: armada/Manifest/v2
metadata: {schema: metadata/Document/v1, name: site}
data: {release_prefix: a, chart_groups: [g]}
`,
    );
    const r = await cli(['validate', file]);
    expect(r.code).toBe(1);
    const shown = (v: string) => JSON.stringify(JSON.parse(v));
    expect((r.stdout + r.stderr).split('\n').filter((l) => l.includes(' error: '))).toEqual(
      CASES.map(([v, armada], i) => `${file}:${11 + i}:28: error: armada/Chart/v2 c: data.wait.resources[${i}].min_ready: received ${v === 'null' ? 'null' : shown(v)}; ${ALLOWED}; ${armada}`),
    );
  });
});
