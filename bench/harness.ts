/**
 * Benchmark harness: each benchmark measures our code and a baseline doing the same work in the
 * same process, alternating runs so that machine noise hits both alike, and reports the ratio.
 * Peak memory is measured in a fresh child process per case (heap growth would otherwise leak
 * from one case into the next).
 */
import * as path from 'path';
import { performance } from 'perf_hooks';

/** One measured case. */
export interface Case {
  readonly name: string;
  /** Runs the work once; may return something to keep alive until the timing ends. */
  readonly run: () => unknown | Promise<unknown>;
  /**
   * What is timed: wall-clock time, or the CPU time of this process (user + system, all its
   * threads), which other processes competing for the CPUs do not inflate. `cpu` suits work that
   * runs in this process only (not child processes). Every case of a benchmark uses the same.
   * @default 'wall'
   */
  readonly clock?: Clock | undefined;
  /**
   * For a case whose work is a child process: runs it once and returns that process's peak RSS
   * in bytes (the peak of the process measuring it would say nothing about the child).
   * @default - the peak RSS of the process that runs `run`
   */
  readonly peak?: (() => number | Promise<number>) | undefined;
}

/**
 * `wall`: the wall clock; `cpu`: this process's CPU time; `reported`: each run returns the CPU
 * milliseconds it measured itself (those of the child process it ran).
 */
export type Clock = 'wall' | 'cpu' | 'reported';

/** The collection forced before each timed run (with `--expose-gc`): a full one, or of the young generation only. */
export type GcBeforeRun = 'full' | 'young';

/** Result of one case: median wall time over the repetitions. */
export interface CaseResult {
  readonly name: string;
  readonly medianMs: number;
  readonly minMs: number;
  readonly runs: number;
  /** Every run's time, by alternation round: the n-th of each case ran in the same round. */
  readonly times: readonly number[];
}

/**
 * How a series is judged linear in its input. `ends`: the ratio at the largest size no higher
 * than at the smallest, whatever the part of the cost that does not grow. `marginal-cost`: what a
 * chart adds between the two largest sizes at most the target's ratio times what it adds to the
 * baseline, so that the cost keeps within the target however far the input grows (for a series
 * whose smallest run is no like for like: see the CLI benchmark). Either is judged from every
 * run, against the runs' own spread (`flat.ts`).
 */
export type FlatRule = 'ends' | 'marginal-cost';

/** The series a target belongs to: its name, this target's input size, and how it is judged flat. */
export interface Series {
  readonly name: string;
  readonly size: number;
  /** @default 'ends' */
  readonly flat?: FlatRule | undefined;
}

/** A ratio that must not be exceeded: `case` against `baseline` (case names of the same benchmark). */
export interface RatioTarget {
  readonly case: string;
  readonly baseline: string;
  readonly ratio: number;
  /**
   * Targets of one series (the same work at several input sizes) must also have a cost linear in
   * the input, judged by the series' `flat` rule.
   * @default - not part of a series
   */
  readonly series?: Series | undefined;
}

/** A benchmark: our case against one or more baselines, with a target ratio. */
export interface Benchmark {
  readonly title: string;
  /** What the benchmark measures, for BENCHMARKS.md. */
  readonly description: string;
  readonly subject: Case;
  readonly baselines: readonly Case[];
  /** The ratio subject/baseline that must not be exceeded, against `baselines[targetBaseline]`. */
  readonly target: { readonly ratio: number; readonly baseline: number };
  /**
   * More of our cases, measured in the same alternating runs as the others.
   * @default - none
   */
  readonly subjects?: readonly Case[] | undefined;
  /**
   * More time targets, by case name (the main one is `target`).
   * @default - none
   */
  readonly targets?: readonly RatioTarget[] | undefined;
  /**
   * Peak-RSS targets, by case name.
   * @default - none
   */
  readonly memoryTargets?: readonly RatioTarget[] | undefined;
  /**
   * The cases whose peak RSS is measured (each in a fresh process, which costs a setup each).
   * @default - every case
   */
  readonly peakCases?: readonly string[] | undefined;
  /**
   * `cpu`: time a run by the CPU time of this process (user + system, GC threads included)
   * instead of the wall clock, so that other processes on a busy machine do not count; for cases
   * that do all their work in this process.
   * @default 'wall'
   */
  readonly clock?: Clock | undefined;
  /**
   * How many times the run's repetitions (`BENCH_REPS`) to measure: more for runs of a tenth of a
   * second, whose times spread widely (a collection or an optimization more or less weighs much
   * in so short a run), so that their median is as steady as a longer run's.
   * @default 1
   */
  readonly repeat?: number | undefined;
  /**
   * The garbage collection forced before each timed run, so that no case starts with another's
   * garbage. `full` also discards the optimized code of every function whose objects' classes
   * all died (optimized code holds the maps it was made for weakly), so each run pays to
   * optimize that code again, in proportion to the code the case runs rather than to its work;
   * `young` empties the young generation only, and the optimized code stays.
   * @default 'full'
   */
  readonly gcBeforeRun?: GcBeforeRun | undefined;
  /** Prepares inputs (generated files, warm caches) before any timing. */
  readonly setup?: (() => Promise<void> | void) | undefined;
}

/** Times the cases with `clock`: the benchmark's, else the one clock its cases name. */
export async function measure(cases: readonly Case[], repetitions: number, warmup = 1, benchmarkClock?: Clock, gcBeforeRun: GcBeforeRun = 'full'): Promise<CaseResult[]> {
  const clock = benchmarkClock ?? cases[0]?.clock ?? 'wall';
  if (cases.some((c) => c.clock !== undefined && c.clock !== clock)) throw new Error(`the cases ${cases.map((c) => `${c.name} (${c.clock ?? clock})`).join(', ')} must use one clock`);
  const now = clock === 'cpu' ? cpuMs : () => performance.now();
  const times = cases.map(() => [] as number[]);
  for (let i = 0; i < warmup; i++) for (const c of cases) await c.run();
  for (let r = 0; r < repetitions; r++) {
    for (let i = 0; i < cases.length; i++) {
      // Alternate the order so that neither side always runs on a warmer or colder heap.
      const idx = r % 2 === 0 ? i : cases.length - 1 - i;
      if (gcBeforeRun === 'young') global.gc?.({ type: 'minor' });
      else global.gc?.();
      const t0 = now();
      const result = await cases[idx].run();
      if (clock !== 'reported') times[idx].push(now() - t0);
      else if (typeof result === 'number' && Number.isFinite(result)) times[idx].push(result);
      else throw new Error(`${cases[idx].name}: a case timed by the \`reported\` clock must return its time in ms; it returned ${String(result)}`);
    }
  }
  return cases.map((c, i) => ({ name: c.name, medianMs: median(times[i]), minMs: Math.min(...times[i]), runs: times[i].length, times: times[i] }));
}

/** The median; of an even count, the upper middle. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** CPU time of this process so far, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The benchmarks of one compiled `*.bench.js` file of this directory. */
export async function loadBenchmarks(file: string): Promise<Benchmark[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(__dirname, file)) as { benchmarks: () => Promise<Benchmark[]> | Benchmark[] };
  return mod.benchmarks();
}
