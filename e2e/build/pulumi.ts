/**
 * The Pulumi CLI, at the version of the project's `@pulumi/pulumi` devDependency: the engine and
 * the SDK the programs load must speak the same protocol.
 *
 * Not built: the Node.js language host (`pulumi-language-nodejs`). It is a module of its own
 * (`github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3`, not a package of sdk/v3),
 * which the module proxy this project reaches does not serve. The suite runs its programs through
 * the Automation API's inline programs instead, where the SDK itself serves the language runtime
 * to `pulumi up --client` (see e2e/pulumi/driver.js): the same engine, the same SDK.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GoComponent } from './go-components';
import { wrapperComponent } from './go-wrapper';

/** The `@pulumi/pulumi` version the project pins, which the CLI is built at. */
export function pulumiVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const version = pkg.devDependencies['@pulumi/pulumi'];
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`package.json pins @pulumi/pulumi as ${JSON.stringify(version)}; the e2e build needs an exact version`);
  return version;
}

export function pulumiCli(): GoComponent {
  const version = pulumiVersion();
  return wrapperComponent({
    component: 'pulumi',
    version,
    requires: { 'github.com/pulumi/pulumi/pkg/v3': `v${version}`, 'github.com/pulumi/pulumi/sdk/v3': `v${version}` },
    // pkg/v3's go.mod: sdk/v3 => ../sdk (the same release, required above) and this fork.
    replaces: { 'github.com/atotto/clipboard': 'github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e' },
    binaries: { pulumi: 'github.com/pulumi/pulumi/pkg/v3/cmd/pulumi' },
    // What `pulumi version` reports; the engine compares it with the plugins' and the SDK's.
    ldflags: `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`,
  });
}
