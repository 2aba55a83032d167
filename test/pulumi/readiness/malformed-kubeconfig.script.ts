/**
 * Run by kubeconfig.test.ts in a child Node process (`@kubernetes/client-node` is an ES module):
 * reads each malformed kubeconfig given as argument (contents, or a path) and prints the error
 * message as one JSON line each.
 *
 * Usage: node -r ts-node/register/transpile-only malformed-kubeconfig.script.ts <contents-or-path>...
 */
import { resolveKubeConfig } from '../../../src/pulumi/provider/readiness';

async function main(): Promise<void> {
  for (const config of process.argv.slice(2)) {
    try {
      await resolveKubeConfig(config);
      process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    } catch (e) {
      const err = e as Error;
      process.stdout.write(`${JSON.stringify({ message: err.message, stack: err.stack, cause: err.cause === undefined ? null : String(err.cause) })}\n`);
    }
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
