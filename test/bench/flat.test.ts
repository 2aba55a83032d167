import { judgeFlat, SizeRuns } from '../../bench/flat';
import { median } from '../../bench/harness';

/** Runs of one size: our case and the baseline, each round slowed by the same machine factor. */
function size(charts: number, oursMs: number, baselineMs: number, roundFactors: readonly number[]): SizeRuns {
  return { size: charts, case: roundFactors.map((f) => oursMs * f), baseline: roundFactors.map((f) => baselineMs * f) };
}

const STEADY = [1, 1, 1, 1, 1, 1, 1];

describe('judgeFlat', () => {
  test('the marginal-cost rule: what a chart adds between the two largest sizes against the ceiling', () => {
    // 10 ms fixed + 0.1 ms per chart, against 20 ms + 0.12 ms per chart.
    const v = judgeFlat([size(250, 35, 50, STEADY), size(2000, 210, 260, STEADY), size(8000, 810, 980, STEADY)], 'marginal-cost', 1.5);
    expect(v.added.map((a) => [a.from, a.to, Number(a.oursMs.toFixed(3)), Number(a.ratio.toFixed(3))])).toEqual([
      [250, 2000, 0.1, 0.833],
      [2000, 8000, 0.1, 0.833],
    ]);
    expect(v.excess).toBeCloseTo(0.1 / 0.12 - 1.5, 12);
    expect(v.interval[0]).toBeCloseTo(v.excess, 12);
    expect(v.interval[1]).toBeCloseTo(v.excess, 12);
    expect(v.verdict).toBe('met');
  });

  test('the marginal-cost rule looks at the last step only, and misses a chart that adds more than the ceiling', () => {
    // The first step is dear (the runs outgrow the young generation), the last within 1.5x: met.
    const cheap = judgeFlat([size(250, 10, 50, STEADY), size(2000, 535, 400, STEADY), size(8000, 1255, 1000, STEADY)], 'marginal-cost', 1.5);
    expect(cheap.added.map((a) => Number(a.ratio.toFixed(2)))).toEqual([1.5, 1.2]);
    expect(cheap.verdict).toBe('met');
    const dear = judgeFlat([size(2000, 200, 400, [1, 1.01, 0.99, 1]), size(8000, 1400, 1000, [1, 0.99, 1.01, 1])], 'marginal-cost', 1.5);
    expect(dear.excess).toBeCloseTo(0.5, 12);
    expect(dear.interval[0]).toBeGreaterThan(0);
    expect(dear.verdict).toBe('missed');
  });

  test('the ends rule compares the ratio at the largest size with the smallest', () => {
    const v = judgeFlat([size(250, 110, 100, STEADY), size(8000, 1900, 2000, STEADY)], 'ends', 1.5);
    expect(v.ratios).toEqual([{ size: 250, ratio: 1.1 }, { size: 8000, ratio: 0.95 }]);
    expect(v.excess).toBeCloseTo(-0.15, 12);
    expect(v.verdict).toBe('met');
  });

  test("a rise larger than the runs' spread is missed", () => {
    const jitter = [1, 1.01, 0.99, 1.02, 0.98, 1, 1.01];
    const v = judgeFlat([size(250, 100, 100, jitter), size(8000, 2400, 2000, jitter.slice().reverse())], 'ends', 1.5);
    expect(v.excess).toBeCloseTo(0.2, 2);
    expect(v.interval[0]).toBeGreaterThan(0);
    expect(v.verdict).toBe('missed');
  });

  test("a small rise inside the runs' own spread is met within it, and its interval shows the spread", () => {
    // Our runs at 8,000 spread by a third, independently of the baseline's: a median 2% higher proves nothing.
    const ours8000 = [1500, 2600, 1900, 2100, 2300, 1700, 2040];
    const v = judgeFlat([{ size: 250, case: [100, 100, 100, 100, 100, 100, 100], baseline: [100, 100, 100, 100, 100, 100, 100] }, { size: 8000, case: ours8000, baseline: [2000, 2000, 2000, 2000, 2000, 2000, 2000] }], 'ends', 1.5);
    expect(v.excess).toBeCloseTo(0.02, 12);
    expect(v.interval[0]).toBeLessThan(0);
    expect(v.interval[1]).toBeGreaterThan(0.1);
    expect(v.verdict).toBe('within-noise');
  });

  test('a round that is slow for both the case and its baseline does not widen the spread (rounds are resampled whole)', () => {
    const machine = [1, 1.4, 0.8, 1.3, 0.9, 1.6, 1];
    const v = judgeFlat([size(250, 90, 100, machine), size(8000, 1800, 2000, [...machine].reverse())], 'ends', 1.5);
    expect(v.interval[0]).toBeCloseTo(0, 12);
    expect(v.interval[1]).toBeCloseTo(0, 12);
    expect(v.verdict).toBe('met');
  });

  test('the same runs give the same verdict and interval every time', () => {
    const runs = [{ size: 250, case: [30, 35, 33, 40, 31], baseline: [50, 52, 49, 60, 51] }, { size: 2000, case: [200, 230, 215, 260, 205], baseline: [300, 310, 290, 330, 305] }, { size: 8000, case: [900, 1000, 950, 1200, 870], baseline: [1200, 1300, 1150, 1400, 1250] }];
    expect(judgeFlat(runs, 'marginal-cost', 1.5)).toEqual(judgeFlat(runs, 'marginal-cost', 1.5));
    expect(judgeFlat(runs, 'ends', 1.5)).toEqual(judgeFlat(runs, 'ends', 1.5));
  });

  test('runs that do not pair up, and too few sizes, are refused with what was given', () => {
    expect(() => judgeFlat([{ size: 250, case: [1, 2], baseline: [1] }, { size: 8000, case: [1], baseline: [1] }], 'ends', 1.5)).toThrow('size 250: 2 runs of the case against 1 of the baseline; each round times both');
    expect(() => judgeFlat([size(8000, 1, 1, STEADY)], 'marginal-cost', 1.5)).toThrow('the marginal-cost rule needs 2 sizes or more; the series has 1');
    expect(() => judgeFlat([{ size: 250, case: [], baseline: [] }, size(8000, 1, 1, STEADY)], 'ends', 1.5)).toThrow('size 250: 0 runs of the case against 0 of the baseline');
  });

  test('median takes the upper middle of an even count, as the harness reports it', () => {
    expect(median([4, 1, 3, 2])).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
  });
});
