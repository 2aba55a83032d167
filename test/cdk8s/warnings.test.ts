/**
 * The outputs' warnings: grouped by kind as the CLI groups them, each with a stable id, and
 * left out where a site acknowledges them.
 */
import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup, Diagnostic, Warnings } from '../../src';
import { ArmadaChartOutput, ArmadaDocuments, ArmadaOperator, OperatorRbac } from '../../src/cdk8s';
import { warningLines } from '../../src/cdk8s/warning-handler';
import { base } from '../helpers/site';

/** Five charts whose default pod wait the airship operator skips when it finds nothing. */
function fiveCharts() {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
  const g = new ChartGroup(site, 'g');
  const charts = ['a', 'b', 'c', 'd', 'e'].map((n) => new Chart(g, n, base(n)));
  return { site, g, charts };
}

function synthWarnings(site: ArmadaManifest, setup?: (output: ArmadaChartOutput, chart: cdk8s.Chart) => void): Diagnostic[] {
  const seen: Diagnostic[] = [];
  const chart = new cdk8s.Chart(new cdk8s.App(), 'out');
  const output = new ArmadaChartOutput(chart, 'crs', { manifest: site, onWarning: (d) => seen.push(d) });
  setup?.(output, chart);
  cdk8s.Testing.synth(chart);
  return seen;
}

const where = (ds: Diagnostic[]) => ds.map((d) => `${d.code} ${d.location} ${d.field ?? ''}`.trim());

describe('grouped as the CLI groups them', () => {
  test('a kind of warning found more than three times is one line with the count and a few other places; each line ends with its id', () => {
    const lines = warningLines(synthWarnings(fiveCharts().site));
    expect(lines).toEqual([
      "armada-cdk: warning: site/g/a: wait: the airship operator departs from Armada here: Armada fails the chart when a required wait finds no pod by its timeout (armada/Chart/v1's default pod wait is required); the operator skips a wait that finds nothing [operator-differs:wait: 5 warnings like this one, also in site/g/b, site/g/c, site/g/d and 1 more]",
    ]);
  });

  test('three of a kind or fewer stay one line each, in the order found', () => {
    const { site, charts } = fiveCharts();
    for (const c of charts.slice(3)) Warnings.of(c).acknowledge('operator-differs', 'tested');
    expect(warningLines(synthWarnings(site)).map((l) => l.replace(/: the airship .*\[/, ' ['))).toEqual([
      'armada-cdk: warning: site/g/a: wait [operator-differs:wait]',
      'armada-cdk: warning: site/g/b: wait [operator-differs:wait]',
      'armada-cdk: warning: site/g/c: wait [operator-differs:wait]',
    ]);
  });

  test('without a handler, the grouped lines go to stderr, with how to acknowledge one the first time', () => {
    const { site } = fiveCharts();
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
      written.push(String(s));
      return true;
    });
    try {
      new ArmadaChartOutput(new cdk8s.Chart(new cdk8s.App(), 'out'), 'crs', { manifest: site });
      new ArmadaDocuments(new cdk8s.Chart(new cdk8s.App(), 'docs'), 'docs', { manifest: site });
    } finally {
      spy.mockRestore();
    }
    const app = new cdk8s.App();
    new ArmadaChartOutput(new cdk8s.Chart(app, 'out'), 'crs', { manifest: site });
    const lines: string[] = [];
    const spy2 = jest.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
      lines.push(...String(s).split('\n').filter(Boolean));
      return true;
    });
    try {
      app.synthYaml();
    } finally {
      spy2.mockRestore();
    }
    expect(written).toEqual([]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^armada-cdk: warning: site\/g\/a: wait: .*\[operator-differs:wait: 5 warnings like this one, also in site\/g\/b, site\/g\/c, site\/g\/d and 1 more\]$/);
    expect(lines[1]).toBe("armada-cdk: to accept a warning, acknowledge its id on the construct it is about: Warnings.of(chart).acknowledge('<id>', 'why it is accepted')");
  });
});

describe('Warnings.of(scope).acknowledge(id, reason)', () => {
  test('on a chart: that chart only, by code or by code and field', () => {
    const { site, charts } = fiveCharts();
    Warnings.of(charts[0]).acknowledge('operator-differs', 'we skip absent pods on purpose');
    Warnings.of(charts[1]).acknowledge('operator-differs:wait', 'the same, for this kind only');
    Warnings.of(charts[2]).acknowledge('operator-differs:wait.labels', 'another field: no effect');
    expect(where(synthWarnings(site))).toEqual(['operator-differs site/g/c wait', 'operator-differs site/g/d wait', 'operator-differs site/g/e wait']);
    expect(Warnings.of(charts[0]).acknowledged).toEqual({ 'operator-differs': 'we skip absent pods on purpose' });
  });

  test('on a group or the manifest: everything inside it', () => {
    const { site, g } = fiveCharts();
    const other = new Chart(new ChartGroup(site, 'h'), 'f', base('f'));
    Warnings.of(g).acknowledge('operator-differs:wait', 'accepted for the group');
    expect(where(synthWarnings(site))).toEqual(['operator-differs site/h/f wait']);
    Warnings.of(site).acknowledge('operator-differs', 'accepted for the site');
    expect(synthWarnings(site)).toEqual([]);
    void other;
  });

  test('on an output or its cdk8s Chart: what that output reports, not what another one does', () => {
    const { site } = fiveCharts();
    expect(synthWarnings(site, (output) => Warnings.of(output).acknowledge('operator-differs', 'this operator only'))).toEqual([]);
    expect(synthWarnings(site, (_, chart) => Warnings.of(chart).acknowledge('operator-differs', 'this file only'))).toEqual([]);
    expect(synthWarnings(site)).toHaveLength(5);
  });

  test('misuse throws at once: an unknown code, or no reason', () => {
    const { charts } = fiveCharts();
    expect(() => Warnings.of(charts[0]).acknowledge('operator-differ', 'x')).toThrow(
      'site/g/a: acknowledge: received id "operator-differ"; an id is a warning code (such as "operator-differs"), optionally followed by ":" and a field, as printed in brackets after each warning',
    );
    expect(() => Warnings.of(charts[0]).acknowledge('operator-differs', ' ')).toThrow('site/g/a: acknowledge "operator-differs": received reason " "; say why the warning is accepted');
  });
});

test("the operator bundle's warnings are acknowledged on the operator or its chart, the same way", () => {
  const run = (ack?: (operator: ArmadaOperator, chart: cdk8s.Chart) => void) => {
    const seen: string[] = [];
    const chart = new cdk8s.Chart(new cdk8s.App(), 'operator');
    const operator = new ArmadaOperator(chart, 'armada-operator', { rbac: OperatorRbac.CLUSTER_ADMIN, onWarning: (d) => seen.push(`${d.code} ${d.location}`) });
    ack?.(operator, chart);
    cdk8s.Testing.synth(chart);
    return seen;
  };
  expect(run()).toEqual(['cluster-admin operator/armada-operator']);
  expect(run((operator) => Warnings.of(operator).acknowledge('cluster-admin', 'a throwaway test cluster'))).toEqual([]);
  expect(run((_, chart) => Warnings.of(chart).acknowledge('cluster-admin', 'a throwaway test cluster'))).toEqual([]);
});
