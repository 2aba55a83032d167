/** Converting a site with the packed CLI, applying the result, and watching its HelmReleases. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { endpoint, kubeOk, runTool, stack } from '../stack';
import { installPacked, packedCli, packRepository } from '../pulumi/packed-package';
import { FLUX_NAMESPACE } from './flux-controllers';

export interface HelmReleaseObject {
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly spec: { readonly releaseName?: string; readonly targetNamespace?: string; readonly storageNamespace?: string; readonly dependsOn?: readonly { name: string; namespace?: string }[] };
  readonly status?: { readonly conditions?: readonly { type: string; status: string; reason?: string; message?: string }[] };
}

/** `armada-cdk convert FILE --to flux-v2 ...` with the CLI of the packed package; returns the YAML. */
export async function convertToFlux(name: string, documentsYaml: string, extraArgs: readonly string[] = []): Promise<string> {
  const s = stack();
  const dir = path.join(s.dir, 'work', `flux-convert-${name}`);
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, 'node_modules'))) installPacked(packRepository(path.join(s.dir, 'work', 'pack')), dir);
  const input = path.join(dir, 'site.yaml');
  fs.writeFileSync(input, documentsYaml);
  const r = await runTool(process.execPath, [packedCli(dir), 'convert', input, '--to', 'flux-v2', '--interval', '1m', ...extraArgs], { cwd: dir });
  fs.writeFileSync(path.join(dir, 'flux.yaml'), r.stdout);
  return r.stdout;
}

/**
 * `armada-cdk convert FILE --to flux-v2 -o DIR ...` with the packed CLI, run in `workTree` (the
 * Git work tree the layout is committed from); returns the CLI's stderr.
 */
export async function convertToFluxDir(name: string, documentsYaml: string, workTree: string, dir: string, extraArgs: readonly string[] = []): Promise<string> {
  const s = stack();
  const pkg = path.join(s.dir, 'work', `flux-convert-${name}`);
  fs.mkdirSync(pkg, { recursive: true });
  if (!fs.existsSync(path.join(pkg, 'node_modules'))) installPacked(packRepository(path.join(s.dir, 'work', 'pack')), pkg);
  const input = path.join(pkg, 'site.yaml');
  fs.writeFileSync(input, documentsYaml);
  const r = await runTool(process.execPath, [packedCli(pkg), 'convert', input, '--to', 'flux-v2', '--interval', '1m', '-o', dir, ...extraArgs], { cwd: workTree });
  return r.stderr;
}

/** `kubectl apply` of a YAML stream (server-side, as Flux's own bootstrap applies). */
export async function applyYaml(text: string): Promise<void> {
  await runTool('kubectl', ['apply', '--server-side', '-f', '-'], { input: text });
}

export async function helmReleases(): Promise<HelmReleaseObject[]> {
  const list = await kubeOk<{ items: HelmReleaseObject[] }>(endpoint(), 'GET', `/apis/helm.toolkit.fluxcd.io/v2/namespaces/${FLUX_NAMESPACE}/helmreleases`);
  return list.items;
}

export function readyOf(hr: HelmReleaseObject): { status: string; reason?: string; message?: string } {
  const c = hr.status?.conditions?.find((x) => x.type === 'Ready');
  return c ? { status: c.status, ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}) } : { status: 'Unknown' };
}

/**
 * Polls until every HelmRelease named is Ready=True; rejects after `timeoutMs` with each one's
 * Ready condition.
 */
export async function waitForReady(names: readonly string[], timeoutMs: number): Promise<HelmReleaseObject[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await helmReleases();
    const mine = names.map((n) => all.find((h) => h.metadata.name === n));
    if (mine.every((h) => h && readyOf(h).status === 'True')) return mine as HelmReleaseObject[];
    if (Date.now() > deadline) {
      const lines = names.map((n, i) => `${n}: ${mine[i] ? JSON.stringify(readyOf(mine[i]!)) : 'missing'}`);
      throw new Error(`HelmReleases not Ready after ${Math.round(timeoutMs / 1000)} s:\n${lines.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
}
