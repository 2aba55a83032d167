/**
 * What a short `armada-cdk validate` loads: start-up time of a small run is mostly module loading,
 * so the modules only some inputs need (the `yaml` package's AST, ajv, the values-schema
 * checks, the other commands) must stay out of a small valid run, and js-yaml must come as its
 * single-file build. Each run is a real process, whose `require.cache` is the list of what it loaded.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import { tmpdir, write } from '../helpers/cli';
import { readShared, sharedPath } from '../helpers/shared';

const ROOT = path.resolve(__dirname, '../..');

/** Runs `main(args)` in a fresh process; resolves to its exit code, stderr and the files it loaded. */
function loadedBy(args: readonly string[]): Promise<{ code: number; stderr: string; modules: string[] }> {
  const script = [
    `require(${JSON.stringify(path.join(ROOT, 'src/cli/main'))}).main(process.argv.slice(1)).then((code) => {`,
    `  require('fs').writeSync(3, JSON.stringify({ code, modules: Object.keys(require.cache) }));`,
    '});',
  ].join('\n');
  const child = spawn(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), '-e', script, '--', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    env: { ...process.env, TS_NODE_COMPILER_OPTIONS: JSON.stringify({ module: 'commonjs', moduleResolution: 'node' }) },
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
    // no chart of the file is local, so no values.schema.json can apply
    expect(under(r.modules, 'src/values-schema/')).toEqual([]);
    expect(under(r.modules, 'src/cli/commands/')).toEqual(['src/cli/commands/validate.ts']);
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
