/**
 * When the armada-cdk command asks V8 to optimize later than it does by default, and how much.
 *
 * V8 optimizes a function once it has run about 66 kB of bytecode (V8 11, Node.js 20; V8 12 and
 * later: its own bytecode 3,000 times), a threshold made for pages and servers that run for
 * hours. A conversion runs each per-chart function a few thousand times and exits: at that
 * threshold its compiler threads spend more CPU optimizing the per-chart code than
 * the optimized code then saves (a sixth of a 2,000-chart conversion's CPU), and on a machine of
 * two cores they take it from the main thread. Four times the threshold leaves the hot loops
 * (parsing, writing) optimized as before: 7 to 19% less CPU and 0 to 7% less wall time, at 250
 * to 8,000 charts. Only for inputs of 256 KiB or more (about 150 charts): loading the v8 module
 * costs a small run 3 ms, and it compiles too little for the setting to matter.
 *
 * A fixed threshold, however high, is crossed by more functions the larger the input: a function
 * that runs a few hundred bytes of bytecode once per chart crosses it at some number of charts,
 * and at 8,000 charts some thirty more such functions were optimized than at 2,000, whose
 * compilation (the largest inline much of what they call) cost more than it saved. So above
 * 3 MiB (about 2,000 charts) the threshold grows in proportion to the input, 4 times V8's per 3 MiB:
 * a function is then optimized when it runs a given share of the input's work, the same functions
 * at every size, and what optimizing costs stops growing with the input. At 8,000 charts (16
 * times V8's threshold) that is 5 to 12% less CPU than four times, by target, and the same wall
 * time; it levels out at 32 times, since beyond that (about 25 MB) the loops that do most of the
 * work ran unoptimized measurably longer (64 times: 6% more CPU than 16 at 8,000 charts).
 *
 * The command's own process only (`bin/armada-cdk.js` calls {@link tierUpForInputs}, and the
 * standard input of the process's own streams is counted): the library, in a user's own process,
 * leaves V8 as it is, and so does `main` when a test or a benchmark runs it in process. The
 * setting takes effect for every function that has not yet run enough to be counted, so it may
 * come after the code is loaded, as long as it comes before the input is parsed: for a pipe,
 * whose size is not known at start, it comes once that much has been read, and grows as more is.
 */
import * as fs from 'fs';
import type * as Stream from 'stream';

/** Inputs of this many bytes or more get the later threshold. */
export const TIER_UP_INPUT_BYTES = 256 * 1024;

/** V8's own threshold (`--interrupt-budget`, in bytes of bytecode run), which the setting multiplies. */
const V8_INTERRUPT_BUDGET = 67584;

/**
 * V8 12 and later (Node.js 22 and later) have no `--interrupt-budget` (setting it prints
 * "Error: unrecognized flag" on standard error): a function's budget there is its bytecode's
 * length times an invocation count, one for Maglev and one for TurboFan, whose defaults
 * (400 and 3,000 in V8 12.4 to 14.6) the setting multiplies alike. Measured with Node.js 22, 24
 * and 26 at 2,000 charts: 5 to 11% less CPU with four times, the same wall time.
 */
const V8_INVOCATIONS_FOR_MAGLEV = 400;
const V8_INVOCATIONS_FOR_TURBOFAN = 3000;

/** Input bytes per fourfold of V8's threshold, above the least. */
const BYTES_PER_FOURFOLD = 3 * 1024 * 1024;

/** The least and the most the setting multiplies V8's threshold by. */
const LEAST_FACTOR = 4;
const MOST_FACTOR = 32;

/**
 * How many times V8's threshold the command asks for on an input of `bytes`: none below
 * {@link TIER_UP_INPUT_BYTES}, else 4 for every 3 MiB, at least 4 and at most 32 (the module
 * comment says why), a whole number.
 */
export function tierUpFactor(bytes: number): number {
  if (bytes < TIER_UP_INPUT_BYTES) return 1;
  return Math.min(MOST_FACTOR, Math.max(LEAST_FACTOR, Math.floor((LEAST_FACTOR * bytes) / BYTES_PER_FOURFOLD)));
}

/**
 * The V8 flags that make V8's threshold `factor` times its own, for the V8 of `v8Version`
 * (`process.versions.v8`): its threshold's flags changed in V8 12.
 */
export function tierUpFlags(factor: number, v8Version: string = process.versions.v8): string[] {
  const major = Number(/^(\d+)\./.exec(v8Version)?.[1]);
  if (major < 12) return [`--interrupt-budget=${V8_INTERRUPT_BUDGET * factor}`];
  return [`--invocation-count-for-maglev=${V8_INVOCATIONS_FOR_MAGLEV * factor}`, `--invocation-count-for-turbofan=${V8_INVOCATIONS_FOR_TURBOFAN * factor}`];
}

let factor = 1;

/**
 * Asks V8 to optimize later, for an input of `bytes` (see the module comment): only ever raised,
 * so that the standard input counted as it comes can raise it again.
 */
export function raiseTierUpThreshold(bytes: number): void {
  const next = tierUpFactor(bytes);
  if (next <= factor) return;
  factor = next;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const v8 = require('v8') as typeof import('v8');
  for (const flag of tierUpFlags(factor)) v8.setFlagsFromString(flag);
}

/**
 * Whether this process asked V8 to optimize later. V8 stamps a code cache with a hash of its flags
 * and refuses one made under other flags, so a run that raised the threshold does not write the
 * command's code cache (`bin/armada-cdk.js`): every later run, large ones included (they load the
 * cache before raising the threshold), would refuse it and write it again.
 */
export function tierUpRaised(): boolean {
  return factor > 1;
}

/** What `bin/armada-cdk.js` does before it runs the command: the later threshold for a large input. */
export function tierUpForInputs(args: readonly string[]): void {
  raiseTierUpThreshold(inputBytes(args));
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
 * {@link TIER_UP_INPUT_BYTES} have come through and again as more does: from a pipe, every chunk
 * arrives before the parser starts (the reader reads to the end first). The chunks pass as they
 * are; an error or an early end (the reader stopped at its size limit) destroys both streams.
 */
export function countingForTierUp(stream: NodeJS.ReadableStream): NodeJS.ReadableStream {
  // Loaded here: the command loads this module on every run, and most read no standard input.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Transform, pipeline } = require('stream') as typeof Stream;
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen >= TIER_UP_INPUT_BYTES && factor < MOST_FACTOR) raiseTierUpThreshold(seen);
      done(null, chunk);
    },
  });
  // The reader reports the error of the stream it reads: pipeline passes standard input's on.
  pipeline(stream, counter, () => undefined);
  return counter;
}
