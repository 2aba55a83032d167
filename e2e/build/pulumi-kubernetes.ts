/**
 * Pulumi's Kubernetes provider (`pulumi-resource-kubernetes`), installed into each test's Pulumi
 * home as a plugin from the built file.
 *
 * The project pins `@pulumi/kubernetes` 4.34.2, but the module proxy this project reaches serves one
 * version of `github.com/pulumi/pulumi-kubernetes/provider/v4` only: the pseudo-version of commit
 * f47bc2d6f199 (2026-01-15, the day before the sdk/v4.25.0 tag; it embeds Helm 3.18.6). That is
 * what is built, and what the tests install under the version the SDK asks for (see
 * e2e/pulumi/pulumi-env.ts): behaviour added to the provider after 4.25 is not covered until a
 * release tag is served.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GoComponent } from './go-components';
import { moduleDir, wrapperComponent } from './go-wrapper';
import { runTool } from './cache';

/** The provider module's version built. */
export const PULUMI_KUBERNETES_MODULE_VERSION = 'v4.0.0-20260115033456-f47bc2d6f199';
/** Its go.mod replaces sdk/v4 with its sibling folder: the sdk release nearest that commit. */
const SDK_VERSION = 'v4.25.0';
const PROVIDER = 'github.com/pulumi/pulumi-kubernetes/provider/v4';

export function pulumiKubernetes(): GoComponent {
  const reported = PULUMI_KUBERNETES_MODULE_VERSION.replace(/^v/, '');
  return wrapperComponent({
    component: 'pulumi-kubernetes',
    version: reported,
    requires: { [PROVIDER]: PULUMI_KUBERNETES_MODULE_VERSION, 'github.com/pulumi/pulumi-kubernetes/sdk/v4': SDK_VERSION },
    binaries: { 'pulumi-resource-kubernetes': './cmd/pulumi-resource-kubernetes' },
    ldflags: `-X ${PROVIDER}/pkg/version.Version=${reported}`,
    // main.go embeds schema-embed.json and terraform-mapping-embed.json, which upstream's Makefile
    // makes with the package's own generate.go (`go generate`) from the schema.json and mapping
    // the module ships: the package is copied into the wrapper and generated there.
    async prepare(src, env, logFile) {
      const from = path.join(moduleDir(src, PROVIDER, env), 'cmd', 'pulumi-resource-kubernetes');
      const to = path.join(src, 'cmd', 'pulumi-resource-kubernetes');
      fs.mkdirSync(to, { recursive: true });
      for (const f of fs.readdirSync(from)) {
        if (!/\.(go|json)$/.test(f)) continue;
        fs.copyFileSync(path.join(from, f), path.join(to, f));
        fs.chmodSync(path.join(to, f), 0o644);
      }
      await runTool('go', ['run', 'generate.go'], { cwd: to, env: { ...env, VERSION: reported }, logFile });
    },
  });
}
