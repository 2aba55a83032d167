/**
 * The bundled CLI's V8 code cache: where it lives, when it is used, and that nothing about it can
 * change what a run does or make it fail (a corrupt, foreign, unreadable or unwritable cache is
 * skipped). Each case loads a small CommonJS file the way `bin/armada-cdk.js` loads the bundle.
 */
import * as os from 'os';
import * as fs from 'fs';
import * as path from 'path';
import { CACHED_COMMANDS, codeCacheDirectory, codeCacheFile, runWithCodeCache } from '../../src/cli/code-cache';
import { main } from '../../src/cli/main';
import { tmpdir, write } from '../helpers/cli';

let work: string;
beforeEach(() => {
  work = tmpdir('armada-cdk-code-cache-');
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

/** A module that uses its own require, module, __filename and __dirname, as the bundle does. */
function moduleFile(body = 'exports.answer = 42;'): string {
  const lib = path.join(work, 'pkg', 'lib');
  fs.mkdirSync(lib, { recursive: true });
  write(lib, 'beside.json', '{"from":"json beside"}');
  return write(lib, 'cli.js', `'use strict';\n${body}\nexports.beside = require('./beside.json').from;\nexports.where = [__filename, __dirname, module.exports === exports];\nexports.pathJoin = require('path').join('a', 'b');\n`);
}

const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

describe('codeCacheDirectory', () => {
  // A home directory that exists: the default location is under it only then.
  const ada = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-home-'));
  afterAll(() => fs.rmSync(ada, { recursive: true, force: true }));
  const home = () => ada;
  test('the user cache directory of each platform', () => {
    expect(codeCacheDirectory({}, 'linux', home)).toBe(path.join(ada, '.cache', 'armada-cdk', 'compile-cache'));
    expect(codeCacheDirectory({ XDG_CACHE_HOME: '/var/cache/ada' }, 'linux', home)).toBe(path.join('/var/cache/ada', 'armada-cdk', 'compile-cache'));
    // a relative XDG_CACHE_HOME is invalid by the XDG spec and ignored
    expect(codeCacheDirectory({ XDG_CACHE_HOME: 'rel/cache' }, 'linux', home)).toBe(path.join(ada, '.cache', 'armada-cdk', 'compile-cache'));
    expect(codeCacheDirectory({}, 'darwin', home)).toBe(path.join(ada, 'Library', 'Caches', 'armada-cdk', 'compile-cache'));
    expect(codeCacheDirectory({ LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, 'win32', home)).toBe(path.join('C:\\Users\\ada\\AppData\\Local', 'armada-cdk', 'compile-cache'));
  });

  test('ARMADA_CDK_COMPILE_CACHE chooses the directory; the disable variables turn it off', () => {
    expect(codeCacheDirectory({ ARMADA_CDK_COMPILE_CACHE: '/srv/cache' }, 'linux', home)).toBe(path.resolve('/srv/cache'));
    expect(codeCacheDirectory({ ARMADA_CDK_DISABLE_COMPILE_CACHE: '1', ARMADA_CDK_COMPILE_CACHE: '/srv/cache' }, 'linux', home)).toBeUndefined();
    expect(codeCacheDirectory({ NODE_DISABLE_COMPILE_CACHE: '1' }, 'linux', home)).toBeUndefined();
    // set but off
    for (const off of ['', '0', 'false', 'FALSE']) expect(codeCacheDirectory({ ARMADA_CDK_DISABLE_COMPILE_CACHE: off }, 'linux', home)).toBe(path.join(ada, '.cache', 'armada-cdk', 'compile-cache'));
  });

  test('no home directory: no cache', () => {
    const noHome = () => {
      throw new Error('ENOENT: no home');
    };
    expect(codeCacheDirectory({}, 'linux', noHome)).toBeUndefined();
    // A HOME that does not exist (a service account's /nonexistent) is not created.
    const missing = path.join(ada, 'nonexistent');
    for (const platform of ['linux', 'darwin', 'win32'] as const) expect(codeCacheDirectory({}, platform, () => missing)).toBeUndefined();
    expect(fs.existsSync(missing)).toBe(false);
    // A cache directory named outright is the user's choice.
    expect(codeCacheDirectory({ XDG_CACHE_HOME: path.join(missing, 'cache') }, 'linux', () => missing)).toBe(path.join(missing, 'cache', 'armada-cdk', 'compile-cache'));
  });
});

describe('runWithCodeCache', () => {
  test('the first run writes the cache after the work; the next runs from it, with the same module', () => {
    const file = moduleFile();
    const dir = path.join(work, 'cache');
    const first = runWithCodeCache(file, dir, 'validate');
    expect(first.fromCache).toBe(false);
    expect(first.exports).toEqual({ answer: 42, beside: 'json beside', where: [file, path.dirname(file), true], pathJoin: path.join('a', 'b') });
    expect(cacheFiles(dir)).toEqual([]);
    first.save();
    const name = path.basename(codeCacheFile(dir, fs.readFileSync(file), 'validate'));
    expect(name).toMatch(/^cli-[0-9a-f]{32}-validate\.v8$/);
    expect(cacheFiles(dir)).toEqual([name]);
    if (typeof process.getuid === 'function') {
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    }
    const second = runWithCodeCache(file, dir, 'validate');
    expect(second.fromCache).toBe(true);
    expect(second.exports).toEqual(first.exports);
    const written = fs.statSync(path.join(dir, name)).mtimeMs;
    second.save(); // nothing to write
    expect(fs.statSync(path.join(dir, name)).mtimeMs).toBe(written);
  });

  test('the commands with a cache of their own are the commands of armada-cdk --help', async () => {
    let help = '';
    const io = { stdout: { write: (s: string) => ((help += s), true) }, stderr: { write: () => true }, stdin: process.stdin, cwd: process.cwd() };
    expect(await main(['--help'], io)).toBe(0);
    const commands = help.split('Commands:\n')[1].split('\n\n')[0].split('\n').map((l) => l.trim().split(/\s+/)[0]);
    expect([...CACHED_COMMANDS].sort()).toEqual(commands.sort());
  });

  test('one cache per command; --version, help and mistyped commands share "other"', () => {
    const file = moduleFile();
    const dir = path.join(work, 'cache');
    for (const command of ['convert', '--version', 'valdiate', undefined]) runWithCodeCache(file, dir, command).save();
    expect(cacheFiles(dir).map((n) => n.replace(/^cli-[0-9a-f]{32}-/, ''))).toEqual(['convert.v8', 'other.v8']);
  });

  test('changed source: another cache file, and the new code runs', () => {
    const dir = path.join(work, 'cache');
    runWithCodeCache(moduleFile('exports.answer = 42;'), dir, 'plan').save();
    // same length, other content: V8 would accept the old cache for it
    const changed = runWithCodeCache(moduleFile('exports.answer = 43;'), dir, 'plan');
    expect(changed.fromCache).toBe(false);
    expect((changed.exports as { answer: number }).answer).toBe(43);
    changed.save();
    expect(cacheFiles(dir)).toHaveLength(2);
  });

  test.each([
    ['a truncated', (b: Buffer) => b.subarray(0, b.length - 100)],
    ['an altered', (b: Buffer) => Buffer.concat([b.subarray(0, 200), Buffer.from([b[200] ^ 0xff]), b.subarray(201)])],
    ['a headerless', (b: Buffer) => b.subarray(40)],
    ['an empty', () => Buffer.alloc(0)],
  ])('a %s cache file is not used, and is written anew', (_what, damage) => {
    const file = moduleFile();
    const dir = path.join(work, 'cache');
    runWithCodeCache(file, dir, 'validate').save();
    const cache = codeCacheFile(dir, fs.readFileSync(file), 'validate');
    fs.writeFileSync(cache, damage(fs.readFileSync(cache)));
    const run = runWithCodeCache(file, dir, 'validate');
    expect(run.fromCache).toBe(false);
    expect((run.exports as { answer: number }).answer).toBe(42);
    run.save();
    expect(runWithCodeCache(file, dir, 'validate').fromCache).toBe(true);
  });

  const posix = typeof process.getuid === 'function' ? test : test.skip;
  posix('a directory others can write to is neither read nor written', () => {
    const file = moduleFile();
    const dir = path.join(work, 'shared-cache');
    runWithCodeCache(file, dir, 'validate').save();
    const before = cacheFiles(dir);
    fs.chmodSync(dir, 0o777);
    const run = runWithCodeCache(file, dir, 'validate');
    expect(run.fromCache).toBe(false);
    fs.rmSync(path.join(dir, before[0]));
    run.save();
    expect(cacheFiles(dir)).toEqual([]);
  });

  posix('an unwritable or impossible directory: the run goes on, nothing is written', () => {
    const file = moduleFile();
    const blocker = write(work, 'not-a-directory', 'x');
    const run = runWithCodeCache(file, path.join(blocker, 'cache'), 'validate');
    expect((run.exports as { answer: number }).answer).toBe(42);
    expect(() => run.save()).not.toThrow();
    const locked = path.join(work, 'locked');
    fs.mkdirSync(locked, { mode: 0o500 });
    const again = runWithCodeCache(file, locked, 'validate');
    expect(() => again.save()).not.toThrow();
    // root may write anyway; anyone else finds nothing written
    if (process.getuid!() !== 0) expect(cacheFiles(locked)).toEqual([]);
  });

  test('caches of other bundles are removed a week after they were written, this one is kept', () => {
    const dir = path.join(work, 'cache');
    runWithCodeCache(moduleFile('exports.answer = 1;'), dir, 'validate').save();
    const [old] = cacheFiles(dir);
    const weekAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    fs.utimesSync(path.join(dir, old), weekAgo, weekAgo);
    write(dir, 'unrelated.txt', 'kept');
    const current = runWithCodeCache(moduleFile('exports.answer = 2;'), dir, 'validate');
    current.save();
    expect(cacheFiles(dir)).toEqual([path.basename(codeCacheFile(dir, fs.readFileSync(path.join(work, 'pkg', 'lib', 'cli.js')), 'validate')), 'unrelated.txt']);
  });

  test('without a directory: a plain require', () => {
    const file = moduleFile();
    const run = runWithCodeCache(file, undefined, 'validate');
    expect(run.fromCache).toBe(false);
    expect(run.exports).toBe(require(file));
    expect(() => run.save()).not.toThrow();
  });

  test('an error thrown by the module is the module’s, not swallowed', () => {
    const file = moduleFile("throw new Error('module failed');");
    expect(() => runWithCodeCache(file, path.join(work, 'cache'), 'validate')).toThrow('module failed');
  });
});
