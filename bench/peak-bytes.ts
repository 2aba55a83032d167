import * as fs from 'fs';

/** This process's peak RSS in bytes: VmHWM on Linux (which `/proc/self/clear_refs` can reset), else `maxRSS`. */
export function peakBytes(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS * 1024;
}
