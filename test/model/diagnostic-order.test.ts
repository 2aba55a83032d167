import { execFileSync } from 'child_process';
import { reportLines } from '../../src/cli/report';
import { resolveInputs } from '../../src/importer/resolve';
import { deferLocating, inInputOrder, InputOrder } from '../../src/model/diagnostic-order';
import { ConstructOrigin, DeferredDiagnostic, Diagnostic, Diagnostics, FieldPath, Origin, parseLocation } from '../../src/model/diagnostics';
import { buildPlan } from '../../src/model/plan';
import { toKeleustesObjects } from '../../src/model/wire/keleustes-v1alpha1';
import { tmpdir, write } from '../helpers/cli';
import { docOrigin } from '../helpers/doc-origin';
import { rng } from '../helpers/random';
import { sharedPath } from '../helpers/shared';

const doc = docOrigin;

const warn = (o: Origin, field: string, code = 'c', message = field) => new DeferredDiagnostic('warning', o, [field], message, code);
const plain = (location: string, message: string, code = 'c'): Diagnostic => ({ severity: 'warning', location, message, code });

/** The order before deferral: every location parsed, files by first appearance, then line, column, index. */
function reference(ds: readonly Diagnostic[]): string[] {
  const files: string[] = [];
  const keys = ds.map((d, i) => {
    const p = parseLocation(d.location);
    if (!files.includes(p.file)) files.push(p.file);
    return { d, i, ...p };
  });
  return keys
    .sort((a, b) => files.indexOf(a.file) - files.indexOf(b.file) || a.line - b.line || a.column - b.column || a.i - b.i)
    .map((k) => k.d.message);
}

describe('parseLocation', () => {
  test.each([
    ['site.yaml:12:3', { file: 'site.yaml', line: 12, column: 3 }],
    ['C:/x/site.yaml:1:2', { file: 'C:/x/site.yaml', line: 1, column: 2 }],
    [':1:2', { file: '', line: 1, column: 2 }],
    ['STDIN', { file: 'STDIN', line: 0, column: 0 }],
    ['site/infra/mariadb', { file: 'site/infra/mariadb', line: 0, column: 0 }],
    ['site.yaml:12', { file: 'site.yaml:12', line: 0, column: 0 }],
    ['site.yaml:1x:3', { file: 'site.yaml:1x:3', line: 0, column: 0 }],
    ['--set[2]', { file: '--set[2]', line: 0, column: 0 }],
  ])('%s', (location, expected) => {
    expect(parseLocation(location)).toEqual(expected);
  });
});

describe('input order with deferred positions', () => {
  test('documents order their diagnostics without a lookup; within one document positions decide', () => {
    const a = doc('f.yaml', 1, 'armada/Chart/v1 a', { x: [5, 3], y: [3, 7] });
    const b = doc('f.yaml', 10, 'armada/Chart/v1 b', { x: [12, 3] });
    const ds = [warn(b, 'x'), warn(a, 'x'), warn(a, 'y')];
    expect(inInputOrder(ds).map((d) => d.message)).toEqual(['y', 'x', 'x']);
    expect(inInputOrder(ds).map((d) => d.location)).toEqual(['f.yaml:3:7', 'f.yaml:5:3', 'f.yaml:12:3']);
    // b's one diagnostic never needed its position to be ordered
    const fresh = doc('f.yaml', 10, 'b', { x: [12, 3] });
    inInputOrder([warn(fresh, 'x'), warn(a, 'x'), warn(a, 'y')]);
    expect(fresh.lookups).toBe(0);
  });

  test('a plain diagnostic inside a document is placed among that document\'s by position', () => {
    const a = doc('f.yaml', 1, 'A', { x: [2, 1], y: [8, 1] });
    const b = doc('f.yaml', 10, 'B', { x: [11, 1] });
    const ds = [warn(a, 'y'), plain('f.yaml:5:1', 'plain-5'), warn(b, 'x'), warn(a, 'x'), plain('f.yaml:10:1', 'plain-10'), plain('f.yaml:1:1', 'plain-1')];
    expect(inInputOrder(ds).map((d) => d.message)).toEqual(reference(ds.map((d) => (d instanceof DeferredDiagnostic ? d.toPlain() : d))));
    expect(inInputOrder(ds).map((d) => d.message)).toEqual(['plain-1', 'x', 'plain-5', 'y', 'plain-10', 'x']);
  });

  test('two documents that start on one line are ordered by position', () => {
    const a = doc('f.yaml', 4, 'A', { x: [6, 1] });
    const b = doc('f.yaml', 4, 'B', { x: [5, 1] });
    const ds = [warn(a, 'x', 'c', 'a'), warn(b, 'x', 'c', 'b')];
    expect(inInputOrder(ds).map((d) => d.message)).toEqual(['b', 'a']);
    expect(new InputOrder(ds).documents([0, 1])).toEqual(['B', 'A']);
  });

  test('files in the order they first appear; construct paths by their path, at line 0', () => {
    const a = doc('a.yaml', 1, 'A', { x: [3, 1] });
    const b = doc('b.yaml', 1, 'B', { x: [2, 1] });
    const site = new ConstructOrigin('site/infra');
    const ds = [plain('b.yaml:9:1', 'b-9'), warn(a, 'x', 'c', 'a-3'), warn(b, 'x', 'c', 'b-2'), new DeferredDiagnostic('error', site, ['wait'], 'construct', 'c'), plain('a.yaml:1:1', 'a-1')];
    expect(inInputOrder(ds).map((d) => d.message)).toEqual(['b-2', 'b-9', 'a-1', 'a-3', 'construct']);
    expect(inInputOrder(ds).map((d) => d.message)).toEqual(reference(ds));
  });

  test('files given in order come in that order, whatever order the rules found them in; others after them', () => {
    const a = doc('a.yaml', 1, 'A', { x: [3, 1] });
    const b = doc('b.yaml', 1, 'B', { x: [2, 1] });
    const ds = [warn(b, 'x', 'c', 'b-2'), plain('other.yaml:1:1', 'other'), warn(a, 'x', 'c', 'a-3'), plain('b.yaml:1:1', 'b-1')];
    expect(inInputOrder(ds, ['a.yaml', 'b.yaml']).map((d) => d.message)).toEqual(['a-3', 'b-1', 'b-2', 'other']);
    expect(inInputOrder(ds).map((d) => d.message)).toEqual(['b-1', 'b-2', 'other', 'a-3']);
    // grouped: the first of a group is the first in the files' order
    const like = [warn(b, 'x', 'same', 'b'), warn(a, 'x', 'same', 'a'), warn(b, 'x', 'same', 'b'), warn(b, 'x', 'same', 'b')];
    expect(reportLines(like, { files: ['a.yaml', 'b.yaml'] })).toEqual(['a.yaml:3:1: warning: A: x: a [same: 4 warnings like this one, also in B]']);
    expect(reportLines(like, { files: ['b.yaml', 'a.yaml'] })).toEqual(['b.yaml:2:1: warning: B: x: b [same: 4 warnings like this one, also in A]']);
  });

  test('alike means the same code about the same field: each field of one code gets its line; indices and values keys group', () => {
    const a = doc('a.yaml', 1, 'A', { x: [2, 1], y: [3, 1], values: [4, 1], wait: [5, 1] });
    const b = doc('b.yaml', 1, 'B', { x: [2, 1], y: [3, 1], values: [4, 1], wait: [5, 1] });
    const at = (o: Origin, path: FieldPath, message: string) => new DeferredDiagnostic('warning', o, path, message, 'lost');
    const ds = [
      ...[a, b, a, b].map((o, i) => at(o, ['x'], `x${i}`)),
      ...[a, b, a, b].map((o, i) => at(o, ['y'], `y${i}`)),
      ...[a, b].flatMap((o) => [at(o, ['values', 'k0'], 'v'), at(o, ['values', 'deep', 'k1'], 'v')]),
      ...[a, b].flatMap((o) => [at(o, ['wait', 'resources', 0, 'minReady'], 'm'), at(o, ['wait', 'resources', 3, 'minReady'], 'm')]),
    ];
    expect(reportLines(ds, { files: ['a.yaml', 'b.yaml'] })).toEqual([
      'a.yaml:2:1: warning: A: x: x0 [lost: 4 warnings like this one, also in B]',
      'a.yaml:3:1: warning: A: y: y0 [lost: 4 warnings like this one, also in B]',
      'a.yaml:4:1: warning: A: values: v [lost: 4 warnings like this one, also in B]',
      'a.yaml:5:1: warning: A: wait: m [lost: 4 warnings like this one, also in B]',
    ]);
    // Fields given as text group the same way.
    const texts = ['data.values.a', 'data.values["b"]', 'data.values.c.d', 'data.values'].map((field, i): Diagnostic => ({ severity: 'warning', location: `a.yaml:${i + 1}:1`, field, message: field, code: 'lost' }));
    expect(reportLines(texts)).toEqual(['a.yaml:1:1: warning: data.values.a: data.values.a [lost: 4 warnings like this one, also in a.yaml:2:1, a.yaml:3:1, a.yaml:4:1]']);
  });

  test('earliest and documentsInOrder: the first diagnostic, then every other document once', () => {
    const docs = [5, 1, 9, 3].map((start, i) => doc('f.yaml', start * 10, `D${i}`, { x: [start * 10 + 2, 1], y: [start * 10 + 1, 4] }));
    const ds = docs.flatMap((o) => [warn(o, 'x'), warn(o, 'y')]);
    const order = new InputOrder(ds);
    const first = order.earliest(ds.map((_, i) => i));
    expect([ds[first].document, ds[first].location]).toEqual(['D1', 'f.yaml:11:4']);
    expect(order.documents(ds.map((_, i) => i).filter((i) => i !== first))).toEqual(['D1', 'D3', 'D0', 'D2']);
    // only the earliest document's diagnostics were located
    expect(docs.map((o) => o.lookups)).toEqual([0, 2, 0, 0]);
    expect(order.compare(0, 2)).toBeGreaterThan(0);
    expect(docs.map((o) => o.lookups)).toEqual([0, 2, 0, 0]);
    expect(order.sorted().map((i) => ds[i].location)).toEqual(['f.yaml:11:4', 'f.yaml:12:1', 'f.yaml:31:4', 'f.yaml:32:1', 'f.yaml:51:4', 'f.yaml:52:1', 'f.yaml:91:4', 'f.yaml:92:1']);
  });

  test('firstDocuments names what documents() names first, leaving one out, and counts them all', () => {
    const r = rng(20261203);
    for (let round = 0; round < 400; round++) {
      const files = ['a.yaml', 'b.yaml'];
      // several documents may start on one line (pieces of one stream) and share a label (the same name in two files)
      const docs = Array.from({ length: 1 + Math.floor(r() * 9) }, (_, i) => {
        const start = 1 + Math.floor(r() * 6) * 10;
        return doc(files[Math.floor(r() * 2)], start, `D${Math.floor(r() * 6)}`, { x: [start + Math.floor(r() * 5), 1 + i], y: [start + 1, 2] });
      });
      const ds = Array.from({ length: 1 + Math.floor(r() * 25) }, () => warn(docs[Math.floor(r() * docs.length)], r() < 0.5 ? 'x' : 'y'));
      if (r() < 0.2) ds.push(plain(`a.yaml:${1 + Math.floor(r() * 60)}:1`, 'plain') as DeferredDiagnostic);
      const members = ds.map((_, i) => i).filter(() => r() < 0.8);
      const except = r() < 0.5 ? `D${Math.floor(r() * 6)}` : undefined;
      const all = new InputOrder(ds, files).documents(members).filter((x) => x !== except);
      for (const count of [0, 1, 3]) {
        expect(new InputOrder(ds, files).firstDocuments(members, count, except)).toEqual({ first: all.slice(0, count), total: all.length });
      }
    }
  });

  test('Diagnostics.all gives plain objects with the keys of a diagnostic built directly', () => {
    const d = new Diagnostics();
    const o = doc('f.yaml', 1, 'A', { x: [2, 5] });
    d.warn(o, ['x'], 'not-expressible', () => 'written when read');
    d.error(new ConstructOrigin('site'), undefined, 'name', 'bad');
    expect(d.all).toStrictEqual([
      { severity: 'warning', location: 'f.yaml:2:5', document: 'A', field: 'x', message: 'written when read', code: 'not-expressible' },
      { severity: 'error', location: 'site', message: 'bad', code: 'name' },
    ]);
    expect(d.all).toBe(d.all);
    expect(d.hasErrors).toBe(true);
  });
});

describe('the generated site: a report locates only what it prints', () => {
  test('keleustes-v1alpha1 of 60 charts: thousands of warnings, the grouped report identical to the fully located one', async () => {
    const f = write(tmpdir(), 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '60'], { encoding: 'utf8' }));
    const convert = async () => {
      const r = await resolveInputs([f], { skipChartSchemas: true });
      return [...r.diagnostics, ...toKeleustesObjects(r.spec!, buildPlan(r.spec!)).diagnostics.collected];
    };
    const lazy = await convert();
    const lines = reportLines(lazy);
    const deferred = lazy.filter((d): d is DeferredDiagnostic => d instanceof DeferredDiagnostic);
    expect(deferred.length).toBeGreaterThan(1500);
    expect(deferred.filter((d) => d.placed).length).toBeLessThan(100);

    const was = deferLocating(false);
    try {
      expect(lines).toEqual(reportLines(await convert()));
    } finally {
      deferLocating(was);
    }
    expect(lines.some((l) => /\[not-expressible: \d+ warnings like this one, also in armada\/Chart\/v1 /.test(l))).toBe(true);
    expect(reportLines(lazy, { allWarnings: true }).length).toBe(lazy.length);
  }, 60_000);
});
