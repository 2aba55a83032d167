/**
 * Preloaded (`node -r`) into a benchmark's child process: when the process exits, writes its peak
 * RSS in bytes to the file named by ARMADA_CDK_BENCH_PEAK_FILE. It runs nothing before then.
 */
import * as fs from 'fs';
import { peakBytes } from './peak-bytes';

const file = process.env.ARMADA_CDK_BENCH_PEAK_FILE;
if (file) process.on('exit', () => fs.writeFileSync(file, String(peakBytes())));
