/**
 * Whether a series' cost is linear in its input (see `FlatRule`), judged from every run rather
 * than from the medians alone. Two estimates of one quantity compare in either order by chance:
 * a series whose cost is exactly linear would pass a plain `no higher` half the time, and all
 * series at once when the one baseline they share happens to run fast or slow at one size. So the
 * verdict carries the spread of the runs: the runs of each size are resampled (whole alternation
 * rounds, so that a case and its baseline keep the machine state they ran in), the rule's figure
 * is computed again for each resample, and an excess counts only when it stays above zero in 95%
 * of the resamples.
 */

import { FlatRule, median } from './harness';

/** One input size of a series: the run times of our case and of its baseline, by alternation round. */
export interface SizeRuns {
  readonly size: number;
  /** Our case's time in each round. */
  readonly case: readonly number[];
  /** The baseline's time in the same rounds (same length, same order). */
  readonly baseline: readonly number[];
}

/** What a chart adds between two sizes, in ms, ours and the baseline's. */
export interface AddedCost {
  readonly from: number;
  readonly to: number;
  readonly oursMs: number;
  readonly ratio: number;
}

/** The verdict on one series. */
export interface FlatVerdict {
  /** The ratio of medians at each size, smallest first. */
  readonly ratios: readonly { readonly size: number; readonly ratio: number }[];
  readonly added: readonly AddedCost[];
  /**
   * The rule's figure less what it allows, zero or less when met: the rise of the ratio from the
   * smallest size to the largest (`ends`), or the added cost's ratio between the two largest
   * sizes above the ceiling (`marginal-cost`).
   */
  readonly excess: number;
  /** The 5th and 95th percentiles of `excess` over the resamples. */
  readonly interval: readonly [number, number];
  /**
   * `met`: no excess; `within-noise`: an excess smaller than the runs' own spread (its 5th
   * percentile at or below zero); `missed`: an excess in at least 95% of the resamples.
   */
  readonly verdict: 'met' | 'within-noise' | 'missed';
}

/** Resamples per verdict: enough that the percentiles move by less than the second decimal. */
export const RESAMPLES = 2000;

/**
 * Judges one series; `ceiling` is the ratio the `marginal-cost` rule allows. Deterministic: the
 * resampling's generator is seeded, so the same run times give the same verdict.
 */
export function judgeFlat(sizes: readonly SizeRuns[], rule: FlatRule, ceiling: number, resamples = RESAMPLES): FlatVerdict {
  const bySize = [...sizes].sort((a, b) => a.size - b.size);
  for (const s of bySize) {
    if (s.case.length === 0 || s.case.length !== s.baseline.length) throw new Error(`size ${s.size}: ${s.case.length} runs of the case against ${s.baseline.length} of the baseline; each round times both`);
  }
  if (bySize.length < 2) throw new Error(`the ${rule} rule needs 2 sizes or more; the series has ${bySize.length}`);
  const medians = bySize.map((s) => ({ size: s.size, case: median(s.case), baseline: median(s.baseline) }));
  const point = figure(medians, rule, ceiling);
  const random = mulberry32(0x5eed);
  const excesses: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const drawn = bySize.map((s) => {
      const rounds = Array.from({ length: s.case.length }, () => Math.floor(random() * s.case.length));
      return { size: s.size, case: median(rounds.map((r) => s.case[r])), baseline: median(rounds.map((r) => s.baseline[r])) };
    });
    excesses.push(figure(drawn, rule, ceiling).excess);
  }
  excesses.sort((a, b) => a - b);
  const interval: [number, number] = [quantile(excesses, 0.05), quantile(excesses, 0.95)];
  const verdict = point.excess <= 0 ? 'met' : interval[0] <= 0 ? 'within-noise' : 'missed';
  return { ratios: medians.map((m) => ({ size: m.size, ratio: m.case / m.baseline })), added: point.added, excess: point.excess, interval, verdict };
}

function figure(medians: readonly { size: number; case: number; baseline: number }[], rule: FlatRule, ceiling: number): { excess: number; added: AddedCost[] } {
  const added = medians.slice(1).map((m, i): AddedCost => {
    const prev = medians[i];
    const n = m.size - prev.size;
    const ours = (m.case - prev.case) / n;
    return { from: prev.size, to: m.size, oursMs: ours, ratio: ours / ((m.baseline - prev.baseline) / n) };
  });
  const first = medians[0];
  const last = medians[medians.length - 1];
  const excess = rule === 'ends' ? last.case / last.baseline - first.case / first.baseline : added[added.length - 1].ratio - ceiling;
  return { excess, added };
}

/** The `q` quantile of sorted `xs`, by the nearest rank. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** A small seeded generator (mulberry32): the same sequence on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
