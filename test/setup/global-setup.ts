/**
 * Jest's global setup: a directory for this run's one build of the CLI (test/helpers/cli-package.ts
 * builds it there the first time a test asks for it, and every later test of the run, in any
 * worker, uses that build). Workers inherit the environment variable set here.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { BUILD_DIR_ENV } from '../helpers/cli-package';

export default function globalSetup(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-test-build-'));
  process.env[BUILD_DIR_ENV] = dir;
  // Node's compile cache (Node.js 22.1 and later; ignored before): the processes the tests start
  // (the CLI, ts-node scripts) compile TypeScript's compiler and our modules once per run, not
  // once per process. A cache the developer set is kept.
  process.env.NODE_COMPILE_CACHE ??= path.join(dir, 'node-compile-cache');
}
