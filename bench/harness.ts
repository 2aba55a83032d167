/**
 * Benchmark harness: each benchmark measures our code and a baseline doing the same work,
 * alternating runs so that machine noise hits both alike, and reports the ratio. Peak memory is
 * measured in a fresh child process per case (heap growth would otherwise leak from one case into
 * the next).
 */
import * as path from 'path';
import { performance } from 'perf_hooks';

/** One measured case. */
export interface Case {
  readonly name: string;
  /** Runs the work once; may return something to keep alive until the timing ends. */
  readonly run: () => unknown | Promise<unknown>;
  /**
   * What is timed (see {@link Clock}). Every case of a benchmark uses the same.
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
 * `wall`: the wall clock; `cpu`: this process's CPU time (user + system, all its threads), which
 * other processes competing for the CPUs do not inflate, for work done in this process only;
 * `reported`: each run returns the CPU milliseconds it measured itself (those of the child process
 * it ran).
 */
export type Clock = 'wall' | 'cpu' | 'reported';

/** Result of one case. */
export interface CaseResult {
  readonly name: string;
  readonly medianMs: number;
  readonly minMs: number;
  readonly runs: number;
}

/** A ratio that must not be exceeded: `case` against `baseline` (case names of the same benchmark). */
export interface RatioTarget {
  readonly case: string;
  readonly baseline: string;
  readonly ratio: number;
}

/** A benchmark: our case against one or more baselines, with a target ratio. */
export interface Benchmark {
  readonly title: string;
  /** What the benchmark measures, for BENCHMARKS.md. */
  readonly description: string;
  readonly subject: Case;
  readonly baselines: readonly Case[];
  /** The ratio subject/baseline that must not be exceeded, against `baselines[baseline]`. */
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
   * What is timed, for every case (see {@link Clock}).
   * @default - the clock the cases name, else 'wall'
   */
  readonly clock?: Clock | undefined;
  /**
   * How many times the run's repetitions (`BENCH_REPS`) to measure: more for short runs, whose
   * times spread widely, so that their median is as steady as a longer run's.
   * @default 1
   */
  readonly repeat?: number | undefined;
  /** Prepares inputs (generated files, warm caches) before any timing. */
  readonly setup?: (() => Promise<void> | void) | undefined;
}

/**
 * Times the cases with `clock` (the benchmark's, else the one clock its cases name): `warmup`
 * rounds untimed, then `repetitions` rounds, each running every case once, in alternating order.
 */
export async function measure(cases: readonly Case[], repetitions: number, warmup = 1, benchmarkClock?: Clock): Promise<CaseResult[]> {
  const clock = benchmarkClock ?? cases[0]?.clock ?? 'wall';
  if (cases.some((c) => c.clock !== undefined && c.clock !== clock)) throw new Error(`the cases ${cases.map((c) => `${c.name} (${c.clock ?? clock})`).join(', ')} must use one clock`);
  const now = clock === 'cpu' ? cpuMs : () => performance.now();
  const times = cases.map(() => [] as number[]);
  for (let i = 0; i < warmup; i++) for (const c of cases) await c.run();
  for (let r = 0; r < repetitions; r++) {
    for (let i = 0; i < cases.length; i++) {
      // Alternate the order so that neither side always runs on a warmer or colder heap.
      const idx = r % 2 === 0 ? i : cases.length - 1 - i;
      // No case starts with another's garbage (with --expose-gc).
      global.gc?.();
      const t0 = now();
      const result = await cases[idx].run();
      if (clock !== 'reported') times[idx].push(now() - t0);
      else if (typeof result === 'number' && Number.isFinite(result)) times[idx].push(result);
      else throw new Error(`${cases[idx].name}: a case timed by the \`reported\` clock must return its time in ms; it returned ${String(result)}`);
    }
  }
  return cases.map((c, i) => ({ name: c.name, medianMs: median(times[i]), minMs: Math.min(...times[i]), runs: times[i].length }));
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

/** The benchmarks of one compiled bench file of this directory (`name` without its extension), from its `benchmarks()`. */
export async function loadBenchmarks(name: string): Promise<Benchmark[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(__dirname, name)) as { benchmarks: () => Promise<Benchmark[]> | Benchmark[] };
  return mod.benchmarks();
}
