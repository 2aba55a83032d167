import * as fs from 'fs';
import * as path from 'path';
import { Case, measure, median } from '../../bench/harness';

const BENCH = path.resolve(__dirname, '..', '..', 'bench');

describe('measure', () => {
  test('a warm-up round, then rounds in alternating order, every case once per round', async () => {
    const calls: string[] = [];
    const cases: Case[] = ['a', 'b', 'c'].map((name) => ({ name, run: () => void calls.push(name) }));
    const results = await measure(cases, 3);
    expect(calls.join(' ')).toBe('a b c a b c c b a a b c');
    expect(results.map((r) => [r.name, r.runs])).toEqual([
      ['a', 3],
      ['b', 3],
      ['c', 3],
    ]);
  });

  test('the reported clock takes the times the runs return; their median and least', async () => {
    const times = { ours: [30, 10, 20, 50], raw: [5, 6, 7, 8] };
    const next = (name: keyof typeof times) => () => times[name].shift();
    const results = await measure([{ name: 'ours', run: next('ours') }, { name: 'raw', run: next('raw') }], 3, 1, 'reported');
    expect(results).toEqual([
      { name: 'ours', medianMs: 20, minMs: 10, runs: 3 },
      { name: 'raw', medianMs: 7, minMs: 6, runs: 3 },
    ]);
  });

  test('a reported run that returns no time, and cases of two clocks, are refused by name', async () => {
    await expect(measure([{ name: 'silent', run: () => undefined }], 1, 0, 'reported')).rejects.toThrow('silent: a case timed by the `reported` clock must return its time in ms; it returned undefined');
    await expect(measure([{ name: 'x', run: () => 1, clock: 'cpu' }, { name: 'y', run: () => 1, clock: 'wall' }], 1)).rejects.toThrow('the cases x (cpu), y (wall) must use one clock');
  });
});

test('median: the middle, or of an even count the upper middle', () => {
  expect([median([3, 1, 2]), median([4, 1, 3, 2])]).toEqual([2, 3]);
});

test('every bench/*.bench.ts is registered in bench/run.ts, and every registered file exists', () => {
  const list = /const BENCH_FILES = \[([^\]]*)\]/.exec(fs.readFileSync(path.join(BENCH, 'run.ts'), 'utf8'));
  expect(list).not.toBeNull();
  const registered = [...list![1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
  const files = fs.readdirSync(BENCH).filter((f) => f.endsWith('.bench.ts')).map((f) => f.replace(/\.ts$/, ''));
  expect([...registered].sort()).toEqual(files.sort());
});
