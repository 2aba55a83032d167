/**
 * The engines the suite deploys through, besides the cluster: the Pulumi CLI and its Kubernetes
 * provider, Flux's source-, helm- and kustomize-controller, Helmfile and the helm-diff plugin its
 * `apply` runs. Built into the same cache as the cluster's components, one after the other (each
 * `go build` already uses every core).
 */
import { ensureBuilt, isBuilt } from './cache';
import type { GoComponent } from './go-components';
import { helmController } from './helm-controller';
import { helmDiff } from './helm-diff';
import { helmfile } from './helmfile';
import { kustomizeController } from './kustomize-controller';
import { pulumiCli, pulumiVersion } from './pulumi';
import { pulumiKubernetes } from './pulumi-kubernetes';
import { sourceController } from './source-controller';

/** Paths of the engines' binaries. */
export interface EngineBinaries {
  readonly pulumi: string;
  /** The version of the CLI, which the programs' `@pulumi/pulumi` is. */
  readonly pulumiVersion: string;
  readonly pulumiResourceKubernetes: string;
  readonly sourceController: string;
  readonly helmController: string;
  readonly kustomizeController: string;
  readonly helmfile: string;
  /** The `HELM_PLUGINS` folder that holds helm-diff (`helm diff`, which `helmfile apply` runs). */
  readonly helmPlugins: string;
}

function components() {
  return {
    pulumi: pulumiCli(),
    pulumiKubernetes: pulumiKubernetes(),
    sourceController: sourceController(),
    helmController: helmController(),
    kustomizeController: kustomizeController(),
    helmfile: helmfile(),
    helmDiff: helmDiff(),
  };
}

function binariesOf(c: ReturnType<typeof components>): EngineBinaries {
  const one = (g: GoComponent, name: string) => g.binaries[name]!;
  return {
    pulumi: one(c.pulumi, 'pulumi'),
    pulumiVersion: pulumiVersion(),
    pulumiResourceKubernetes: one(c.pulumiKubernetes, 'pulumi-resource-kubernetes'),
    sourceController: one(c.sourceController, 'source-controller'),
    helmController: one(c.helmController, 'helm-controller'),
    kustomizeController: one(c.kustomizeController, 'kustomize-controller'),
    helmfile: one(c.helmfile, 'helmfile'),
    helmPlugins: c.helmDiff.pluginsDir,
  };
}

/** Builds whichever engine the cache lacks. */
export async function buildEngines(log: (line: string) => void): Promise<EngineBinaries> {
  const c = components();
  for (const g of Object.values(c)) await ensureBuilt(g.entry, (dir) => g.build(dir), log);
  return binariesOf(c);
}

/**
 * The engines' binaries for a test; throws, naming what is missing and how to build it, when the
 * cache lacks one of those the test `needs` (a test must not start a half-hour build inside its
 * timeout).
 */
export function engineBinaries(...needs: readonly (keyof ReturnType<typeof components>)[]): EngineBinaries {
  const c = components();
  const missing = needs.map((n) => c[n]).filter((g) => !isBuilt(g.entry)).map((g) => g.entry.key);
  if (missing.length > 0) throw new Error(`The e2e build cache lacks ${missing.join(', ')}: run \`npm run e2e -- --build-only\` (or \`npm run e2e\`), which builds them.`);
  return binariesOf(c);
}
