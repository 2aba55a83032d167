/**
 * `npm run bench`: runs every benchmark in bench/*.bench.js (compiled), prints the figures and
 * rewrites BENCHMARKS.md. `npm run bench -- synth` runs only the benchmarks whose file matches.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Benchmark, measure } from './harness';

const ROOT = path.resolve(__dirname, '..', '..');
const REPS = Number(process.env.BENCH_REPS ?? 7);

async function main() {
  const filter = process.argv[2];
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.bench.js') && (!filter || f.includes(filter))).sort();
  const sections: string[] = [];
  let failed = false;
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(__dirname, file)) as { benchmarks: () => Promise<Benchmark[]> | Benchmark[] };
    for (const b of await mod.benchmarks()) {
      await b.setup?.();
      const results = await measure([b.subject, ...b.baselines], REPS);
      const peaks = [b.subject, ...b.baselines].map((c) => peakMemory(file, b.title, c.name));
      const subject = results[0];
      const target = results[1 + b.target.baseline];
      const ratio = subject.medianMs / target.medianMs;
      const ok = ratio <= b.target.ratio;
      failed ||= !ok;
      const rows = results.map((r, i) => `| ${r.name} | ${r.medianMs.toFixed(1)} | ${r.minMs.toFixed(1)} | ${peaks[i] ?? 'n/a'} | ${(r.medianMs / target.medianMs).toFixed(2)} |`);
      const section = [
        `### ${b.title}`,
        '',
        b.description,
        '',
        '| case | median ms | min ms | peak RSS MB | ratio to target baseline |',
        '| --- | ---: | ---: | ---: | ---: |',
        ...rows,
        '',
        `Target: at most ${b.target.ratio}x ${target.name}. Measured: **${ratio.toFixed(2)}x** (${ok ? 'met' : 'NOT met'}).`,
        '',
      ].join('\n');
      console.log(section);
      sections.push(section);
    }
  }
  if (!filter) writeReport(sections);
  if (failed) process.exitCode = 1;
}

/** Peak RSS of one case in a fresh process (`--expose-gc`, one warm-up, one measured run). */
function peakMemory(file: string, title: string, caseName: string): string | undefined {
  try {
    const out = execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, 'peak.js'), file, title, caseName], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return String(Math.round(Number(out.trim()) / 1024 / 1024));
  } catch {
    return undefined;
  }
}

function writeReport(sections: string[]) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const header = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (median of ' + REPS + ' alternating runs after a warm-up; peak RSS from a separate process per case).',
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
