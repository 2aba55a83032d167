/**
 * `npm run e2e`: builds what the cache lacks, starts the stack on 127.0.0.1, runs the end-to-end
 * suite against it and stops everything it started, on success, failure and interruption alike.
 *
 *   npm run e2e                      the whole suite
 *   npm run e2e -- readiness         jest's own arguments (here a test path pattern)
 *   npm run e2e -- --build-only      build the cache and stop
 *
 * ARMADA_CDK_E2E_CACHE moves the build cache; ARMADA_CDK_E2E_KEEP=1 keeps the run's directory
 * (component logs, kubeconfig) for a look after a failure.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildStack } from './build';
import { formatSeconds } from './build/cache';
import { ControlPlane } from './cluster/control-plane';
import { startEntrypointSimulator } from './cluster/entrypoint';
import { ProcessGroup } from './cluster/processes';
import { endpointFromKubeconfig } from './kube-http';
import { makeRepository, startGitServer } from './servers/git-http';
import { startHelmRepository } from './servers/helm-repo';
import { listen, StaticServer } from './servers/static-http';
import { STACK_ENV, StackDescription } from './stack';

const ROOT = path.resolve(__dirname, '..');
const FIXTURES = path.join(__dirname, 'fixtures');

function log(line: string): void {
  process.stderr.write(`[e2e] ${line}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  const buildOnly = argv.includes('--build-only');
  const jestArgs = argv.filter((a) => a !== '--build-only');
  const started = Date.now();
  const bin = await buildStack(log);
  if (buildOnly) return 0;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-e2e-'));
  const logDir = path.join(dir, 'logs');
  fs.mkdirSync(logDir);
  const processes = new ProcessGroup(logDir);
  const servers: StaticServer[] = [];
  let stopSimulator: (() => void) | undefined;
  let jest: ReturnType<typeof spawn> | undefined;
  let cleaning: Promise<void> | undefined;

  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      if (jest && jest.exitCode === null) {
        try {
          process.kill(-jest.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      stopSimulator?.();
      await Promise.all(servers.map((s) => s.close()));
      await processes.stopAll();
      if (process.env.ARMADA_CDK_E2E_KEEP === '1') log(`kept the run's directory ${dir}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping the stack`);
      void cleanup().finally(() => process.exit(128 + (os.constants.signals[signal] ?? 1)));
    });
  }

  try {
    const plane = new ControlPlane(bin, dir, processes, log);
    const info = await plane.start();
    const ep = endpointFromKubeconfig(info.kubeconfig);
    stopSimulator = startEntrypointSimulator(ep, log);

    const helmRepo = await startHelmRepository(bin.helm3, path.join(FIXTURES, 'charts'), path.join(dir, 'helm-repo'));
    servers.push(helmRepo.server);
    const gitRoot = path.join(dir, 'git');
    fs.mkdirSync(gitRoot);
    // One repository of every fixture chart under charts/, as a chart repository on a forge looks.
    makeRepository(gitRoot, 'charts', path.join(FIXTURES, 'charts'), 'charts');
    const git = await startGitServer(gitRoot);
    servers.push(git.server);

    const control = { token: randomBytes(16).toString('hex') };
    const controlServer = await listen((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method !== 'POST' || req.headers['x-e2e-token'] !== control.token || url.pathname !== '/restart-apiserver') {
        res.writeHead(404).end();
        return;
      }
      plane.restartApiServer(Number(url.searchParams.get('downMs') ?? 0)).then(
        () => res.writeHead(200).end('restarted\n'),
        (e: Error) => res.writeHead(500).end(`${e.message}\n`),
      );
    });
    servers.push(controlServer);

    const description: StackDescription = {
      dir,
      kubeconfig: info.kubeconfig,
      server: info.server,
      nodes: info.nodes,
      binaries: {
        helm3: bin.helm3,
        helm4: bin.helm4,
        kubectl: bin.kubectl,
        etcd: bin.etcd,
        kubeApiserver: bin.kubeApiserver,
        kubeControllerManager: bin.kubeControllerManager,
        kubeScheduler: bin.kubeScheduler,
        kwok: bin.kwok,
      },
      helmRepository: { url: helmRepo.url, charts: helmRepo.charts },
      git: { url: git.url, repositories: { charts: git.repoUrl('charts') } },
      chartsDir: path.join(dir, 'helm-repo-src'),
      control: { url: controlServer.url, token: control.token },
    };
    const stackFile = path.join(dir, 'stack.json');
    fs.writeFileSync(stackFile, JSON.stringify(description, null, 2), { mode: 0o600 });
    fs.mkdirSync(path.join(dir, 'work'));
    log(`stack up in ${formatSeconds(Date.now() - started)}; running the suite`);

    const code = await new Promise<number>((resolve) => {
      jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), '--config', path.join(__dirname, 'jest.config.js'), '--runInBand', ...jestArgs], {
        cwd: ROOT,
        env: { ...process.env, KUBECONFIG: info.kubeconfig, [STACK_ENV]: stackFile },
        stdio: 'inherit',
        // Its own group, so that stopping it also stops whatever a test left running.
        detached: true,
      });
      jest.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
      jest.on('error', (e) => {
        log(`cannot run jest: ${e.message}`);
        resolve(1);
      });
    });
    log(`suite ${code === 0 ? 'passed' : 'failed'}; ${formatSeconds(Date.now() - started)} in all`);
    return code;
  } catch (e) {
    log(e instanceof Error ? e.message : String(e));
    return 1;
  } finally {
    await cleanup();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: Error) => {
    log(e.message);
    process.exit(1);
  },
);

