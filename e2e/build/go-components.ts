/**
 * Recipes of the components built from their own Go modules through the module proxy. Modules whose
 * go.mod replaces their siblings with local paths (Kubernetes' staging modules, etcd's api, client
 * and pkg modules) cannot be built with `go install module@version`; a small wrapper module, written
 * into the cache directory at build time, requires them and lists the binaries as `tool`s so that
 * `go mod tidy` keeps them.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CacheEntry, cacheEntry, runTool } from './cache';
import { ETCD_VERSION, KUBERNETES_VERSION, KWOK_VERSION } from './versions';

/** What every Go build gets: reproducible paths, no toolchain download behind our back. */
function goEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GOFLAGS: '-trimpath', GOTOOLCHAIN: 'local' };
}

function goVersion(): string {
  return execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim();
}

/** A built Go component: its cache entry and the binaries it provides. */
export interface GoComponent {
  readonly entry: CacheEntry;
  readonly binaries: Readonly<Record<string, string>>;
  build(dir: string): Promise<void>;
}

const KUBE_BINARIES = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;

/**
 * The version the binaries report (`/version`, `kubectl version`, Helm's `.Capabilities`): Kubernetes'
 * own build sets these by `-X`; without them the server says v0.0.0.
 */
function kubeVersionLdflags(version: string): string {
  const [major, minor] = version.replace(/^v/, '').split('.');
  const flags = ['-s', '-w'];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    flags.push(`-X ${pkg}.gitVersion=${version}`, `-X ${pkg}.gitMajor=${major}`, `-X ${pkg}.gitMinor=${minor}`, `-X ${pkg}.gitTreeState=clean`);
  }
  return flags.join(' ');
}

/** The staging modules `k8s.io/kubernetes`'s go.mod replaces with `./staging/src/...` paths. */
function stagingModules(goModText: string): string[] {
  const modules = [...goModText.matchAll(/^\s*(k8s\.io\/[A-Za-z0-9._-]+)\s+=>\s+\.\/staging\//gm)].map((m) => m[1]!);
  if (modules.length === 0) throw new Error('k8s.io/kubernetes go.mod names no staging modules; the wrapper module recipe needs updating');
  return modules.sort();
}

async function downloadGoMod(module: string, version: string, cwd: string): Promise<string> {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], { cwd, env: goEnv(), encoding: 'utf8' });
  const info = JSON.parse(out) as { GoMod?: string; Error?: string };
  if (info.Error || !info.GoMod) throw new Error(`go mod download ${module}@${version}: ${info.Error ?? 'no go.mod'}`);
  return fs.readFileSync(info.GoMod, 'utf8');
}

export function kubernetes(): GoComponent {
  const version = KUBERNETES_VERSION;
  const staging = version.replace(/^v1\./, 'v0.');
  const ldflags = kubeVersionLdflags(version);
  const entry = cacheEntry('kubernetes', version, { go: goVersion(), staging, ldflags, binaries: KUBE_BINARIES.join(',') });
  const bin = path.join(entry.dir, 'bin');
  return {
    entry,
    binaries: Object.fromEntries(KUBE_BINARIES.map((b) => [b, path.join(bin, b)])),
    async build(dir) {
      const src = path.join(dir, 'src');
      fs.mkdirSync(src, { recursive: true });
      fs.mkdirSync(bin, { recursive: true });
      const upstream = await downloadGoMod('k8s.io/kubernetes', version, src);
      // The upstream module's own go and godebug lines, so the binaries behave as a release build.
      const goLine = /^go\s+(\S+)/m.exec(upstream)?.[1] ?? '1.25.0';
      const godebug = /^godebug\s+(.+)$/m.exec(upstream)?.[1];
      const lines = [
        'module armada-cdk-e2e/kubernetes',
        '',
        `go ${goLine}`,
        '',
        ...(godebug ? [`godebug ${godebug}`, ''] : []),
        `require k8s.io/kubernetes ${version}`,
        '',
        'tool (',
        ...KUBE_BINARIES.map((b) => `\tk8s.io/kubernetes/cmd/${b}`),
        ')',
        '',
        // Each staging module at the version published with this release.
        'replace (',
        ...stagingModules(upstream).map((m) => `\t${m} => ${m} ${staging}`),
        ')',
        '',
      ];
      fs.writeFileSync(path.join(src, 'go.mod'), lines.join('\n'));
      const logFile = path.join(dir, 'build.log');
      await runTool('go', ['mod', 'tidy'], { cwd: src, env: goEnv(), logFile });
      // One invocation: the packages the three binaries share compile once.
      await runTool('go', ['build', '-ldflags', ldflags, '-o', bin + path.sep, ...KUBE_BINARIES.map((b) => `k8s.io/kubernetes/cmd/${b}`)], {
        cwd: src,
        env: goEnv(),
        logFile,
      });
    },
  };
}

export function etcd(): GoComponent {
  const version = ETCD_VERSION;
  const entry = cacheEntry('etcd', version, { go: goVersion() });
  const binary = path.join(entry.dir, 'bin', 'etcd');
  return {
    entry,
    binaries: { etcd: binary },
    async build(dir) {
      const src = path.join(dir, 'src');
      fs.mkdirSync(src, { recursive: true });
      // etcd's server module replaces api, client and pkg with `../` paths; a module requiring it
      // takes their published versions, which the server module itself requires at the same release.
      fs.writeFileSync(
        path.join(src, 'go.mod'),
        ['module armada-cdk-e2e/etcd', '', 'go 1.26.0', '', `require go.etcd.io/etcd/server/v3 ${version}`, '', 'tool go.etcd.io/etcd/server/v3', ''].join('\n'),
      );
      const logFile = path.join(dir, 'build.log');
      await runTool('go', ['mod', 'tidy'], { cwd: src, env: goEnv(), logFile });
      await runTool('go', ['build', '-ldflags', '-s -w', '-o', binary, 'go.etcd.io/etcd/server/v3'], { cwd: src, env: goEnv(), logFile });
    },
  };
}

export function kwok(): GoComponent {
  const version = KWOK_VERSION;
  const entry = cacheEntry('kwok', version, { go: goVersion() });
  const bin = path.join(entry.dir, 'bin');
  return {
    entry,
    binaries: { kwok: path.join(bin, 'kwok') },
    async build(dir) {
      // kwok's go.mod has no replace directives, so `go install module@version` builds it as released.
      await runTool('go', ['install', '-ldflags', '-s -w', `sigs.k8s.io/kwok/cmd/kwok@${version}`], {
        cwd: dir,
        env: { ...goEnv(), GOBIN: bin },
        logFile: path.join(dir, 'build.log'),
      });
    },
  };
}
