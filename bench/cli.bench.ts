/**
 * The CLI as a user runs it, each run a fresh process: `convert` to every target, `validate` and
 * `plan` of generated sites of 250, 2,000 and 8,000 charts next to the floor, a raw js-yaml load
 * and dump of the same file, in time and (at the largest size) peak memory; and the start-up of a
 * small `validate` next to `node -e 0`.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TARGETS } from '../src/cli/commands/convert';
import { Benchmark, Case } from './harness';
import { generatedSite } from './synth.bench';

const ROOT = path.resolve(__dirname, '..', '..');
const SIZES = (process.env.BENCH_CLI_SIZES ?? '250,2000,8000').split(',').map(Number);
const LARGEST = Math.max(...SIZES);
const SMALL_FILE = path.resolve(ROOT, '..', 'shared', 'corpus', 'armada__examples__simple.yaml');
const RAW = 'js-yaml load+dump';
const CLI = path.join(ROOT, 'bin', 'armada-cdk.js');
/** Output of a child through a pipe to `cat`, as into `kubectl apply -f -`; its exit code is the child's. */
const INTO_PIPE = 'set -o pipefail; "$0" "$@" 2>/dev/null | cat >/dev/null';

/** Every measured command on the site `file()`: its name in the tables and its arguments. */
function commandLines(file: () => string): [string, () => string[]][] {
  return [
    ...TARGETS.map((t): [string, () => string[]] => [`convert --to ${t}`, () => ['convert', file(), '--to', t]]),
    ['validate', () => ['validate', file()]],
    ['plan', () => ['plan', file()]],
  ];
}

/**
 * The CPU time (user + system, all threads) of one child process, as bash's `times` reports its
 * children's: the whole run as a user meets it, start-up and the compiler and GC threads included.
 * Output goes to /dev/null; exit 1 (diagnostics printed) is a result like 0.
 */
function childCpuMs(args: string[]): number {
  const out = execFileSync('bash', ['-c', '"$0" "$@" >/dev/null 2>&1; code=$?; times; [ $code -le 1 ] || exit $code', process.execPath, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .trim()
    .split('\n');
  // Line 1: the shell's own times; line 2: its children's, as `0m1.234s 0m0.210s`.
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(out[out.length - 1] ?? '');
  if (!m) throw new Error(`could not read the child's CPU time from ${JSON.stringify(out)}`);
  return (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
}

/**
 * The peak RSS in bytes of one child process whose output goes through a pipe to `cat`: a pipe
 * takes a write only when its reader has room, so a writer that does not wait would hold its
 * output in memory, which a file or /dev/null never shows.
 */
function childPeakBytes(args: string[]): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-bench-peak-'));
  try {
    const file = path.join(dir, 'peak');
    execFileSync('bash', ['-c', `${INTO_PIPE} || [ $? -le 1 ]`, process.execPath, '-r', path.join(__dirname, 'child-peak.js'), ...args], {
      env: { ...process.env, ARMADA_CDK_BENCH_PEAK_FILE: file },
      stdio: 'ignore',
    });
    return Number(fs.readFileSync(file, 'utf8'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every command on a generated site of `charts` charts, each run a fresh `armada-cdk` process. */
function sizeBenchmark(charts: number): Benchmark {
  let file = '';
  const subjects: Case[] = commandLines(() => file).map(([name, argv]) => ({ name, run: () => childCpuMs([CLI, ...argv()]), peak: () => childPeakBytes([CLI, ...argv()]) }));
  const rawArgs = () => [path.join(__dirname, 'raw-load-dump.js'), file];
  const raw: Case = { name: RAW, run: () => childCpuMs(rawArgs()), peak: () => childPeakBytes(rawArgs()) };
  const largest = charts === LARGEST;
  return {
    title: `armada-cdk CLI on a ${charts}-chart manifest, a fresh process per run`,
    description: [
      `Input: \`gen-manifest.mjs ${charts}\` (${charts} charts in groups of 10, ~2 kB of values each, git/tar/local sources, subchart dependencies on a quarter of them), ${(fs.statSync(generatedSite(charts).file).size / 1e6).toFixed(1)} MB.`,
      'Each run is a new process, as a user runs the command: `node bin/armada-cdk.js convert FILE --to TARGET` (the bundled CLI, with the compile cache its warm-up run left in a directory of the benchmark\'s own), its output to /dev/null. It reads, parses with PyYAML\'s semantics, checks the Armada schemas, references and every rule, converts, and prints the report as a user sees it.',
      'The airship-v1, flux-v2 and keleustes-v1alpha1 conversions find thousands of warnings on this site (git and local sources, subchart dependencies, label-selected waits, 32 values per chart the keleustes CRD drops), and keleustes-v1alpha1 ends with an error (the groups are in five namespaces), after reporting all of them.',
      `${RAW}: a new \`node\` process running a script that \`loadAll\`s the file with js-yaml and writes the \`dump\` of every document: the floor for reading and writing the same YAML.`,
      'Timed by the CPU time of the child process (user + system, all its threads: start-up, V8\'s compiler and GC threads included), as bash\'s `times` reports it, so that other load on the machine counts less.',
      ...(largest ? ["Peak RSS is the process's own (VmHWM, written at exit by a preloaded `bench/child-peak.ts`), its output through a pipe to `cat`, as into `kubectl apply -f -`."] : []),
    ].join('\n'),
    clock: 'reported',
    // Runs of a few tenths of a second spread widely on a shared machine: three times the runs;
    // larger ones twice, so that a median moves by less.
    repeat: charts <= 500 ? 3 : 2,
    setup: () => {
      freshCompileCache();
      ({ file } = generatedSite(charts));
    },
    subject: subjects[0],
    subjects: subjects.slice(1),
    baselines: [raw],
    target: { ratio: 1.5, baseline: 0 },
    targets: subjects.map((c) => ({ case: c.name, baseline: RAW, ratio: 1.5 })),
    ...(largest ? { memoryTargets: subjects.map((c) => ({ case: c.name, baseline: RAW, ratio: 1.5 })) } : { peakCases: [] }),
  };
}

export function benchmarks(): Benchmark[] {
  return [
    ...SIZES.map(sizeBenchmark),
    {
      title: '`armada-cdk validate` of a small corpus file',
      description: `A fresh \`node bin/armada-cdk.js validate ${path.basename(SMALL_FILE)}\` process (2 charts, 1 group, 1 manifest: loading the bundled CLI, with the compile cache its warm-up run left, and the modules the run needs, the precompiled Armada schema validators, the work), next to \`node -e 0\`, 5 processes per run, by the wall clock.`,
      setup: () => {
        freshCompileCache();
        if (!fs.existsSync(SMALL_FILE)) throw new Error(`the benchmark needs the shared corpus beside the checkout (${path.relative(process.cwd(), SMALL_FILE)})`);
      },
      subject: { name: 'armada-cdk validate', run: () => spawnTimes(5, [CLI, 'validate', SMALL_FILE]) },
      baselines: [{ name: 'node -e 0', run: () => spawnTimes(5, ['-e', '0']) }],
      target: { ratio: 1.5, baseline: 0 },
    },
  ];
}

/**
 * Node's compile cache (22.1 and later) in an empty directory of the benchmark's own, which every
 * child process of this one uses: the warm-up run writes it, as a user's first run does, and the
 * timed runs read it, as the user's later runs do.
 */
function freshCompileCache(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-bench-compile-cache-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  process.env.NODE_COMPILE_CACHE = dir;
}

/** `n` processes of `node ...args`, one after another (the wall clock times them). */
function spawnTimes(n: number, args: string[]): void {
  for (let i = 0; i < n; i++) execFileSync(process.execPath, args, { stdio: 'ignore' });
}
