/**
 * The CLI ships as one bundled file (`lib/armada-cdk-cli.js`, made by scripts/bundle-cli.js from
 * the tsc output). Nothing the user sees may differ from the compiled modules it is made from:
 * both are built here into a package of their own, as `npm pack` builds them, and run through
 * `bin/armada-cdk.js` (the bundle, and the fallback to `lib/src` when there is none) on the corpus
 * and on bad inputs; stdout, stderr, exit codes and written files must be byte for byte the same.
 * The corpus runs go through `main` of each, many runs in one process per package (starting a
 * process per run cost most of this file's time); bad inputs, help and usage errors, and written
 * files go through `bin` in a process per run, as a user runs the command.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { tmpdir, write } from '../helpers/cli';
import { cliPackages } from '../helpers/cli-package';
import { corpusFiles, readShared, sharedPath } from '../helpers/shared';

const ROOT = path.resolve(__dirname, '../..');

let bundled: string;
let modules: string;
let work: string;

beforeAll(() => {
  ({ bundled, modules } = cliPackages());
  work = tmpdir('armada-cdk-bundle-inputs-');
}, 600_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One `armada-cdk` process of the package in `pkg`, in the shared corpus directory. */
function run(pkg: string, args: readonly string[]): Promise<Run> {
  const child = spawn(process.execPath, [path.join(pkg, 'bin', 'armada-cdk.js'), ...args], { cwd: sharedPath('corpus'), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs every argument list through both packages, two processes at a time; the pairs of results, in order. */
async function both(cases: readonly string[][]): Promise<{ args: string[]; bundled: Run; modules: Run }[]> {
  const jobs = cases.flatMap((args) => [() => run(bundled, args), () => run(modules, args)]);
  const results: Run[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all([worker(), worker()]);
  return cases.map((args, i) => ({ args, bundled: results[2 * i], modules: results[2 * i + 1] }));
}

/**
 * Runs every argument list through `main` of both packages (the bundle and the compiled modules),
 * one process per package running them one after another, in the corpus directory, with the
 * output recorded; the pairs of results, in order.
 */
async function bothInProcess(cases: readonly string[][]): Promise<{ args: string[]; bundled: Run; modules: Run }[]> {
  const driver = write(work, 'driver.js', [
    "const { Readable } = require('stream');",
    'const { main } = require(process.argv[2]);',
    "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));",
    '(async () => {',
    '  const results = [];',
    '  for (const args of cases) {',
    "    let stdout = '';",
    "    let stderr = '';",
    '    const io = { stdout: { write: (s) => ((stdout += s), true) }, stderr: { write: (s) => ((stderr += s), true) }, stdin: Readable.from([]), cwd: process.cwd() };',
    '    results.push({ code: await main(args, io), stdout, stderr });',
    '  }',
    '  process.stdout.write(JSON.stringify(results));',
    '})();',
  ].join('\n'));
  const runAll = (entry: string) =>
    new Promise<Run[]>((resolve, reject) => {
      const child = spawn(process.execPath, [driver, entry], { cwd: sharedPath('corpus'), stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
      child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
      child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout) as Run[]) : reject(new Error(`the driver of ${entry} exited ${code}: ${stderr}`))));
      child.stdin.end(JSON.stringify(cases));
    });
  const [b, m] = await Promise.all([runAll(path.join(bundled, 'lib', 'armada-cdk-cli.js')), runAll(path.join(modules, 'lib', 'src', 'cli', 'main.js'))]);
  return cases.map((args, i) => ({ args: [...args], bundled: b[i], modules: m[i] }));
}

const COMMANDS: readonly string[][] = [['validate'], ['validate', '--format', 'json'], ['plan'], ['convert', '--to', 'airship-v1'], ['import']];

/** Files with the mistakes a user makes (and an attack), each in the corpus's simple site. */
function badInputs(): string[] {
  const simple = readShared('corpus', 'armada__examples__simple.yaml');
  const bomb = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`)];
  return [
    write(work, 'syntax-error.yaml', simple.replace('  values: {}', '  values: {a: [1, 2}')),
    write(work, 'alias-bomb.yaml', simple.replace('  values: {}', `  values:\n${bomb.map((l) => `    ${l}`).join('\n')}`)),
    write(work, 'duplicate-anchor.yaml', simple.replace('  values: {}', '  values:\n    a: &x 1\n    b: &x 2')),
    path.join(work, 'missing.yaml'),
  ];
}

/** The results side by side, so that a difference names its command. */
const pairs = (rs: Awaited<ReturnType<typeof both>>) => ({
  bundled: rs.map((r) => ({ args: r.args.join(' '), ...r.bundled })),
  modules: rs.map((r) => ({ args: r.args.join(' '), ...r.modules })),
});

describe('the bundled CLI and the compiled modules give the same output', () => {
  test('the bundle is what bin runs, and the fallback runs the modules', () => {
    expect(fs.existsSync(path.join(bundled, 'lib', 'armada-cdk-cli.js'))).toBe(true);
    expect(fs.existsSync(path.join(modules, 'lib', 'armada-cdk-cli.js'))).toBe(false);
  });

  test('the bundle is ASCII, kept comments included (V8 keeps a source with any other character as two bytes per character)', () => {
    const code = fs.readFileSync(path.join(bundled, 'lib', 'armada-cdk-cli.js'), 'utf8');
    expect(code.match(/[^\x00-\x7f]/g) ?? []).toEqual([]);
    // a comment of the sources that esbuild keeps, with its arrow escaped
    expect(code).toContain('`#/definitions/tls-config` \\u2192 `MariadbValuesTlsConfig`');
  });

  test('every command on each complete corpus file', async () => {
    const files = corpusFiles().filter((f) => f.complete).map((f) => f.file);
    expect(files.length).toBeGreaterThanOrEqual(5);
    const rs = await bothInProcess(files.flatMap((f) => COMMANDS.map((c) => [...c, f])));
    const { bundled: b, modules: m } = pairs(rs);
    expect(b).toEqual(m);
    // the runs did real work: valid sites, converted objects, generated TypeScript
    expect(rs.filter((r) => r.bundled.code === 0).length).toBeGreaterThan(files.length);
    expect(rs.some((r) => r.args[0] === 'import' && r.bundled.stdout.includes("from 'armada-cdk'"))).toBe(true);
    expect(rs.some((r) => r.args[0] === 'convert' && r.bundled.stdout.includes('kind: ArmadaChart'))).toBe(true);
  }, 300_000);

  test('convert to every other target on each complete corpus file', async () => {
    const targets = ['keleustes-v1alpha1', 'documents-v1', 'documents-v2', 'flux-v2'];
    const files = corpusFiles().filter((f) => f.complete).map((f) => f.file);
    const rs = await bothInProcess(files.flatMap((f) => targets.map((t) => ['convert', f, '--to', t])));
    const { bundled: b, modules: m } = pairs(rs);
    expect(b).toEqual(m);
    expect(new Set(rs.filter((r) => r.bundled.code === 0).map((r) => r.args[3]))).toEqual(new Set(targets));
  }, 300_000);

  test('validate on every corpus file, fragments too', async () => {
    const rs = await bothInProcess(corpusFiles().map((f) => ['validate', f.file]));
    const { bundled: b, modules: m } = pairs(rs);
    expect(b).toEqual(m);
    expect(new Set(rs.map((r) => r.bundled.code))).toEqual(new Set([0, 1]));
  }, 300_000);

  test('every command on bad input: a syntax error, an alias bomb, a duplicate anchor, a missing file', async () => {
    const files = badInputs();
    const rs = await both(files.flatMap((f) => COMMANDS.map((c) => [...c, f])));
    const { bundled: b, modules: m } = pairs(rs);
    expect(b).toEqual(m);
    expect(rs.map((r) => r.bundled.code)).toEqual(rs.map(() => 1));
    const validate = (name: string) => rs.find((r) => r.args[0] === 'validate' && r.args.length === 2 && r.args[1].endsWith(name))!.bundled.stderr;
    expect(validate('syntax-error.yaml')).toMatch(/syntax-error\.yaml:\d+:\d+: error: /);
    expect(validate('alias-bomb.yaml')).toMatch(/an alias bomb\? Refused before it is expanded/);
    expect(validate('duplicate-anchor.yaml')).toMatch(/found duplicate anchor 'x'/);
    expect(validate('missing.yaml')).toMatch(/missing\.yaml/);
  }, 300_000);

  test('help, version, usage errors and unknown commands', async () => {
    const rs = await both([[], ['--help'], ['--version'], ['-v'], ['help', 'convert'], ['convert', '--help'], ['values-types', '--help'], ['valdate', 'x.yaml'], ['convert', 'x.yaml'], ['plan', '--format', 'svg', 'x.yaml']]);
    const { bundled: b, modules: m } = pairs(rs);
    expect(b).toEqual(m);
    expect(rs.find((r) => r.args[0] === '--version')!.bundled).toEqual({ code: 0, stdout: `${(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}\n`, stderr: '' });
    expect(rs.find((r) => r.args[0] === 'valdate')!.bundled.stderr).toMatch(/did you mean validate\?/);
  }, 300_000);

  test('files written by convert -o DIR and import -o FILE', async () => {
    const site = 'armada__examples__keystone-manifest.yaml';
    const out = (pkg: string) => path.join(work, path.basename(pkg));
    const written = async (pkg: string) => {
      fs.mkdirSync(out(pkg), { recursive: true });
      const convert = await run(pkg, ['convert', site, '--to', 'airship-v1', '-o', path.join(out(pkg), 'crs')]);
      const imported = await run(pkg, ['import', site, '-o', path.join(out(pkg), 'site.ts')]);
      const files: Record<string, string> = {};
      const walk = (dir: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
          const f = path.join(dir, e.name);
          if (e.isDirectory()) walk(f);
          else files[path.relative(out(pkg), f)] = fs.readFileSync(f, 'utf8');
        }
      };
      walk(out(pkg));
      // The output directory is named in the messages, relative to the working directory (the
      // corpus) when the CLI can: compare them with it taken out, in either form.
      const named = [path.relative(sharedPath('corpus'), out(pkg)), out(pkg)];
      const unnamed = (s: string) => named.reduce((t, n) => t.split(n).join('OUT'), s);
      const plain = (r: Run) => ({ ...r, stdout: unnamed(r.stdout), stderr: unnamed(r.stderr) });
      return { convert: plain(convert), imported: plain(imported), files };
    };
    const b = await written(bundled);
    const m = await written(modules);
    expect(b).toEqual(m);
    expect(b.convert.code).toBe(0);
    expect(b.imported.code).toBe(0);
    expect(Object.keys(b.files)).toContain('site.ts');
    expect(Object.keys(b.files).filter((f) => f.startsWith('crs')).length).toBeGreaterThan(0);
  }, 300_000);
});
