import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { tmpdir } from './cli';

const ROOT = path.resolve(__dirname, '../..');

/** The two ways the CLI runs from a package: the bundle, and the compiled modules it is made from. */
export interface CliPackages {
  /** A package with `lib/armada-cdk-cli.js` (what `npm pack` ships). */
  bundled: string;
  /** The same compiled modules without the bundle (`bin` falls back to `lib/src`). */
  modules: string;
  remove(): void;
}

/**
 * Builds the CLI as `npm pack` does (tsc with tsconfig.build.json, then scripts/bundle-cli.js)
 * into a fresh package directory, beside a second one that shares its compiled modules but has no
 * bundle. Both have the repository's bin, package.json, schemas and node_modules.
 */
export function buildCliPackages(): CliPackages {
  const bundled = tmpdir('armada-cdk-bundled-');
  const lib = path.join(bundled, 'lib');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', lib], { cwd: ROOT, stdio: 'pipe' });
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle-cli.js'), '--lib', lib], { cwd: ROOT, stdio: 'pipe' });
  const modules = tmpdir('armada-cdk-modules-');
  for (const dir of [bundled, modules]) {
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.copyFileSync(path.join(ROOT, 'bin', 'armada-cdk.js'), path.join(dir, 'bin', 'armada-cdk.js'));
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'schemas'), path.join(dir, 'schemas'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  }
  fs.mkdirSync(path.join(modules, 'lib'));
  fs.symlinkSync(path.join(lib, 'src'), path.join(modules, 'lib', 'src'));
  return {
    bundled,
    modules,
    remove: () => {
      for (const dir of [bundled, modules]) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
