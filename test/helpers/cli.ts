import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Readable } from 'stream';
import { main } from '../../src/cli/main';

/** Runs the CLI in-process with captured output. */
export async function cli(args: string[], options: { stdin?: string | undefined; cwd?: string | undefined } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Readable.from([options.stdin ?? '']),
    cwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr };
}

export function tmpdir(prefix = 'armada-cdk-cli-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function write(dir: string, name: string, content: string | Buffer): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, content);
  return f;
}
