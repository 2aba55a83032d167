import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '../..');

/** Where jest's global setup asks the run's CLI build to go (test/setup/global-setup.ts). */
export const BUILD_DIR_ENV = 'ARMADA_CDK_TEST_BUILD_DIR';

/** The two ways the CLI runs from a package: the bundle, and the compiled modules it is made from. */
export interface CliPackages {
  /** A package with `lib/armada-cdk-cli.js` (what `npm pack` ships). */
  bundled: string;
  /** The same compiled modules without the bundle (`bin` falls back to `lib/src`). */
  modules: string;
}

/** How long a worker waits for another worker's build before it gives up. */
const BUILD_WAIT_MS = 600_000;

/**
 * The CLI built as `npm pack` builds it (tsc with tsconfig.build.json, then scripts/bundle-cli.js)
 * into a package directory, beside a second one that shares its compiled modules but has no
 * bundle. Both have the repository's bin, package.json, schemas and node_modules.
 *
 * Built once per jest run, by the first test that asks, in the directory the global setup made;
 * a test in another worker meanwhile waits for it (a lock directory says a build is under way).
 * The packages are shared: a test that changes files in one works on a copy ({@link copyPackage}).
 * Outside jest's global setup, each process builds its own, removed when it exits.
 */
export function cliPackages(): CliPackages {
  const dir = process.env[BUILD_DIR_ENV] ?? ownBuildDirectory();
  const packages = { bundled: path.join(dir, 'bundled'), modules: path.join(dir, 'modules') };
  const done = path.join(dir, 'done');
  const failed = path.join(dir, 'failed');
  const lock = path.join(dir, 'building');
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    if (fs.existsSync(done)) return packages;
    if (fs.existsSync(failed)) throw new Error(`the CLI build of this test run failed:\n${fs.readFileSync(failed, 'utf8')}`);
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (Date.now() > deadline) throw new Error(`waited ${BUILD_WAIT_MS / 1000} s for another worker's CLI build in ${dir}`);
    // A synchronous sleep: the build is needed before the test can go on.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
  try {
    build(packages);
    fs.writeFileSync(done, '');
  } catch (e) {
    const err = e as { message?: string; stderr?: Buffer; stdout?: Buffer };
    fs.writeFileSync(failed, `${err.message ?? String(e)}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    throw e;
  }
  return packages;
}

function build({ bundled, modules }: CliPackages): void {
  const lib = path.join(bundled, 'lib');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', lib], { cwd: ROOT, stdio: 'pipe' });
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle-cli.js'), '--lib', lib], { cwd: ROOT, stdio: 'pipe' });
  fs.mkdirSync(path.join(modules, 'lib'), { recursive: true });
  for (const dir of [bundled, modules]) {
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.copyFileSync(path.join(ROOT, 'bin', 'armada-cdk.js'), path.join(dir, 'bin', 'armada-cdk.js'));
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'schemas'), path.join(dir, 'schemas'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  }
  fs.symlinkSync(path.join(lib, 'src'), path.join(modules, 'lib', 'src'));
}

let own: string | undefined;
function ownBuildDirectory(): string {
  if (!own) {
    own = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-test-build-'));
    const dir = own;
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return own;
}

/** A copy of the package `pkg` (its symbolic links kept as links) in a new temporary directory, for a test that changes its files. */
export function copyPackage(pkg: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-package-'));
  fs.cpSync(pkg, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}
