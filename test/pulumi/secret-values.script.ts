/**
 * Run by secret-values.test.ts in a child Node process, because a failed apply surfaces as
 * unhandled rejections, which jest reports as test failures. Deploys a manifest under Pulumi's
 * mocks whose local chart gets an invalid `pulumi.secret` value, and prints what got registered,
 * the errors and everything logged, as one JSON line.
 *
 * Every unhandled rejection is kept, the same error as often as it surfaces: the deployment must
 * report a failure once.
 *
 * Usage: node -r ts-node/register/transpile-only secret-values.script.ts <charts-dir> <secret> [pre-delete]
 */
import * as pulumi from '@pulumi/pulumi';

const [charts, secret, option] = process.argv.slice(2);
const registered: string[] = [];
const errors: string[] = [];
const logged: string[] = [];
process.on('unhandledRejection', (e) => errors.push(e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e)));
void pulumi.runtime.setMocks(
  {
    newResource: (args) => {
      registered.push(`${args.type} ${args.name} ${JSON.stringify(args.inputs)}`);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: (args) => args.inputs,
  },
  'armada-cdk',
  'secret-values',
  false,
);

async function main(): Promise<void> {
  const { ArmadaManifest, Chart, ChartGroup, ChartSource } = require('../../src') as typeof import('../../src');
  const { ManifestDeployment } = require('../../src/pulumi') as typeof import('../../src/pulumi');
  for (const level of ['debug', 'info', 'warn', 'error'] as const) {
    (pulumi.log as unknown as Record<string, (m: string) => Promise<void>>)[level] = async (m: string) => void logged.push(m);
  }
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(site, 'g'), 'mariadb', {
    namespace: 'openstack',
    source: ChartSource.local(charts, { subpath: 'mariadb' }),
    wait: { labels: { release_group: 'p-mariadb' } },
    values: { images: { pull_policy: pulumi.secret(secret) } },
    ...(option === 'pre-delete' ? { upgrade: { pre: { delete: [{ type: 'job' as const }] } } } : {}),
  });
  new ManifestDeployment('site', { manifest: site, resolveChart: async (c) => `/charts/${c.name}` });
  await new Promise((r) => setTimeout(r, 1500));
  process.stdout.write(`${JSON.stringify({ registered, errors, logged })}\n`);
}

main().catch((e: unknown) => {
  process.stdout.write(`${JSON.stringify({ registered, errors: [...errors, `main: ${String(e)}`], logged })}\n`);
});
