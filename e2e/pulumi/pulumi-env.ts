/**
 * A Pulumi workspace for one e2e test: a program folder with armada-cdk installed from its packed
 * tarball, a Pulumi home of its own with the built Kubernetes provider installed as a plugin from
 * its file, a local file backend, no update checks and no plugin downloads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { engineBinaries } from '../build/engines';
import { runTool, stack, ToolResult } from '../stack';
import { installPacked, packRepository } from './packed-package';

/** One engine event of the Automation API, as the driver writes them. */
export interface EngineEvent {
  readonly sequence: number;
  readonly timestamp: number;
  readonly resOutputsEvent?: { readonly metadata: { readonly op: string; readonly urn: string; readonly type: string } };
  readonly resourcePreEvent?: { readonly metadata: { readonly op: string; readonly urn: string; readonly type: string } };
}

/** What `pulumi up`/`destroy` reports: operation counts by kind (`create`, `same`, `update`...). */
export interface OperationSummary {
  readonly result?: string;
  readonly resourceChanges?: Readonly<Record<string, number>>;
}

export interface PulumiRun {
  readonly summary: OperationSummary;
  readonly events: readonly EngineEvent[];
  readonly result: ToolResult;
}

export interface PulumiWorkspace {
  readonly dir: string;
  readonly programDir: string;
  /** Writes the site the program deploys (see program/index.js). */
  writeSite(site: unknown): void;
  /** Runs `up`, `preview` or `destroy`; rejects with the engine's output when it fails. */
  run(action: 'up' | 'preview' | 'destroy', options?: { allowFailure?: boolean }): Promise<PulumiRun>;
}

/** The plugin version `@pulumi/kubernetes` asks the engine for. */
function sdkPluginVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(require.resolve('@pulumi/kubernetes/package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

export async function pulumiWorkspace(name: string): Promise<PulumiWorkspace> {
  const engines = engineBinaries('pulumi', 'pulumiKubernetes');
  const s = stack();
  const dir = path.join(s.dir, 'work', `pulumi-${name}`);
  const programDir = path.join(dir, 'program');
  const home = path.join(dir, 'pulumi-home');
  const state = path.join(dir, 'state');
  for (const d of [programDir, home, state]) fs.mkdirSync(d, { recursive: true });
  installPacked(packRepository(path.join(s.dir, 'work', 'pack')), programDir);
  for (const f of ['index.js', 'driver.js']) fs.copyFileSync(path.join(__dirname, 'program', f), path.join(programDir, f));
  const siteFile = path.join(dir, 'site.json');
  const eventsFile = path.join(dir, 'events.jsonl');

  const env: Record<string, string> = {
    PULUMI_HOME: home,
    PULUMI_SKIP_UPDATE_CHECK: 'true',
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
    // The file backend encrypts the stack's secrets (the kubeconfig) with this passphrase.
    PULUMI_CONFIG_PASSPHRASE: 'armada-cdk-e2e',
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: 'true',
    ARMADA_CDK_E2E_PULUMI_ROOT: path.dirname(path.dirname(engines.pulumi)),
    ARMADA_CDK_E2E_SITE: siteFile,
    ARMADA_CDK_E2E_EVENTS: eventsFile,
    // Dynamic providers (the readiness gates, pre-upgrade deletes) run through the SDK's own
    // `pulumi-resource-pulumi-nodejs`, which the engine finds on the PATH.
    PATH: [path.dirname(require.resolve('@pulumi/pulumi/package.json')), path.dirname(engines.pulumi), process.env.PATH ?? ''].join(path.delimiter),
  };
  const pulumi = (args: string[]) => runTool(engines.pulumi, args, { cwd: dir, env, timeoutMs: 120_000 });
  await pulumi(['login', `file://${state}`]);
  // The provider as a plugin from the built file, under the version the SDK asks for (the module
  // proxy serves another version of the provider module: see e2e/build/pulumi-kubernetes.ts).
  await pulumi(['plugin', 'install', 'resource', 'kubernetes', `v${sdkPluginVersion()}`, '--file', engines.pulumiResourceKubernetes]);

  return {
    dir,
    programDir,
    writeSite(site) {
      fs.writeFileSync(siteFile, JSON.stringify(site, null, 2));
    },
    async run(action, options = {}) {
      fs.rmSync(eventsFile, { force: true });
      const result = await runTool(process.execPath, [path.join(programDir, 'driver.js'), action], {
        cwd: programDir,
        env,
        timeoutMs: 900_000,
        allowFailure: true,
      });
      const events = fs.existsSync(eventsFile)
        ? fs.readFileSync(eventsFile, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as EngineEvent)
        : [];
      if (result.code !== 0 && !options.allowFailure) {
        throw new Error(`pulumi ${action} failed (exit ${result.code}):\n${result.stderr.split('\n').slice(-60).join('\n')}`);
      }
      const last = result.stdout.trim().split('\n').pop() ?? '';
      const summary = result.code === 0 && last.startsWith('{') ? (JSON.parse(last) as OperationSummary) : {};
      return { summary, events, result };
    },
  };
}
