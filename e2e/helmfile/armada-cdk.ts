/**
 * The armada-cdk command line of this checkout, for the end-to-end tests and the hooks of the
 * helmfiles they deploy: an executable script that runs `src/cli/main.ts` with Node and the
 * tests' TypeScript loader.
 *
 * Usage (as a script): node -r test/helpers/register-ts.js e2e/helmfile/armada-cdk.ts ARGS...
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Writes `dir/armada-cdk`, a shell script that runs this checkout's CLI; returns its path. */
export function armadaCdkExecutable(dir: string): string {
  const file = path.join(dir, 'armada-cdk');
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  fs.writeFileSync(file, `#!/bin/sh\nexec ${q(process.execPath)} -r ${q(path.join(ROOT, 'test', 'helpers', 'register-ts.js'))} ${q(__filename)} "$@"\n`, { mode: 0o755 });
  return file;
}

if (require.main === module) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only when run as the CLI
  const { main } = require('../../src/cli/main') as typeof import('../../src/cli/main');
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
