/**
 * armada-cdk as a user installs it: `npm pack` of the repository (its `prepack` builds the library
 * and the CLI bundle), unpacked into a `node_modules` folder whose other entries link to the
 * repository's own dependencies. The e2e programs load the library from there, never from `src/`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const packed = new Map<string, string>();

/**
 * Packs the repository into `dir` (a folder of the suite's run) once per run: a later test file of
 * the same run finds the tarball there. Returns the tarball's path.
 */
export function packRepository(dir: string): string {
  const known = packed.get(dir) ?? (fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => /^armada-cdk-.*\.tgz$/.test(f)) : undefined);
  if (known) return path.resolve(dir, known);
  fs.mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  // npm prints the prepack script's output before the JSON array.
  const json = JSON.parse(out.slice(out.indexOf('\n[') + 1 || out.indexOf('['))) as { filename: string }[];
  const file = path.join(dir, json[0]!.filename.replace(/^@/, '').replace(/\//, '-'));
  packed.set(dir, file);
  return file;
}

/**
 * A folder whose `node_modules` holds the packed armada-cdk and links to every other package the
 * repository installed (the same `@pulumi/pulumi` instance for the program and the library).
 */
export function installPacked(tarball: string, folder: string): void {
  const modules = path.join(folder, 'node_modules');
  fs.mkdirSync(path.join(modules, 'armada-cdk'), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', path.join(modules, 'armada-cdk'), '--strip-components=1'], { stdio: 'pipe' });
  for (const entry of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === 'armada-cdk' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
}

/** The packed CLI (`bin/armada-cdk.js`) inside a folder made by {@link installPacked}. */
export function packedCli(folder: string): string {
  return path.join(folder, 'node_modules', 'armada-cdk', 'bin', 'armada-cdk.js');
}
