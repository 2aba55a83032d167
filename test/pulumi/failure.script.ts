/**
 * Run by failures.test.ts in a child Node process, because a failed registration surfaces as
 * unhandled rejections, which jest reports as test failures. Deploys a small manifest under
 * Pulumi's mocks with the registration of one resource failing, and prints what got registered
 * and the errors, as one JSON line.
 *
 * Usage: node -r ts-node/register/transpile-only failure.script.ts '<type> <name>'
 */
import * as pulumi from '@pulumi/pulumi';

const registered: string[] = [];
const errors = new Set<string>();
const failing = process.argv[2];
process.on('unhandledRejection', (e) => errors.add(e instanceof Error ? e.message : String(e)));
void pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push(`${args.type} ${args.name}`);
      if (`${args.type} ${args.name}` === failing) throw new Error('it failed');
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: (args) => args.inputs,
  },
  'armada-cdk',
  'failure',
  false,
);

async function main(): Promise<void> {
  const { ArmadaManifest, Chart, ChartGroup, ChartSource } = require('../../src') as typeof import('../../src');
  const { ManifestDeployment } = require('../../src/pulumi') as typeof import('../../src/pulumi');
  jestlessSilence();
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const props = (n: string) => ({ namespace: 'ns', source: ChartSource.local('/charts'), wait: { labels: { app: n } } });
  const a = new ChartGroup(site, 'a');
  new Chart(a, 'x', props('x'));
  new Chart(a, 'y', props('y'));
  new Chart(new ChartGroup(site, 'b'), 'z', props('z'));
  new ManifestDeployment('site', { manifest: site, resolveChart: async (c) => `/charts/${c.name}` });
  await new Promise((r) => setTimeout(r, 1500));
  process.stdout.write(JSON.stringify({ registered, errors: [...errors] }) + '\n');
  process.exit(0);
}

/** The deployment's warnings are not what this script is about. */
function jestlessSilence(): void {
  (pulumi.log as { warn: unknown }).warn = async () => undefined;
}

void main();
