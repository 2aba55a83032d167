/**
 * Run by kubeconfig.test.ts in a child Node process: `@kubernetes/client-node` is an ES module,
 * which jest's CommonJS runtime cannot load but Node can. Waits on a pod through each way of
 * naming the cluster and prints one JSON line per way.
 *
 * Usage: node -r ts-node/register/transpile-only real-kubeconfig.script.ts <kubeconfig-file> <namespace>
 */
import * as fs from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { SchemaVersion } from '../../../src/model/spec';
import { ClusterConfig, KubeConfigLike, waitForResources } from '../../../src/pulumi/provider/readiness';

// A real KubeConfig must be accepted where the gate takes a cluster.
const accepted: KubeConfigLike = new KubeConfig();
void accepted;

async function main(): Promise<void> {
  const [file, namespace] = process.argv.slice(2);
  const yaml = fs.readFileSync(file, 'utf8');
  const object = new KubeConfig();
  object.loadFromString(yaml);
  object.setCurrentContext('fake');
  const ways: [string, ClusterConfig, string | undefined][] = [
    ['yaml', yaml, 'fake'],
    ['path', file, 'fake'],
    ['object', object, undefined],
  ];
  for (const [way, kubeconfig, context] of ways) {
    const results = await waitForResources({
      kubeconfig,
      context,
      namespace,
      schemaVersion: SchemaVersion.V2,
      deadline: Date.now() + 3000,
      resources: [{ type: 'pod', labels: { application: way }, minReady: '100%', required: true, allowAsyncUpdates: false }],
    });
    process.stdout.write(`${JSON.stringify({ way, results })}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
