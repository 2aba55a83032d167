/**
 * Flux's source-, helm- and kustomize-controller, built from their modules, run as local processes
 * against the stack's API server: their CRDs applied from ../shared/schemas/flux/ (the versions
 * the library's output is validated against), every address on 127.0.0.1, no leader election,
 * every namespace watched. Stopped as process groups by {@link FluxControllers.stop}.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { engineBinaries } from '../build/engines';
import { ProcessGroup } from '../cluster/processes';
import { kubeRequest, endpoint, runTool, stack } from '../stack';

/** The shared Flux CRDs, as published by the Flux projects (see that folder's README). */
export const FLUX_CRDS = path.resolve(__dirname, '..', '..', '..', 'shared', 'schemas', 'flux');
/** Flux's own namespace, where the controllers look for their events and the library writes HelmReleases. */
export const FLUX_NAMESPACE = 'flux-system';

/** A free TCP port on 127.0.0.1 (closed again before it is handed to a controller). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export interface FluxControllers {
  readonly logDir: string;
  stop(): Promise<void>;
}

/** Applies the CRDs (server-side: they are too large for the last-applied annotation). */
export async function applyFluxCrds(): Promise<void> {
  const files = fs.readdirSync(FLUX_CRDS).filter((f) => f.endsWith('.yaml')).sort();
  for (const f of files) await runTool('kubectl', ['apply', '--server-side', '--force-conflicts', '-f', path.join(FLUX_CRDS, f)]);
  await runTool('kubectl', ['wait', '--for=condition=Established', '--timeout=120s', ...files.map((f) => `crd/${crdName(f)}`)]);
}

/** `<group>_<plural>.yaml` (controller-gen's file name) → the CRD's name, `<plural>.<group>`. */
function crdName(file: string): string {
  const [group, plural] = file.replace(/\.yaml$/, '').split('_');
  return `${plural}.${group}`;
}

/** Starts the three controllers; resolves once each answers its health endpoint. */
export async function startFluxControllers(name: string): Promise<FluxControllers> {
  const engines = engineBinaries('sourceController', 'helmController', 'kustomizeController');
  const s = stack();
  const dir = path.join(s.dir, 'work', `flux-${name}`);
  const logDir = path.join(dir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  await applyFluxCrds();
  const ns = await kubeRequest(endpoint(), 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: FLUX_NAMESPACE } } });
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating namespace ${FLUX_NAMESPACE}: HTTP ${ns.status}`);

  const group = new ProcessGroup(logDir);
  // controller-runtime reads KUBECONFIG; RUNTIME_NAMESPACE is the namespace the controllers run in.
  const env = { ...process.env, KUBECONFIG: s.kubeconfig, RUNTIME_NAMESPACE: FLUX_NAMESPACE };
  const health: { name: string; url: string }[] = [];
  const common = async () => {
    const [metrics, healthPort] = [await freePort(), await freePort()];
    return { args: [`--metrics-addr=127.0.0.1:${metrics}`, `--health-addr=127.0.0.1:${healthPort}`, '--enable-leader-election=false', '--watch-all-namespaces=true', '--log-level=info'], healthPort };
  };
  try {
    const storage = await freePort();
    const source = await common();
    const storagePath = path.join(dir, 'storage');
    fs.mkdirSync(storagePath, { recursive: true });
    group.start(
      'source-controller',
      engines.sourceController,
      [...source.args, `--storage-path=${storagePath}`, `--storage-addr=127.0.0.1:${storage}`, `--storage-adv-addr=127.0.0.1:${storage}`],
      env,
    );
    health.push({ name: 'source-controller', url: `http://127.0.0.1:${source.healthPort}/readyz` });
    for (const [n, bin] of [
      ['helm-controller', engines.helmController],
      ['kustomize-controller', engines.kustomizeController],
    ] as const) {
      const c = await common();
      group.start(n, bin, c.args, env);
      health.push({ name: n, url: `http://127.0.0.1:${c.healthPort}/readyz` });
    }
    const deadline = Date.now() + 120_000;
    for (const h of health) {
      for (;;) {
        const ok = await fetch(h.url).then((r) => r.ok, () => false);
        if (ok) break;
        const exited = group.list().find((p) => p.name === h.name && p.child.exitCode !== null);
        if (exited || Date.now() > deadline) {
          throw new Error(`${h.name} did not become ready${exited ? ` (it exited ${exited.child.exitCode})` : ' in 120 s'}; its log ${path.join(logDir, `${h.name}.log`)} ends:\n${tail(path.join(logDir, `${h.name}.log`))}`);
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } catch (e) {
    await group.stopAll();
    throw e;
  }
  return { logDir, stop: () => group.stopAll() };
}

/** The last lines of a log, for an error message. */
export function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
