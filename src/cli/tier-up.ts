/**
 * When the armada-cdk command asks V8 to optimize later than it does by default.
 *
 * V8 optimizes a function once it has run about 66 kB of bytecode, a threshold made for pages and
 * servers that run for hours. A conversion runs each per-chart function a few thousand times and
 * exits: at that threshold its compiler threads spend more CPU optimizing the per-chart code than
 * the optimized code then saves (a sixth of a 2,000-chart conversion's CPU), and on a machine of
 * two cores they take it from the main thread. Four times the threshold leaves the hot loops
 * (parsing, writing) optimized as before: 7 to 19% less CPU and 0 to 7% less wall time, at 250
 * to 8,000 charts. Only for inputs of 256 KiB or more (about 150 charts): loading the v8 module
 * costs a small run 3 ms, and it compiles too little for the setting to matter.
 *
 * The command's own process only (`bin/armada-cdk.js` calls {@link tierUpForInputs}, and the
 * standard input of the process's own streams is counted): the library, in a user's own process,
 * leaves V8 as it is, and so does `main` when a test or a benchmark runs it in process. The
 * setting takes effect for every function that has not yet run enough to be counted, so it may
 * come after the code is loaded, as long as it comes before the input is parsed: for a pipe,
 * whose size is not known at start, it comes once that much has been read.
 */
import * as fs from 'fs';
import type * as Stream from 'stream';

/** Inputs of this many bytes or more get the later threshold. */
export const TIER_UP_INPUT_BYTES = 256 * 1024;

let raised = false;

/** Asks V8 to optimize later (once per process; see the module comment). */
export function raiseTierUpThreshold(): void {
  if (raised) return;
  raised = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('v8') as typeof import('v8')).setFlagsFromString('--interrupt-budget=270336');
}

/** What `bin/armada-cdk.js` does before it runs the command: the later threshold for a large input. */
export function tierUpForInputs(args: readonly string[]): void {
  if (inputBytes(args) >= TIER_UP_INPUT_BYTES) raiseTierUpThreshold();
}

/**
 * The bytes of the command line's inputs that are regular files, standard input (`-`) included
 * when it is one (`validate - < site.yaml`). Any argument may be an input: one that is not a
 * file (a command, a target, an option's value) counts nothing.
 */
export function inputBytes(args: readonly string[]): number {
  let n = 0;
  for (const a of args) {
    if (a.startsWith('-') && a !== '-') continue;
    try {
      const st = a === '-' ? fs.fstatSync(0) : fs.statSync(a);
      if (st.isFile()) n += st.size;
    } catch {
      // not a file, or no standard input at all
    }
  }
  return n;
}

/**
 * `stream` (the process's standard input) as it is read, raising the threshold once
 * {@link TIER_UP_INPUT_BYTES} have come through: from a pipe, the first chunks arrive long before
 * the parser starts. The chunks pass as they are; an error or an early end (the reader stopped at
 * its size limit) destroys both streams.
 */
export function countingForTierUp(stream: NodeJS.ReadableStream): NodeJS.ReadableStream {
  // Loaded here: the command loads this module on every run, and most read no standard input.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Transform, pipeline } = require('stream') as typeof Stream;
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!raised) {
        seen += chunk.length;
        if (seen >= TIER_UP_INPUT_BYTES) raiseTierUpThreshold();
      }
      done(null, chunk);
    },
  });
  // The reader reports the error of the stream it reads: pipeline passes standard input's on.
  pipeline(stream, counter, () => undefined);
  return counter;
}
