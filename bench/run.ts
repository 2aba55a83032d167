/**
 * `npm run bench`: runs every benchmark in bench/*.bench.js (compiled), prints the figures and
 * rewrites BENCHMARKS.md; exits 1 when a target is missed. `npm run bench -- cli` runs only the
 * benchmarks whose file name contains `cli` (and then leaves BENCHMARKS.md alone).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { judgeFlat } from './flat';
import { Case, loadBenchmarks, measure, RatioTarget } from './harness';

const ROOT = path.resolve(__dirname, '..', '..');
const REPS = Number(process.env.BENCH_REPS ?? 7);

/** One checked target, for the summary and the flatness check. */
interface Checked {
  readonly target: RatioTarget;
  readonly measured: number;
  readonly ok: boolean;
  /** The figures the ratio was made of. */
  readonly figures: { readonly case: number; readonly baseline: number };
  /** A time target's runs, by alternation round, for the flatness verdict. */
  readonly runs?: { readonly case: readonly number[]; readonly baseline: readonly number[] } | undefined;
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
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.bench.js') && (!filter || f.includes(filter))).sort();
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
  const flat = flatness(checked);
  if (flat) {
    console.log(flat.text);
    sections.push(flat.text);
  }
  const missed = checked.filter((c) => !c.ok).length + (flat?.missed ?? 0);
  if (!filter) writeReport(sections);
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
  // JSON has no NaN (a case without a figure): it comes back as null, here and in the figures.
  const nan = (x: number | null) => x ?? NaN;
  return { ...outcome, checked: outcome.checked.map((c) => ({ ...c, measured: nan(c.measured), figures: { case: nan(c.figures.case), baseline: nan(c.figures.baseline) } })) };
}

async function runOne(file: string, index: number): Promise<Outcome> {
  const b = (await loadBenchmarks(file))[index];
  const checked: Checked[] = [];
  await b.setup?.();
  const cases: Case[] = [b.subject, ...(b.subjects ?? []), ...b.baselines];
  const results = await measure(cases, REPS * (b.repeat ?? 1), 1, b.clock, b.gcBeforeRun);
  const ms = new Map(results.map((r) => [r.name, r.medianMs]));
  const times = new Map(results.map((r) => [r.name, r.times]));
  const peaks = cases.map((c) => (!b.peakCases || b.peakCases.includes(c.name) ? peakMemory(file, b.title, c.name) : undefined));
  const mb = new Map(cases.map((c, i) => [c.name, peaks[i]]));
  const main: RatioTarget = { case: b.subject.name, baseline: b.baselines[b.target.baseline].name, ratio: b.target.ratio };
  const lines: string[] = [];
  const check = (t: RatioTarget, figures: Map<string, number | undefined>, what: string) => {
    const a = figures.get(t.case);
    const base = figures.get(t.baseline);
    const measured = a !== undefined && base !== undefined ? a / base : NaN;
    const ok = measured <= t.ratio;
    const runs = what === 'time' && t.series ? { case: times.get(t.case) ?? [], baseline: times.get(t.baseline) ?? [] } : undefined;
    checked.push({ target: t, measured, ok, figures: { case: a ?? NaN, baseline: base ?? NaN }, ...(runs ? { runs } : {}) });
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

/** Each series judged linear in its input by its rule (see `FlatRule`): its ratios by size and what a chart adds between sizes. */
function flatness(checked: readonly Checked[]): { text: string; missed: number } | undefined {
  const series = new Map<string, Checked[]>();
  for (const c of checked) {
    if (!c.target.series) continue;
    const list = series.get(c.target.series.name) ?? [];
    list.push(c);
    series.set(c.target.series.name, list);
  }
  if (series.size === 0) return undefined;
  let missed = 0;
  const rows: string[] = [];
  const signed = (x: number) => {
    const shown = Math.abs(x).toFixed(2);
    return `${shown === '0.00' ? '±' : x > 0 ? '+' : '−'}${shown}`;
  };
  for (const [name, list] of series) {
    const rule = list[0].target.series!.flat ?? 'ends';
    // A run of one size (BENCH_CLI_SIZES=250) has nothing to compare: its ratio is still checked.
    if (list.length < 2) {
      rows.push(`| ${name} | ${list[0].target.series!.size}: ${list[0].measured.toFixed(2)}x | | | | one size only: not judged |`);
      continue;
    }
    const ceiling = list[0].target.ratio;
    const v = judgeFlat(
      list.map((c) => ({ size: c.target.series!.size, case: c.runs?.case ?? [], baseline: c.runs?.baseline ?? [] })),
      rule,
      ceiling,
    );
    if (v.verdict === 'missed') missed++;
    const ratios = v.ratios.map((r) => `${r.size}: ${r.ratio.toFixed(2)}x`).join(', ');
    const added = v.added.map((a) => `${a.from}→${a.to}: ${(a.oursMs * 1000).toFixed(0)} µs (${a.ratio.toFixed(2)}x)`).join(', ');
    const last = v.added[v.added.length - 1];
    const said = rule === 'ends' ? `ratio at ${v.ratios[v.ratios.length - 1].size} no higher than at ${v.ratios[0].size}` : `added cost ${last.from}→${last.to} at most ${ceiling}x`;
    const verdict = v.verdict === 'met' ? 'met' : v.verdict === 'within-noise' ? "met within the runs' spread" : 'NOT met';
    rows.push(`| ${name} | ${ratios} | ${added} | ${said} | ${signed(v.excess)} (${signed(v.interval[0])} to ${signed(v.interval[1])}) | ${verdict} |`);
  }
  const text = [
    '### A cost linear in the input',
    '',
    'The added cost per chart is the difference between two sizes divided by the charts added, against the same for js-yaml load+dump: it leaves out what a run costs whatever its size (in a fresh process, start-up and compiling the code that gets hot; in process, little: the code stays optimized from run to run).',
    '',
    'The fresh-process series, each command as a user runs it, are held to the ratio at the ends: the ratio at the largest input no higher than at the smallest.',
    '',
    "The in-process series are held to the marginal cost: what a chart adds between the two largest inputs (2,000 and 8,000 charts) at most 1.5x what it adds to js-yaml, so that a run keeps within the 1.5x target however large the site. Their ratio at the ends would compare a run that pays no garbage collection with runs that do: a run of 250 charts allocates less than V8's young generation holds (16 MB by default), the generation is emptied before each timed run, so the run ends before any collection and what it keeps (the parsed site, the model) is never copied, a cost per chart that js-yaml, which allocates about half as much again per chart, pays at 250 charts already. Comparing the added cost of the two steps instead (250 to 2,000 charts against 2,000 to 8,000) subtracts times that processes measured minutes apart, which the machine's drift does not cancel: in one run js-yaml's own added cost per chart came out 250 µs in the first step and 110 µs in the second (its 2,000-chart run took 504 ms, 301 ms in the run before).",
    '',
    "In process, our cost does grow faster than js-yaml's from 2,000 to 8,000 charts: measured in one process with both sizes in every round, 4.4x (airship-v1) to 4.6x (validate) for four times the charts, against js-yaml's 3.9x, so the in-process ratio rises with the size (the table has it). The growth is the collector's: keeping the parsed site costs both about alike per chart (parsing alone, our cost per chart rises from 28 to 53 µs between 2,000 and 8,000 charts, js-yaml's load from 71 to 105 µs), a larger share of our smaller total. In a fresh process, as a user runs a command, the ratio falls with the size.",
    '',
    "Each verdict is made from every run, not from the medians alone. Two estimates of one quantity come out in either order by chance: a cost exactly linear in the input would pass a plain `no higher` half the time, and every series at once when the baseline they all share happens to run fast or slow at one size. So the runs of each size are resampled 2,000 times (whole alternation rounds, so that a case and its baseline keep the machine state they ran in) and the rule's figure less what it allows, the excess, is computed for each resample. A series whose excess is zero or less is met; one whose excess stays above zero in 95% of the resamples is NOT met; between them, an excess smaller than the runs' own spread is met within the runs' spread. The excess and its 5th to 95th percentile are in the table.",
    '',
    "| work | ratio by input size (charts) | added cost per chart (ratio to the baseline's) | rule | excess (5th to 95th percentile) | verdict |",
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
  return { text, missed };
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
    'Written by `npm run bench` (each benchmark in a fresh process of its own; median of ' + REPS + ' alternating runs after a warm-up, or of the number a table names; peak RSS from a separate process per case).',
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
