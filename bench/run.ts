/**
 * `npm run bench`: runs every registered benchmark file (compiled), prints the figures and
 * rewrites BENCHMARKS.md; exits 1 when a target is missed. `npm run bench -- cli` runs only the
 * files whose name contains `cli`; a run filtered so, or shortened by `BENCH_REPS` or
 * `BENCH_CLI_SIZES`, leaves BENCHMARKS.md alone.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Case, loadBenchmarks, measure, RatioTarget } from './harness';

/**
 * The benchmark files, in the order of BENCHMARKS.md: each exports `benchmarks(): Benchmark[]`
 * (see harness.ts). One line registers a file.
 */
const BENCH_FILES = ['cli.bench', 'synth.bench', 'flux.bench', 'pulumi.bench', 'yaml-shapes.bench', 'site-render.bench'];

const ROOT = path.resolve(__dirname, '..', '..');
const REPS = Number(process.env.BENCH_REPS ?? 7);

/** One checked target, for the summary. */
interface Checked {
  readonly target: RatioTarget;
  readonly measured: number;
  readonly ok: boolean;
}

/** One benchmark's report section and checked targets, as a child process hands them over. */
interface Outcome {
  readonly section: string;
  readonly checked: Checked[];
}

async function main() {
  if (process.argv[2] === '--one') {
    // A child: one benchmark, its outcome as JSON on stdout.
    process.stdout.write(JSON.stringify(await runOne(process.argv[3], Number(process.argv[4]))));
    return;
  }
  const filter = process.argv[2];
  const files = BENCH_FILES.filter((f) => !filter || f.includes(filter));
  if (files.length === 0) throw new Error(`no benchmark file matches ${JSON.stringify(filter)}; the files are ${BENCH_FILES.join(', ')}`);
  const sections: string[] = [];
  const checked: Checked[] = [];
  for (const file of files) {
    const count = (await loadBenchmarks(file)).length;
    for (let i = 0; i < count; i++) {
      const outcome = isolated(file, i);
      console.log(outcome.section);
      sections.push(outcome.section);
      checked.push(...outcome.checked);
    }
  }
  const missed = checked.filter((c) => !c.ok).length;
  const shortened = filter !== undefined || process.env.BENCH_REPS !== undefined || process.env.BENCH_CLI_SIZES !== undefined;
  if (!shortened) writeReport(sections);
  if (missed > 0) {
    console.error(`${missed} target${missed === 1 ? '' : 's'} missed`);
    process.exitCode = 1;
  }
}

/**
 * Each benchmark runs in a fresh process of its own: what V8 compiled, optimized and sized its
 * heap for in an earlier benchmark (another input size, another command) changes the figures of
 * the next by a quarter or more, so that a figure would depend on which benchmarks ran before it.
 */
function isolated(file: string, index: number): Outcome {
  const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--one', file, String(index)], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  const outcome = JSON.parse(out) as Outcome;
  // JSON has no NaN (a case without a figure): it comes back as null.
  return { ...outcome, checked: outcome.checked.map((c) => ({ ...c, measured: c.measured ?? NaN })) };
}

async function runOne(file: string, index: number): Promise<Outcome> {
  const b = (await loadBenchmarks(file))[index];
  await b.setup?.();
  const cases: Case[] = [b.subject, ...(b.subjects ?? []), ...b.baselines];
  const results = await measure(cases, REPS * (b.repeat ?? 1), 1, b.clock);
  const ms = new Map(results.map((r) => [r.name, r.medianMs]));
  const peaks = cases.map((c) => (!b.peakCases || b.peakCases.includes(c.name) ? peakMemory(file, b.title, c.name) : undefined));
  const mb = new Map(cases.map((c, i) => [c.name, peaks[i]]));
  const main: RatioTarget = { case: b.subject.name, baseline: b.baselines[b.target.baseline].name, ratio: b.target.ratio };
  const checked: Checked[] = [];
  const lines: string[] = [];
  const check = (t: RatioTarget, figures: Map<string, number | undefined>, what: string) => {
    const a = figures.get(t.case);
    const base = figures.get(t.baseline);
    const measured = a !== undefined && base !== undefined ? a / base : NaN;
    const ok = measured <= t.ratio;
    checked.push({ target: t, measured, ok });
    lines.push(`- ${what} of ${t.case}: at most ${t.ratio}x ${t.baseline}. Measured: **${measured.toFixed(2)}x** (${ok ? 'met' : 'NOT met'}).`);
  };
  const own = b.targets?.some((t) => t.case === main.case && t.baseline === main.baseline);
  for (const t of own ? b.targets! : [main, ...(b.targets ?? [])]) check(t, ms, 'time');
  for (const t of b.memoryTargets ?? []) check(t, mb, 'peak RSS');
  const target = ms.get(main.baseline)!;
  const rows = results.map((r, i) => `| ${r.name} | ${r.medianMs.toFixed(1)} | ${r.minMs.toFixed(1)} | ${peaks[i] ?? 'n/a'} | ${(r.medianMs / target).toFixed(2)} |`);
  const clock = b.clock ?? b.subject.clock;
  const section = [
    `### ${b.title}`,
    '',
    b.description,
    '',
    `| case | median ${clock === 'cpu' || clock === 'reported' ? 'CPU ' : ''}ms${b.repeat !== undefined && b.repeat !== 1 ? ` (${REPS * b.repeat} runs)` : ''} | min ms | peak RSS MB | ratio to ${main.baseline} |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    lines.length === 1 ? `Target: ${lines[0].slice(2)}` : 'Targets:\n\n' + lines.join('\n'),
    '',
  ].join('\n');
  return { section, checked };
}

/** Peak RSS of one case in a fresh process (`--expose-gc`, one warm-up, one measured run), in MB. */
function peakMemory(file: string, title: string, caseName: string): number | undefined {
  try {
    const out = execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, 'peak.js'), file, title, caseName], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return Math.round(Number(out.trim()) / 1024 / 1024);
  } catch {
    return undefined;
  }
}

function writeReport(sections: string[]) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const header = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (each benchmark in a fresh process of its own; median of ' + REPS + ' alternating runs after a warm-up, or of the number a table names; peak RSS from a separate process per case). CONTRIBUTING.md describes the method.',
    `Last run: ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} x ${cpu}, ${os.platform()}.`,
    'Ratios compare against a baseline measured in the same run, so they hold across machines better than the absolute times.',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), header + '\n' + sections.join('\n'));
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
