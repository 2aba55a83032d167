import { main } from '../src/cli/main';
import { Readable } from 'stream';
(async () => {
  const code = await main(process.argv.slice(2), { stdout: process.stdout as any, stderr: process.stderr as any, stdin: Readable.from(['']), cwd: process.cwd() });
  process.exitCode = code;
})();
