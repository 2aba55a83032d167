/**
 * Preloaded (`node -r`) into a benchmark's child process: when the process exits, writes its peak
 * RSS in bytes to the file named by ARMADA_CDK_BENCH_PEAK_FILE. It runs nothing before then.
 */
import * as fs from 'fs';

const file = process.env.ARMADA_CDK_BENCH_PEAK_FILE;
if (file) {
  process.on('exit', () => {
    let bytes = process.resourceUsage().maxRSS * 1024;
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
      if (m) bytes = Number(m[1]) * 1024;
    } catch {
      // not Linux: resourceUsage's figure
    }
    fs.writeFileSync(file, String(bytes));
  });
}
