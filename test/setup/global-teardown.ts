/** Removes the directory of this run's CLI build (see global-setup.ts). */
import * as fs from 'fs';
import { BUILD_DIR_ENV } from '../helpers/cli-package';

export default function globalTeardown(): void {
  const dir = process.env[BUILD_DIR_ENV];
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
