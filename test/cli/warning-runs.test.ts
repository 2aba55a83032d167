/**
 * Like warnings about several keys of one object are one diagnostic per key,
 * reported like any others: a grouped line shows the one first in the file and counts them all, a
 * group of no more than three prints each in file order, and `--max-warnings`, the summary and
 * the JSON form count each. The keleustes values check instead
 * makes one warning per chart that lists every key its closed schema drops (the last test).
 */
import { execFileSync } from 'child_process';
import { reportLines, toJson, tooManyWarnings } from '../../src/cli/report';
import { resolveInputs } from '../../src/importer/resolve';
import { Diagnostics, FieldPath, summary } from '../../src/model/diagnostics';
import { buildPlan } from '../../src/model/plan';
import { toKeleustesObjects } from '../../src/model/wire/keleustes-v1alpha1';
import { tmpdir, write } from '../helpers/cli';
import { docOrigin } from '../helpers/doc-origin';
import { sharedPath } from '../helpers/shared';

const doc = (file: string, startLine: number, label: string, lines: Record<string, [number, number]>) => docOrigin(file, startLine, label, lines, 'last');

const dropped = (field: FieldPath) => `${field.join('.')}: unknown to the CRD schema`;

/** A warning about each of `keys` of `values`, in their order, as a rule that finds several makes them. */
const warnEach = (d: Diagnostics, origin: Parameters<Diagnostics['warn']>[0], keys: readonly string[]) => {
  for (const k of keys) d.warnBelow(origin, ['values'], k, 'not-expressible', dropped);
};

describe('warnings about each key of one object', () => {
  // Keys in the order the rule found them; in the file `b` comes first.
  const origin = () => doc('a.yaml', 10, 'armada/Chart/v1 one', { a: [14, 5], b: [12, 5], c: [13, 5], d: [15, 5] });

  test('are one diagnostic per key, in the order given, each located', () => {
    const d = new Diagnostics();
    warnEach(d, origin(), ['a', 'b', 'c', 'd']);
    d.warn(origin(), ['source'], 'not-expressible', 'other');
    expect(d.all.map((x) => [x.location, x.field, x.message])).toEqual([
      ['a.yaml:14:5', 'values.a', 'values.a: unknown to the CRD schema'],
      ['a.yaml:12:5', 'values.b', 'values.b: unknown to the CRD schema'],
      ['a.yaml:13:5', 'values.c', 'values.c: unknown to the CRD schema'],
      ['a.yaml:15:5', 'values.d', 'values.d: unknown to the CRD schema'],
      ['a.yaml:10:1', 'source', 'other'],
    ]);
    expect(summary(d.all)).toBe('0 errors, 5 warnings');
  });

  test('none is nothing', () => {
    const d = new Diagnostics();
    warnEach(d, origin(), []);
    expect(d.all).toEqual([]);
  });

  test('a grouped line shows the one first in the file and counts them all', () => {
    const d = new Diagnostics();
    warnEach(d, doc('a.yaml', 40, 'armada/Chart/v1 two', { a: [41, 5], b: [42, 5] }), ['a', 'b']);
    warnEach(d, origin(), ['a', 'b', 'c', 'd']);
    expect(reportLines(d.all)).toEqual(['a.yaml:12:5: warning: armada/Chart/v1 one: values.b: values.b: unknown to the CRD schema [not-expressible: 6 warnings like this one, also in armada/Chart/v1 two]']);
    expect(reportLines(d.all, { allWarnings: true }).map((l) => l.split(': warning')[0])).toEqual(['a.yaml:12:5', 'a.yaml:13:5', 'a.yaml:14:5', 'a.yaml:15:5', 'a.yaml:41:5', 'a.yaml:42:5']);
  });

  test('a group of no more than 3 prints each, in file order', () => {
    const d = new Diagnostics();
    warnEach(d, doc('a.yaml', 10, 'armada/Chart/v1 one', { a: [14, 5], b: [12, 5] }), ['a', 'b']);
    d.warn(doc('a.yaml', 20, 'armada/Chart/v1 two', {}), ['values'], 'not-expressible', 'values: unknown to the CRD schema');
    expect(reportLines(d.all).map((l) => l.split(': warning')[0])).toEqual(['a.yaml:12:5', 'a.yaml:14:5', 'a.yaml:20:1']);
  });

  test('--max-warnings and the JSON form count each', () => {
    const d = new Diagnostics();
    warnEach(d, origin(), ['a', 'b', 'c', 'd']);
    expect(tooManyWarnings(d.all, { maxWarnings: 3 })).toBe(true);
    expect(tooManyWarnings(d.all, { maxWarnings: 4 })).toBe(false);
    const json = toJson(d.all);
    expect([json.warnings, json.diagnostics.map((x) => x.location)]).toEqual([4, ['a.yaml:12:5', 'a.yaml:13:5', 'a.yaml:14:5', 'a.yaml:15:5']]);
  });
});

test('keleustes-v1alpha1 conversion of the generated site (60 charts, 32 pruned values each): one warning per chart lists its pruned keys, one grouped line', async () => {
  const f = write(tmpdir(), 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '60'], { encoding: 'utf8' }));
  const r = await resolveInputs([f], { skipChartSchemas: true });
  const ds = [...r.diagnostics, ...toKeleustesObjects(r.spec!, buildPlan(r.spec!)).diagnostics.all];
  expect(summary(ds)).toBe(`1 error, ${ds.length - 1} warnings`);
  const pruned = ds.filter((d) => d.message.includes('unknown to the CRD schema'));
  expect(pruned.map((d) => d.document)).toEqual(Array.from({ length: 60 }, (_, i) => `armada/Chart/v1 chart-${i}`));
  const keys = Array.from({ length: 32 }, (_, i) => `values.conf.key_${i}`).join(', ');
  expect(pruned.every((d) => d.field === 'data.values' && d.message.endsWith(`: 32 fields of values are unknown to the CRD schema, so the API server drops them silently and Helm never sees them (this operator's values schema is closed): ${keys}`))).toBe(true);
  expect(reportLines(ds).filter((l) => l.includes('unknown to the CRD schema')).map((l) => l.replace(/: cannot be expressed.*\[/, ': ... ['))).toEqual([
    `${f}:22:7: warning: armada/Chart/v1 chart-0: data.values: ... [not-expressible: 60 warnings like this one, also in armada/Chart/v1 chart-1, armada/Chart/v1 chart-2, armada/Chart/v1 chart-3 and 56 more]`,
  ]);
}, 120_000);
