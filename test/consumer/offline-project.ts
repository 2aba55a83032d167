/**
 * Fresh consumer projects installed the way a user installs armada-cdk, without the network: the
 * package is packed (`npm pack`, which runs `prepack`) and every other package comes from the npm
 * cache that `npm ci` of this repository filled. The project's lockfile is derived from this
 * repository's, with the same versions (and the oldest supported `constructs`, pinned here as the
 * `constructs-lowest` devDependency so that it is in that cache), so `npm ci --offline` needs
 * tarballs only.
 */
import { execFile, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
const REGISTRY = 'https://registry.npmjs.org';

interface LockEntry {
  name?: string | undefined;
  version: string;
  resolved?: string | undefined;
  integrity?: string | undefined;
  inBundle?: boolean | undefined;
  dependencies?: Record<string, string> | undefined;
  optionalDependencies?: Record<string, string> | undefined;
  peerDependencies?: Record<string, string> | undefined;
  peerDependenciesMeta?: Record<string, { optional?: boolean | undefined }> | undefined;
  [k: string]: unknown;
}

const repoLock = (): Record<string, LockEntry> => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8')).packages;
const repoPackage = () => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

/** The oldest `constructs` the package supports: the floor of its peer range. */
export function lowestConstructs(): string {
  const range: string = repoPackage().peerDependencies.constructs;
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  const pinned = repoLock()['node_modules/constructs-lowest'];
  if (!floor || !pinned || pinned.version !== floor) throw new Error(`the constructs-lowest devDependency (${pinned?.version}) must be the floor of the constructs peer range (${range})`);
  return floor;
}

/** Packs the package into `dir`; returns the tarball's file name. */
export function pack(dir: string): string {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return (JSON.parse(out) as { filename: string }[])[0].filename;
}

/**
 * Writes `package.json` and `package-lock.json` for a project depending on the packed tarball and
 * on `deps` (names of packages this repository's lockfile holds; `constructs` is the oldest
 * supported), then runs `npm ci --offline` (asynchronously, so that projects install side by side).
 */
export function installOffline(dir: string, options: { tarball: string; dependencies: Record<string, string>; devDependencies: Record<string, string>; pkg: Record<string, unknown> }): Promise<void> {
  const lock = repoLock();
  const ours = repoPackage();
  const packages: Record<string, LockEntry> = {};
  const entryAt = (p: string): LockEntry | undefined => (p === 'node_modules/constructs' ? { ...lock['node_modules/constructs-lowest'], name: undefined } : lock[p]);
  // Node's lookup: the nearest node_modules/<name> from the dependent up to the root.
  const resolveFrom = (from: string, name: string): string | undefined => {
    for (let base = from; ; ) {
      const p = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (entryAt(p)) return p;
      if (!base) return undefined;
      const i = base.lastIndexOf('/node_modules/');
      base = i < 0 ? '' : base.slice(0, i);
    }
  };
  const visit = (p: string) => {
    if (packages[p]) return;
    const e = entryAt(p)!;
    const copy: LockEntry = { ...e };
    for (const k of ['dev', 'devOptional', 'peer']) delete copy[k];
    if (copy.name === undefined) delete copy.name;
    const name = copy.name ?? p.slice(p.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!copy.inBundle && !copy.resolved) copy.resolved = `${REGISTRY}/${name}/-/${name.split('/').pop()}-${copy.version}.tgz`;
    packages[p] = copy;
    const needed = { ...e.dependencies, ...e.optionalDependencies };
    for (const [peer] of Object.entries(e.peerDependencies ?? {})) if (!e.peerDependenciesMeta?.[peer]?.optional) needed[peer] = '';
    for (const d of Object.keys(needed)) {
      const at = resolveFrom(p, d);
      if (at) visit(at);
      else if (!e.optionalDependencies?.[d]) throw new Error(`${p} needs ${d}, which this repository's lockfile does not hold`);
    }
  };
  const all = { ...options.dependencies, ...options.devDependencies };
  for (const d of Object.keys(all)) visit(`node_modules/${d}`);
  // The packed package itself, with the dependencies its package.json declares.
  const deps: Record<string, string> = ours.dependencies;
  for (const d of Object.keys(deps)) visit(`node_modules/${d}`);
  if (!Object.keys(all).includes('constructs')) throw new Error('a consumer project needs constructs');
  packages['node_modules/armada-cdk'] = {
    version: ours.version,
    resolved: `file:${options.tarball}`,
    license: ours.license,
    dependencies: deps,
    bin: ours.bin,
    engines: ours.engines,
    peerDependencies: ours.peerDependencies,
    peerDependenciesMeta: ours.peerDependenciesMeta,
  };
  const manifest: Record<string, unknown> = { ...options.pkg, dependencies: { 'armada-cdk': `file:${options.tarball}`, ...options.dependencies }, devDependencies: options.devDependencies };
  const rootEntry = { name: manifest.name, version: manifest.version, license: manifest.license, dependencies: manifest.dependencies, devDependencies: manifest.devDependencies };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  fs.writeFileSync(
    path.join(dir, 'package-lock.json'),
    JSON.stringify({ name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages: { '': rootEntry, ...packages } }, null, 2) + '\n',
  );
  return new Promise((resolve, reject) =>
    execFile('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, encoding: 'utf8' }, (err, _stdout, stderr) =>
      err ? reject(new Error(`npm ci --offline failed in ${dir}:\n${stderr}`)) : resolve(),
    ),
  );
}
