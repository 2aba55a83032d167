/**
 * Child process of bench/run: runs one case of one benchmark and prints its peak RSS in bytes.
 * On Linux the high-water mark is reset after setup (`/proc/self/clear_refs`), so the figure is
 * the case's own peak; elsewhere it is the process's peak, setup included.
 */
import * as fs from 'fs';
import { loadBenchmarks } from './harness';
import { peakBytes } from './peak-bytes';

function resetPeak(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const [file, title, caseName] = process.argv.slice(2);
  const b = (await loadBenchmarks(file)).find((x) => x.title === title)!;
  await b.setup?.();
  const c = [b.subject, ...(b.subjects ?? []), ...b.baselines].find((x) => x.name === caseName)!;
  if (c.peak) {
    await c.peak(); // warm-up, as below: files to bring into the page cache, and Node's compile cache to write
    process.stdout.write(String(await c.peak()));
    return;
  }
  await c.run(); // warm-up: module loading and JIT are not the case's memory
  global.gc?.();
  resetPeak();
  await c.run();
  process.stdout.write(String(peakBytes()));
}

main().catch(() => process.exit(1));
