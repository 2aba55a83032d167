/** Child process of bench/run: runs one case of one benchmark and prints the peak RSS in bytes. */
import * as path from 'path';
import { Benchmark } from './harness';

async function main() {
  const [file, title, caseName] = process.argv.slice(2);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(path.join(__dirname, file)) as { benchmarks: () => Promise<Benchmark[]> | Benchmark[] };
  const b = (await mod.benchmarks()).find((x) => x.title === title)!;
  await b.setup?.();
  const c = [b.subject, ...b.baselines].find((x) => x.name === caseName)!;
  global.gc?.();
  await c.run();
  // maxRSS is the process's high-water mark, in kilobytes (modules loaded by the case included).
  process.stdout.write(String(process.resourceUsage().maxRSS * 1024));
}

main().catch(() => process.exit(1));
