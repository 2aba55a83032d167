/**
 * The CLI's own work on generated sites of 250, 2,000 and 8,000 charts (`convert` to every
 * target, `validate`, `plan`, each a whole in-process command run) next to the floor: a raw
 * js-yaml load + dump of the same file; the older in-process convert benchmark next to js-yaml +
 * ajv; and the start-up of short commands next to `node -e 0`.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as os from 'os';
import * as path from 'path';
import AjvDraft04 from 'ajv-draft-04';
import { TARGETS } from '../src/cli/commands/convert';
import { CliIo } from '../src/cli/io';
import { main } from '../src/cli/main';
import { resolveInputs } from '../src/importer/resolve';
import { toArmadaDocuments } from '../src/model/wire/documents';
import { toYamlStream } from '../src/model/wire/yaml';
import { SchemaVersion } from '../src/model/spec';
import { Benchmark, Case, RatioTarget } from './harness';
import { loadAndDump } from './raw-load-dump';
import { generatedSite } from './synth.bench';

const ROOT = path.resolve(__dirname, '..', '..');
const SIZES = (process.env.BENCH_CLI_SIZES ?? '250,2000,8000').split(',').map(Number);
const LARGEST = Math.max(...SIZES);
const SMALL_FILE = path.resolve(ROOT, '..', 'shared', 'corpus', 'armada__examples__simple.yaml');
const RAW = 'js-yaml load+dump';
const CLI = path.join(ROOT, 'bin', 'armada-cdk.js');
/** Output of a child through a pipe to `cat`, as into `kubectl apply -f -`; its exit code is the child's. */
const INTO_PIPE = 'set -o pipefail; "$0" "$@" 2>/dev/null | cat >/dev/null';

/** Output goes nowhere (only counted), as when the CLI writes to a pipe that is read as fast as it is written. */
function sinkIo(): CliIo & { bytes: number } {
  const io = {
    bytes: 0,
    stdout: { write: (s: string) => ((io.bytes += s.length), true) },
    stderr: { write: (s: string) => ((io.bytes += s.length), true) },
    stdin: process.stdin,
    cwd: process.cwd(),
  };
  return io;
}

/** One whole CLI command, in process. Exit 1 (invalid input, diagnostics printed) is a result like 0. */
function command(name: string, argv: () => string[]): Case {
  return {
    name,
    run: async () => {
      const code = await main(argv(), sinkIo());
      if (code !== 0 && code !== 1) throw new Error(`${name}: exit ${code}`);
      return code;
    },
  };
}

/** Every measured command on the site `file()`: its name in the tables and its arguments. */
function commandLines(file: () => string): [string, () => string[]][] {
  return [
    ...TARGETS.map((t): [string, () => string[]] => [`convert --to ${t}`, () => ['convert', file(), '--to', t]]),
    ['validate', () => ['validate', file()]],
    ['plan', () => ['plan', file()]],
  ];
}

function sizeBenchmark(charts: number): Benchmark {
  let file = '';
  const subjects = commandLines(() => file).map(([name, argv]) => command(name, argv));
  const converts = subjects.filter((s) => s.name.startsWith('convert'));
  const raw: Case = { name: RAW, run: () => loadAndDump(file) };
  const targets: RatioTarget[] = subjects.map((s) => ({ case: s.name, baseline: RAW, ratio: 1.5, series: { name: s.name, size: charts, flat: 'marginal-cost' } }));
  const largest = charts === LARGEST;
  return {
    title: `armada-cdk CLI on a ${charts}-chart manifest`,
    description: [
      `Input: \`gen-manifest.mjs ${charts}\` (${charts} charts in groups of 10, ~2 kB of values each, git/tar/local sources, subchart dependencies on a quarter of them), ${(fs.statSync(generatedSite(charts).file).size / 1e6).toFixed(1)} MB.`,
      'Each armada-cdk case is the whole command run in process (`main([...])`: read, PyYAML-semantics parse, Armada schemas, references, every rule, the conversion, the report printed as a user sees it (like warnings grouped, each printed line located at its file:line:column), the output written to a sink).',
      'The airship-v1, flux-v2 and keleustes-v1alpha1 conversions find thousands of warnings on this site (git and local sources, subchart dependencies, label-selected waits, 32 values per chart the keleustes CRD drops), and keleustes-v1alpha1 ends with an error (the groups are in five namespaces), after reporting all of them.',
      `${RAW}: \`js-yaml\` \`loadAll\` of the file and \`dump\` of every document, the floor for reading and writing the same YAML.`,
      'Timed by CPU time of the process (the work is all in process), so that other load on the machine does not count.',
      'Before each run the young generation is collected, not the whole heap: a full collection discards the optimized code of every function whose objects all died (V8 holds the maps that code was made for weakly), so each run would also optimize some 100 functions again, about half of its CPU time at 2,000 charts, in proportion to the code rather than to the work. That compile time counts in the fresh-process series below, as a user meets it.',
    ].join('\n'),
    clock: 'cpu',
    gcBeforeRun: 'young',
    // A 250-chart run takes about 0.1 s: three times the runs. The larger ones twice: a single
    // collection more or less moves a run by a fifth, and the flatness verdict is only as
    // narrow as their spread.
    repeat: charts <= 500 ? 3 : 2,
    setup: () => {
      ({ file } = generatedSite(charts));
    },
    subject: subjects[0],
    subjects: subjects.slice(1),
    baselines: [raw],
    target: { ratio: 1.5, baseline: 0 },
    targets,
    ...(largest ? { memoryTargets: converts.map((c) => ({ case: c.name, baseline: RAW, ratio: 1.5 })), peakCases: [...converts.map((c) => c.name), RAW] } : { peakCases: [] }),
  };
}

/**
 * The CPU time (user + system, all threads) of one child process, as bash's `times` reports its
 * children's: the whole run as a user meets it, start-up and the compiler and GC threads included.
 * Output goes to /dev/null, or with `pipe` through a pipe to `cat` (whose few milliseconds count
 * alike for every case); exit 1 (diagnostics printed) is a result like 0.
 */
function childCpuMs(args: string[], env: NodeJS.ProcessEnv = process.env, pipe = false): number {
  const run = pipe ? INTO_PIPE : '"$0" "$@" >/dev/null 2>&1';
  const out = execFileSync('bash', ['-c', `${run}; code=$?; times; [ $code -le 1 ] || exit $code`, process.execPath, ...args], { encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n');
  // Line 1: the shell's own times; line 2: its children's, as `0m1.234s 0m0.210s`.
  const m = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(out[out.length - 1] ?? '');
  if (!m) throw new Error(`could not read the child's CPU time from ${JSON.stringify(out)}`);
  return (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
}

/** The peak RSS in bytes of one child process whose output goes through a pipe to `cat`. */
function childPeakBytes(args: string[], env: NodeJS.ProcessEnv): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-bench-peak-'));
  try {
    const file = path.join(dir, 'peak');
    execFileSync('bash', ['-c', `${INTO_PIPE} || [ $? -le 1 ]`, process.execPath, '-r', path.join(__dirname, 'child-peak.js'), ...args], {
      env: { ...env, ARMADA_CDK_BENCH_PEAK_FILE: file },
      stdio: 'ignore',
    });
    return Number(fs.readFileSync(file, 'utf8'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * convert as the README shows it, `armada-cdk convert site.yaml --to airship-v1 | kubectl apply
 * -f -`: into a pipe, whose reader takes the output at its own pace. Unlike a file or /dev/null,
 * a pipe takes a write only when there is room, so a writer that does not wait holds its output.
 */
function pipeBenchmark(charts: number): Benchmark {
  let file = '';
  const converts = (['airship-v1', 'flux-v2', 'documents-v1'] as const).map((t): Case => {
    const argv = () => [CLI, 'convert', file, '--to', t];
    return { name: `convert --to ${t}, into a pipe`, run: () => childCpuMs(argv(), cliEnv(), true), peak: () => childPeakBytes(argv(), cliEnv()) };
  });
  const rawArgs = () => [path.join(__dirname, 'raw-load-dump.js'), file];
  const raw: Case = { name: `${RAW}, into a pipe`, run: () => childCpuMs(rawArgs(), process.env, true), peak: () => childPeakBytes(rawArgs(), process.env) };
  return {
    title: `armada-cdk convert of a ${charts}-chart manifest into a pipe, a fresh process per run`,
    description: [
      `Input: \`gen-manifest.mjs ${charts}\`, as above. Each run is \`node bin/armada-cdk.js convert FILE --to TARGET | cat >/dev/null\`, the form of \`convert ... | kubectl apply -f -\`; the baseline is the js-yaml script of the fresh-process benchmark, into the same pipe.`,
      'Timed by the CPU time of the pipeline (bash\'s `times`: the process and `cat`). Peak RSS is the process\'s own (VmHWM, written at exit by a preloaded `bench/child-peak.ts`).',
    ].join('\n'),
    clock: 'reported',
    setup: () => {
      freshCodeCache();
      ({ file } = generatedSite(charts));
    },
    subject: converts[0],
    subjects: converts.slice(1),
    baselines: [raw],
    target: { ratio: 1.5, baseline: 0 },
    targets: converts.map((c) => ({ case: c.name, baseline: raw.name, ratio: 1.5 })),
    memoryTargets: converts.map((c) => ({ case: c.name, baseline: raw.name, ratio: 1.5 })),
  };
}

/** The same work as {@link sizeBenchmark}, each run a fresh `armada-cdk` process, as a user runs it. */
function freshProcessBenchmark(charts: number): Benchmark {
  let file = '';
  const run = (args: string[]) => childCpuMs([CLI, ...args], cliEnv());
  const subjects: Case[] = commandLines(() => file).map(([name, argv]) => ({ name, run: () => run(argv()) }));
  const raw: Case = { name: RAW, run: () => childCpuMs([path.join(__dirname, 'raw-load-dump.js'), file]) };
  return {
    title: `armada-cdk CLI on a ${charts}-chart manifest, a fresh process per run`,
    description: [
      `Input: \`gen-manifest.mjs ${charts}\`, as above. Each run is a new process, as a user runs the command: \`node bin/armada-cdk.js convert FILE --to TARGET\` (the bundled CLI in a fresh code-cache directory: a run of this size raises V8's tier-up threshold, so it writes no code cache and each run compiles the bundle, as a user's first run does), its output to /dev/null.`,
      `${RAW}: a new \`node\` process running a script that \`loadAll\`s the file with js-yaml and writes the \`dump\` of every document.`,
      'Timed by the CPU time of the child process (user + system, all its threads: start-up, V8\'s compiler and GC threads included), as bash\'s `times` reports it.',
    ].join('\n'),
    clock: 'reported',
    // Runs of a few tenths of a second spread widely on a shared machine: three times the runs.
    // Larger ones too, by a tenth or more either way from process to process (two runs of the
    // same command were 1.6 and 2.4 s): twice the runs, so that a median moves by less.
    repeat: charts <= 500 ? 3 : 2,
    setup: () => {
      freshCodeCache();
      ({ file } = generatedSite(charts));
    },
    subject: subjects[0],
    subjects: subjects.slice(1),
    baselines: [raw],
    target: { ratio: 1.5, baseline: 0 },
    targets: subjects.map((c) => ({ case: c.name, baseline: RAW, ratio: 1.5, series: { name: `${c.name} (fresh process)`, size: charts } })),
    peakCases: [],
  };
}

export function benchmarks(): Benchmark[] {
  let file = '';
  let validators: Map<string, (d: unknown) => boolean>;
  return [
    ...SIZES.map(sizeBenchmark),
    ...SIZES.map(freshProcessBenchmark),
    pipeBenchmark(LARGEST),
    {
      title: 'armada-cdk convert of a 2000-chart manifest (parse + validate + convert to documents v1)',
      description: [
        'armada-cdk: `resolveInputs` (read, PyYAML-semantics parse, Armada JSON schemas, references, every semantic rule) then the documents-v1 writer and the YAML writer, in process.',
        'baseline: `js-yaml` `loadAll` + `dump` of every document, and ajv (draft-04) validation of every document against the same Armada schemas, compiled beforehand.',
      ].join('\n'),
      setup: () => {
        ({ file } = generatedSite());
        const ajv = new AjvDraft04({ allErrors: true, strict: false });
        validators = new Map();
        for (const f of fs.readdirSync(path.join(ROOT, 'schemas', 'armada')).filter((n) => n.endsWith('.yaml'))) {
          const doc = yaml.loadAll(fs.readFileSync(path.join(ROOT, 'schemas', 'armada', f), 'utf8')).find((d: any) => d && d.metadata) as any;
          const { $schema: _ignored, ...schema } = doc.data;
          validators.set(doc.metadata.name, ajv.compile(schema));
        }
      },
      subject: {
        name: 'armada-cdk',
        run: async () => {
          const r = await resolveInputs([file], { skipChartSchemas: true });
          if (!r.spec || r.diagnostics.some((d) => d.severity === 'error')) throw new Error('the generated site did not validate');
          return toYamlStream(toArmadaDocuments(r.spec, { version: SchemaVersion.V1 }).documents);
        },
      },
      baselines: [
        {
          name: 'js-yaml load+dump + ajv',
          run: () => {
            const docs = yaml.loadAll(fs.readFileSync(file, 'utf8')) as any[];
            for (const d of docs) if (!validators.get(d.schema)!(d.data)) throw new Error('invalid');
            return docs.map((d) => yaml.dump(d)).join('---\n');
          },
        },
      ],
      target: { ratio: 3, baseline: 0 },
      peakCases: [],
    },
    {
      title: 'CLI start-up (`armada-cdk --version`)',
      description: 'A fresh `node bin/armada-cdk.js --version` process (the bundled CLI, `lib/armada-cdk-cli.js`, made by `npm run bench` after tsc, compiled from the V8 code cache the warm-up run wrote into a fresh directory; commands run on demand), next to `node -e 0`, 5 processes per run.',
      setup: freshCodeCache,
      subject: { name: 'armada-cdk --version', run: () => spawnTimes(5, [CLI, '--version']) },
      baselines: [{ name: 'node -e 0', run: () => spawnTimes(5, ['-e', '0']) }],
      target: { ratio: 4, baseline: 0 },
    },
    {
      title: '`armada-cdk validate` of a small corpus file',
      description: `A fresh \`node bin/armada-cdk.js validate ${path.basename(SMALL_FILE)}\` process (2 charts, 1 group, 1 manifest: loading the bundled CLI, compiled from the V8 code cache the warm-up run wrote into a fresh directory, and the modules the run needs, the precompiled Armada schema validators, the work), next to \`node -e 0\`, 5 processes per run.`,
      setup: () => {
        freshCodeCache();
        if (!fs.existsSync(SMALL_FILE)) throw new Error(`the benchmark needs the shared corpus beside the checkout (${path.relative(process.cwd(), SMALL_FILE)})`);
      },
      subject: { name: 'armada-cdk validate', run: () => spawnTimes(5, [CLI, 'validate', SMALL_FILE]) },
      baselines: [{ name: 'node -e 0', run: () => spawnTimes(5, ['-e', '0']) }],
      target: { ratio: 1.5, baseline: 0 },
    },
  ];
}

let codeCache: string | undefined;

/** An empty code-cache directory of the benchmark's own, so that the warm-up run is the one that writes it. */
function freshCodeCache(): void {
  if (codeCache) fs.rmSync(codeCache, { recursive: true, force: true });
  else process.on('exit', () => codeCache && fs.rmSync(codeCache, { recursive: true, force: true }));
  codeCache = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-bench-code-cache-'));
}

/** The environment of a CLI run: the benchmark's own code cache, once there is one. */
function cliEnv(): NodeJS.ProcessEnv {
  return codeCache ? { ...process.env, ARMADA_CDK_COMPILE_CACHE: codeCache } : process.env;
}

function spawnTimes(n: number, args: string[]): void {
  const env = cliEnv();
  for (let i = 0; i < n; i++) execFileSync(process.execPath, args, { stdio: 'ignore', env });
}
