/**
 * What a short `armada-cdk validate` loads: start-up time of a small run is mostly module loading,
 * so the modules only some inputs need (the `yaml` package's AST, ajv, the values-schema
 * checks, the other commands) must stay out of a small valid run, and js-yaml must come as its
 * single-file build. Each run is a real process, whose `require.cache` is the list of what it loaded.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { tmpdir, write } from '../helpers/cli';
import { cliPackages, CliPackages, copyPackage } from '../helpers/cli-package';
import { readShared, sharedPath } from '../helpers/shared';
import { REGISTER_TS } from '../helpers/ts-child';

const ROOT = path.resolve(__dirname, '../..');

/** Runs `main(args)` in a fresh process; resolves to its exit code, stderr and the files it loaded. */
function loadedBy(args: readonly string[]): Promise<{ code: number; stderr: string; modules: string[] }> {
  const script = [
    `require(${JSON.stringify(path.join(ROOT, 'src/cli/main'))}).main(process.argv.slice(1)).then((code) => {`,
    `  require('fs').writeSync(3, JSON.stringify({ code, modules: Object.keys(require.cache) }));`,
    '});',
  ].join('\n');
  const child = spawn(process.execPath, ['-r', REGISTER_TS, '-e', script, '--', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let report = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (s: string) => (report += s));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (exit) => {
      clearTimeout(timer);
      if (!report) return reject(new Error(`the run reported nothing (exit ${exit}): ${stderr}`));
      const { code, modules } = JSON.parse(report) as { code: number; modules: string[] };
      resolve({ code, stderr, modules: modules.map((m) => path.relative(ROOT, m).split(path.sep).join('/')) });
    });
  });
}

/** This process's environment without Node's compile-cache settings, so that bin's own call decides. */
function withoutCompileCacheEnv(): NodeJS.ProcessEnv {
  const { NODE_COMPILE_CACHE: _dir, NODE_DISABLE_COMPILE_CACHE: _off, ...env } = process.env;
  return env;
}

/** Loaded files under node_modules/<pkg>/ (or the given path inside it). */
const under = (modules: readonly string[], prefix: string) => modules.filter((m) => m.startsWith(prefix));

describe('a small validate run loads only what it needs', () => {
  test('a valid corpus file: no yaml package, no ajv, no values-schema checks, js-yaml as one file', async () => {
    const r = await loadedBy(['validate', sharedPath('corpus', 'armada__examples__simple.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^valid: manifest simple-armada, 2 charts, 1 group: 0 errors, 2 warnings$/m);
    expect(under(r.modules, 'node_modules/yaml/')).toEqual([]);
    expect(under(r.modules, 'node_modules/ajv')).toEqual([]);
    expect(under(r.modules, 'node_modules/js-yaml/')).toEqual(['node_modules/js-yaml/dist/js-yaml.js']);
    // no chart of the file is local, so no values.schema.json can apply (the bounded file reader
    // and the alias measure live there and serve every input; they are no check)
    expect(under(r.modules, 'src/values-schema/').sort()).toEqual(['src/values-schema/alias-budget.ts', 'src/values-schema/read-file.ts']);
    expect(under(r.modules, 'src/cli/commands/')).toEqual(['src/cli/commands/validate.ts']);
    // Pegleg's secret tracking runs on every input, Deckhand's rendering engine only on a site
    expect(under(r.modules, 'src/deckhand/').sort()).toEqual(['src/deckhand/document.ts', 'src/deckhand/python.ts', 'src/deckhand/redact.ts']);
    // the run itself went through the loader whose imports are checked here
    expect(r.modules).toEqual(expect.arrayContaining(['src/importer/load/parse.ts', 'src/importer/load/aliases.ts', 'src/importer/load/pyyaml-keys.ts']));
  }, 90_000);

  test('the yaml package is loaded when a document needs its AST (an anchor defined twice)', async () => {
    const dir = tmpdir('armada-cdk-start-up-');
    const file = write(dir, 'site.yaml', readShared('corpus', 'armada__examples__simple.yaml').replace('  values: {}', '  values:\n    a: &x 1\n    b: &x 2'));
    const r = await loadedBy(['validate', file]);
    expect(r.stderr).toMatch(/found duplicate anchor 'x'/);
    expect(r.code).toBe(1);
    expect(under(r.modules, 'node_modules/yaml/').length).toBeGreaterThan(0);
  }, 90_000);
});

/**
 * The same runs through `bin/armada-cdk.js` of a built package: the bundle must be the only file
 * loaded for a small valid run, and run exactly the modules the compiled ones load (its CommonJS
 * wrappers keep every lazy `require` lazy). A wrapper runs through the bundle's own copy of
 * `Object.getOwnPropertyNames`, with its module's name as the only key: the hook below records them.
 */
describe('the bundled CLI runs only what the compiled modules load', () => {
  let packages: CliPackages;
  let hook: string;
  let cache: string;
  beforeAll(() => {
    packages = cliPackages();
    cache = tmpdir('armada-cdk-start-up-cache-');
    hook = write(tmpdir('armada-cdk-start-up-hook-'), 'hook.js', [
      "const fs = require('fs');",
      'const names = Object.getOwnPropertyNames;',
      'const executed = [];',
      'Object.getOwnPropertyNames = function (o) {',
      '  const keys = names(o);',
      "  if (keys.length === 1 && typeof o[keys[0]] === 'function' && /\\.js$/.test(keys[0])) executed.push(keys[0]);",
      '  return keys;',
      '};',
      "const { getCompileCacheDir } = require('module');",
      "process.on('exit', () => fs.writeSync(3, JSON.stringify({ code: process.exitCode, modules: Object.keys(require.cache), executed, compileCache: getCompileCacheDir ? getCompileCacheDir() ?? null : null })));",
    ].join('\n'));
  }, 600_000);
  afterAll(() => {
    if (hook) fs.rmSync(path.dirname(hook), { recursive: true, force: true });
    if (cache) fs.rmSync(cache, { recursive: true, force: true });
  });

  /** One `bin/armada-cdk.js` process of `pkg`: its exit code, the files it loaded and the bundled modules it ran, relative to `pkg`. */
  function binRun(pkg: string, args: readonly string[], stdin: 'ignore' | number = 'ignore'): Promise<{ code: number; stderr: string; modules: string[]; executed: string[]; compileCache: string | null }> {
    const child = spawn(process.execPath, ['-r', hook, path.join(pkg, 'bin', 'armada-cdk.js'), ...args], { cwd: ROOT, stdio: [stdin, 'ignore', 'pipe', 'pipe'], env: { ...withoutCompileCacheEnv(), TMPDIR: cache } });
    let stderr = '';
    let report = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (s: string) => (report += s));
    // require.cache has real paths: the modules package links lib/src to the bundled one's, and both link schemas/ and node_modules/ to the checkout's
    const bases = [pkg, packages.bundled, packages.modules, ROOT].map((d) => fs.realpathSync(d));
    const relative = (m: string) => path.relative(bases.find((b) => m.startsWith(b + path.sep)) ?? pkg, m).split(path.sep).join('/');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (exit) => {
        clearTimeout(timer);
        if (!report) return reject(new Error(`the run reported nothing (exit ${exit}): ${stderr}`));
        const r = JSON.parse(report) as { code: number; modules: string[]; executed: string[]; compileCache: string | null };
        // the bundle's entry module (main.js) runs at its top level, not in a wrapper
        resolve({ code: r.code, stderr, compileCache: r.compileCache, modules: r.modules.map(relative).filter((m) => !m.endsWith('hook.js')), executed: r.executed.concat(r.executed.length ? ['lib/src/cli/main.js'] : []).map((m) => m.replace(/^.*?(?=node_modules\/)/, '')) });
      });
    });
  }

  test('a valid corpus file: only the bundle is loaded, and it runs the modules the compiled CLI loads', async () => {
    const file = sharedPath('corpus', 'armada__examples__simple.yaml');
    const b = await binRun(packages.bundled, ['validate', file]);
    const m = await binRun(packages.modules, ['validate', file]);
    expect([b.code, m.code]).toEqual([0, 0]);
    expect(b.stderr).toBe(m.stderr);
    // the precompiled Armada schema validators are files of their own, beside the schemas
    const validators = ['schemas/armada/validators/armada-chart-v1.js', 'schemas/armada/validators/armada-chartgroup-v1.js', 'schemas/armada/validators/armada-manifest-v1.js'];
    expect(b.modules).toEqual(['bin/armada-cdk.js', 'lib/armada-cdk-cli.js', ...validators]);
    // the compiled run: its own modules, js-yaml as one file, the same validators
    const own = m.modules.filter((f) => f.startsWith('lib/src/'));
    expect(m.modules.filter((f) => !f.startsWith('lib/src/')).sort()).toEqual(['bin/armada-cdk.js', 'node_modules/js-yaml/dist/js-yaml.js', ...validators].sort());
    expect(own.length).toBeGreaterThan(20);
    expect([...b.executed].sort()).toEqual([...own, 'node_modules/js-yaml/dist/js-yaml.js'].sort());
    expect(b.executed.filter((f) => (f.startsWith('lib/src/values-schema/') && !/\/(read-file|alias-budget)\.js$/.test(f)) || (f.startsWith('lib/src/cli/commands/') && !f.endsWith('/validate.js')))).toEqual([]);
  }, 90_000);

  test('--version runs main and the package-root lookup only', async () => {
    const b = await binRun(packages.bundled, ['--version']);
    expect(b.code).toBe(0);
    expect(b.modules).toEqual(['bin/armada-cdk.js', 'lib/armada-cdk-cli.js', 'package.json']);
    expect([...b.executed].sort()).toEqual(['lib/src/cli/io.js', 'lib/src/cli/main.js', 'lib/src/importer/load/package-root.js', 'lib/src/model/diagnostics.js', 'lib/src/model/safe-text.js']);
  }, 90_000);

  test('an installed package runs its bundle whatever order its files were unpacked in; a checkout recompiled by tsc alone (build info and a module newer than the bundle) runs the modules', async () => {
    // On a copy: the packages are shared with the other tests of the run.
    const pkg = copyPackage(packages.bundled);
    try {
      const main = path.join(pkg, 'lib', 'src', 'cli', 'main.js');
      const later = new Date(fs.statSync(path.join(pkg, 'lib', 'armada-cdk-cli.js')).mtime.getTime() + 60_000);
      fs.utimesSync(main, later, later);
      // npm unpacks lib/src after lib/armada-cdk-cli.js: the modules are newer, the bundle is what was packed
      expect((await binRun(pkg, ['--version'])).modules).toEqual(['bin/armada-cdk.js', 'lib/armada-cdk-cli.js', 'package.json']);
      fs.writeFileSync(path.join(pkg, 'tsconfig.json'), '{}');
      const recompiled = await binRun(pkg, ['--version']);
      expect(recompiled.code).toBe(0);
      expect(recompiled.modules).toEqual(expect.arrayContaining(['bin/armada-cdk.js', 'lib/src/cli/main.js']));
      expect(recompiled.modules).not.toContain('lib/armada-cdk-cli.js');
      // tsc alone rewrites only the modules whose output changed: one other module newer than the bundle is enough
      const earlier = new Date(later.getTime() - 120_000);
      fs.utimesSync(main, earlier, earlier);
      expect((await binRun(pkg, ['--version'])).modules).toContain('lib/armada-cdk-cli.js');
      fs.utimesSync(path.join(pkg, 'lib', 'src', 'model', 'plan.js'), later, later);
      expect((await binRun(pkg, ['--version'])).modules).not.toContain('lib/armada-cdk-cli.js');
      // tsc (incremental) writes lib/.tsbuildinfo whenever it emits: build info older than the
      // bundle means the bundle was made after the last emit, and the modules are not looked at
      const info = path.join(pkg, 'lib', '.tsbuildinfo');
      fs.writeFileSync(info, '{}');
      fs.utimesSync(info, earlier, earlier);
      expect((await binRun(pkg, ['--version'])).modules).toContain('lib/armada-cdk-cli.js');
      // newer build info: tsc emitted since; the modules' times decide, as without it
      fs.utimesSync(info, later, later);
      expect((await binRun(pkg, ['--version'])).modules).not.toContain('lib/armada-cdk-cli.js');
      fs.utimesSync(path.join(pkg, 'lib', 'src', 'model', 'plan.js'), earlier, earlier);
      expect((await binRun(pkg, ['--version'])).modules).toContain('lib/armada-cdk-cli.js');
    } finally {
      fs.rmSync(pkg, { recursive: true, force: true });
    }
  }, 90_000);

  test("Node's compile cache: enabled by bin where Node has it (22.1 and later), a no-op elsewhere; the second run compiles from it and does the same", async () => {
    const file = sharedPath('corpus', 'armada__examples__simple.yaml');
    fs.rmSync(cache, { recursive: true, force: true });
    fs.mkdirSync(cache);
    const first = await binRun(packages.bundled, ['plan', file]);
    const second = await binRun(packages.bundled, ['plan', file]);
    expect([second.code, second.stderr, [...second.executed].sort()]).toEqual([first.code, first.stderr, [...first.executed].sort()]);
    expect(first.code).toBe(0);
    if (typeof (require('module') as { enableCompileCache?: unknown }).enableCompileCache === 'function') {
      // Without NODE_COMPILE_CACHE, Node puts it in the temporary directory (TMPDIR, here our own).
      // (in a directory of its own per Node version there)
      const top = (dir: string | null) => dir && path.relative(cache, dir).split(path.sep)[0];
      expect([top(first.compileCache), top(second.compileCache)]).toEqual(['node-compile-cache', 'node-compile-cache']);
      expect(fs.readdirSync(path.join(cache, 'node-compile-cache')).length).toBeGreaterThan(0);
    } else {
      expect([first.compileCache, second.compileCache]).toEqual([null, null]);
      expect(fs.readdirSync(cache)).toEqual([]);
    }
  }, 90_000);

  test('an anchor defined twice: the bundled run loads the yaml package from node_modules, as the compiled one does', async () => {
    const dir = tmpdir('armada-cdk-start-up-');
    const file = write(dir, 'site.yaml', readShared('corpus', 'armada__examples__simple.yaml').replace('  values: {}', '  values:\n    a: &x 1\n    b: &x 2'));
    const b = await binRun(packages.bundled, ['validate', file]);
    const m = await binRun(packages.modules, ['validate', file]);
    expect([b.code, m.code]).toEqual([1, 1]);
    expect(b.stderr).toMatch(/found duplicate anchor 'x'/);
    expect(b.stderr).toBe(m.stderr);
    const yamlFiles = (modules: string[]) => under(modules, 'node_modules/yaml/');
    expect(yamlFiles(b.modules).length).toBeGreaterThan(0);
    expect(yamlFiles(b.modules)).toEqual(yamlFiles(m.modules));
    expect([...b.executed].sort()).toEqual([...m.modules.filter((f) => f.startsWith('lib/src/')), 'node_modules/js-yaml/dist/js-yaml.js'].sort());
  }, 90_000);

  test('standard input, from a pipe or a redirected file, reads as the file does; --version prints only the version', async () => {
    const file = sharedPath('corpus', 'armada__examples__simple.yaml');
    const direct = await binRun(packages.bundled, ['validate', file]);
    const fd = fs.openSync(file, 'r');
    try {
      const redirected = await binRun(packages.bundled, ['validate', '-'], fd);
      expect([redirected.code, redirected.stderr]).toEqual([0, direct.stderr.split(file).join('<stdin>')]);
    } finally {
      fs.closeSync(fd);
    }
    const piped = spawnSync(process.execPath, [path.join(packages.bundled, 'bin', 'armada-cdk.js'), 'validate', '-'], { input: fs.readFileSync(file), encoding: 'utf8', env: { ...withoutCompileCacheEnv(), TMPDIR: cache } });
    expect([piped.status, piped.stderr]).toEqual([0, direct.stderr.split(file).join('<stdin>')]);
    const version = spawnSync(process.execPath, [path.join(packages.bundled, 'bin', 'armada-cdk.js'), '--version'], { encoding: 'utf8', env: { ...withoutCompileCacheEnv(), TMPDIR: cache } });
    expect([version.status, version.stdout, version.stderr]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+\n$/), '']);
  }, 90_000);
});
