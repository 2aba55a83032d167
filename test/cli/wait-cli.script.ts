/**
 * Run by wait.test.ts in a child Node process: `armada-cdk wait` reads a kubeconfig with
 * `@kubernetes/client-node`, an ES module that jest's CommonJS runtime cannot load but Node can.
 *
 * Usage: node -r ts-node/register/transpile-only wait-cli.script.ts ARGS...
 */
import { main } from '../../src/cli/main';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
