/**
 * A run of like warnings (the keys of one object that a closed values schema prunes) is one entry
 * for the report, counted by its members: the report, the summary, `--max-warnings` and the JSON
 * form read exactly as they do from the members one by one, on hand-made runs, the generated
 * site and the corpus, with deferred locating on and off.
 */
import { execFileSync } from 'child_process';
import { reportLines, toJson, tooManyWarnings, ReportOptions } from '../../src/cli/report';
import { resolveInputs } from '../../src/importer/resolve';
import { deferLocating } from '../../src/model/diagnostic-order';
import { DeferredDiagnosticRun, Diagnostic, Diagnostics, FieldPath, summary, weightOf } from '../../src/model/diagnostics';
import { buildPlan } from '../../src/model/plan';
import { toKeleustesObjects } from '../../src/model/wire/keleustes-v1alpha1';
import { tmpdir, write } from '../helpers/cli';
import { docOrigin } from '../helpers/doc-origin';
import { corpusFiles, sharedPath } from '../helpers/shared';

const doc = (file: string, startLine: number, label: string, lines: Record<string, [number, number]>) => docOrigin(file, startLine, label, lines, 'last');

const dropped = (field: FieldPath) => `${field.join('.')}: unknown to the CRD schema`;
const OPTIONS: ReportOptions[] = [{}, { allWarnings: true }, { all: true }, { quiet: true }];

/** Every way the CLI reads a run's diagnostics, from the compact list and from the members. */
function readings(compact: readonly Diagnostic[], members: readonly Diagnostic[]) {
  const count = members.filter((d) => d.severity === 'warning').length;
  const read = (ds: readonly Diagnostic[]) => ({
    lines: OPTIONS.map((o) => reportLines(ds, o)),
    summary: summary(ds),
    over: [count - 1, count].map((maxWarnings) => tooManyWarnings(ds, { maxWarnings })),
    json: toJson(ds),
  });
  return { compact: read(compact), members: read(members) };
}

describe('a run of like warnings', () => {
  // Keys in the order the rule found them; in the file `b` comes first (an integer-like key sorts
  // first among an object's keys in JavaScript, whatever the file's order).
  const origin = () => doc('a.yaml', 10, 'armada/Chart/v1 one', { a: [14, 5], b: [12, 5], c: [13, 5], d: [15, 5] });

  test('is one entry of `compact`; `collected` and `all` give its members, in the order found', () => {
    const d = new Diagnostics();
    d.warnBelowEach(origin(), ['values'], ['a', 'b', 'c', 'd'], 'not-expressible', dropped);
    d.warn(origin(), ['source'], 'not-expressible', 'other');
    expect(d.compact).toHaveLength(2);
    expect(weightOf(d.compact[0])).toBe(4);
    expect(d.collected.map((x) => x.message)).toEqual(['values.a: unknown to the CRD schema', 'values.b: unknown to the CRD schema', 'values.c: unknown to the CRD schema', 'values.d: unknown to the CRD schema', 'other']);
    expect(d.all.map((x) => x.location)).toEqual(['a.yaml:14:5', 'a.yaml:12:5', 'a.yaml:13:5', 'a.yaml:15:5', 'a.yaml:10:1']);
    expect(summary(d.compact)).toBe('0 errors, 5 warnings');
  });

  test('one key is a plain warning, none is nothing', () => {
    const d = new Diagnostics();
    d.warnBelowEach(origin(), ['values'], ['a'], 'not-expressible', dropped);
    d.warnBelowEach(origin(), ['values'], [], 'not-expressible', dropped);
    expect(d.compact).toHaveLength(1);
    expect(d.compact[0]).not.toBeInstanceOf(DeferredDiagnosticRun);
  });

  test('a grouped line shows the member first in the file, counts them all and locates only that document', () => {
    const here = origin();
    const later = doc('a.yaml', 40, 'armada/Chart/v1 two', { a: [41, 5], b: [42, 5] });
    const d = new Diagnostics();
    d.warnBelowEach(later, ['values'], ['a', 'b'], 'not-expressible', dropped);
    d.warnBelowEach(here, ['values'], ['a', 'b', 'c', 'd'], 'not-expressible', dropped);
    expect(reportLines(d.compact)).toEqual(['a.yaml:12:5: warning: armada/Chart/v1 one: values.b: values.b: unknown to the CRD schema [not-expressible: 6 warnings like this one, also in armada/Chart/v1 two]']);
    expect(later.lookups).toBe(0);
    const { compact, members } = readings(d.compact, d.collected);
    expect(compact).toEqual(members);
  });

  test('a group of no more than 3 prints each member, in file order', () => {
    const d = new Diagnostics();
    d.warnBelowEach(doc('a.yaml', 10, 'armada/Chart/v1 one', { a: [14, 5], b: [12, 5] }), ['values'], ['a', 'b'], 'not-expressible', dropped);
    d.warn(doc('a.yaml', 20, 'armada/Chart/v1 two', {}), ['values'], 'not-expressible', 'values: unknown to the CRD schema');
    expect(reportLines(d.compact).map((l) => l.split(': warning')[0])).toEqual(['a.yaml:12:5', 'a.yaml:14:5', 'a.yaml:20:1']);
    const { compact, members } = readings(d.compact, d.collected);
    expect(compact).toEqual(members);
  });

  test('--max-warnings counts the members', () => {
    const d = new Diagnostics();
    d.warnBelowEach(origin(), ['values'], ['a', 'b', 'c', 'd'], 'not-expressible', dropped);
    expect(tooManyWarnings(d.compact, { maxWarnings: 3 })).toBe(true);
    expect(tooManyWarnings(d.compact, { maxWarnings: 4 })).toBe(false);
  });
});

async function keleustes(file: string) {
  const r = await resolveInputs([file], { skipChartSchemas: true });
  if (r.spec === undefined) return undefined;
  const out = toKeleustesObjects(r.spec, buildPlan(r.spec)).diagnostics;
  return { compact: [...r.diagnostics, ...out.compact], members: [...r.diagnostics, ...out.collected] };
}

describe('keleustes-v1alpha1 conversions: the runs read as their members', () => {
  test('the generated site (60 charts, 32 pruned values each), deferred locating on and off', async () => {
    const f = write(tmpdir(), 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '60'], { encoding: 'utf8' }));
    for (const deferring of [true, false]) {
      const was = deferLocating(deferring);
      try {
        const ds = (await keleustes(f))!;
        expect(ds.compact.length).toBeLessThan(ds.members.length / 5);
        const { compact, members } = readings(ds.compact, ds.members);
        expect(compact).toEqual(members);
        expect(compact.summary).toBe(`1 error, ${ds.members.length - 1} warnings`);
        expect(compact.lines[0].some((l) => /values\.conf\.key_0: .*\[not-expressible: 1920 warnings like this one, also in armada\/Chart\/v1 chart-1, /.test(l))).toBe(true);
      } finally {
        deferLocating(was);
      }
    }
  }, 120_000);

  // The corpus's pruned values are single keys here and there: no runs, and nothing changes.
  test('every corpus file', async () => {
    for (const { file } of corpusFiles()) {
      const ds = await keleustes(sharedPath('corpus', file));
      if (ds === undefined) continue;
      const { compact, members } = readings(ds.compact, ds.members);
      expect([file, compact]).toEqual([file, members]);
    }
  }, 120_000);
});
