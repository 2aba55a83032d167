/**
 * A static Helm chart repository on 127.0.0.1: the fixture charts packed by `helm package` when the
 * suite starts, and the `index.yaml` that `helm repo index` writes for them.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listen, StaticServer, serveFiles } from './static-http';

/** A served Helm repository. */
export interface HelmRepository {
  readonly url: string;
  readonly dir: string;
  /** Chart name → the packed versions in the index. */
  readonly charts: Readonly<Record<string, string>>;
  readonly server: StaticServer;
}

/**
 * Packs every chart under `chartsDir` (dependencies on `file://` charts vendored first, in a copy:
 * the fixtures stay untouched) into `dir`, serves `dir` and indexes it under the served URL.
 */
export async function startHelmRepository(helm: string, chartsDir: string, dir: string): Promise<HelmRepository> {
  const work = path.join(dir, '..', 'helm-repo-src');
  fs.rmSync(work, { recursive: true, force: true });
  fs.cpSync(chartsDir, work, { recursive: true });
  fs.mkdirSync(dir, { recursive: true });
  const env = helmEnv(path.join(dir, '..', 'helm-home'));
  const charts: Record<string, string> = {};
  for (const name of fs.readdirSync(work).sort()) {
    const chart = path.join(work, name);
    if (!fs.existsSync(path.join(chart, 'Chart.yaml'))) continue;
    if (/^dependencies:/m.test(fs.readFileSync(path.join(chart, 'Chart.yaml'), 'utf8'))) {
      execFileSync(helm, ['dependency', 'build', chart], { env, stdio: 'pipe' });
    }
    const out = execFileSync(helm, ['package', chart, '--destination', dir], { env, encoding: 'utf8' });
    const version = /-(\d+\.\d+\.\d+[^/]*)\.tgz\s*$/.exec(out.trim())?.[1];
    charts[name] = version ?? '';
  }
  const server = await listen(serveFiles(dir));
  execFileSync(helm, ['repo', 'index', dir, '--url', server.url], { env, stdio: 'pipe' });
  return { url: server.url, dir, charts, server };
}

/** Helm's own state (repositories, cache, config) kept inside the run's directory, never the user's. */
export function helmEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HELM_CACHE_HOME: path.join(home, 'cache'),
    HELM_CONFIG_HOME: path.join(home, 'config'),
    HELM_DATA_HOME: path.join(home, 'data'),
  };
}
