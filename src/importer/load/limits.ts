/**
 * What one run reads at most, so that no input, however it is made, takes memory without bound.
 * Memory grows with the input: about 10 bytes per byte of a real site (the 8,000-chart benchmark
 * site, 16 MB, peaks at 170 MB), 22 for one huge document of short keys, and far more for an input
 * made of tiny documents or tiny findings (10 MB of `---` lines was 2.5 million empty documents,
 * each with its error: 2.4 GB). Each limit is several times what a real site needs.
 */
import { withCommas } from '../../model/diagnostics';

/** The largest input (file or stdin) read, in bytes: four times the 8,000-chart benchmark site. */
export { MAX_INPUT_BYTES } from '../../values-schema/read-file';

/** The most documents read in one run, all inputs together: a site of 8,000 charts has about 9,000. */
export const MAX_DOCUMENTS = 100_000;

/**
 * The most problems (errors and warnings) the loader finds in one run before it stops reading: a
 * site with that many has one mistake repeated, and the first ones say what it is.
 */
export const MAX_LOAD_FINDINGS = 100_000;

/** One run's count of documents and findings against the limits, shared by its inputs. */
export class LoadBudget {
  /** Documents read by the inputs before the current one. */
  public documents = 0;
  /** Findings of the inputs before the current one. */
  public findings = 0;
  /** Set once a limit is reached: nothing more is read. */
  public stopped = false;
  /**
   * Nodes the aliases of the documents read so far add when expanded: the expansion budget
   * (`ALIAS_EXPANSION_BUDGET`) bounds the run, since documents that each stay under it would
   * together make output of any size.
   */
  public aliasNodes = 0;
  /** Characters the aliases of the documents read so far add (`ALIAS_EXPANSION_CHAR_BUDGET`). */
  public aliasChars = 0;
}

/** Why reading or checking stopped at {@link MAX_LOAD_FINDINGS}. */
export const TOO_MANY_FINDINGS = `${withCommas(MAX_LOAD_FINDINGS)} problems were found before this point; fix those first (they are most likely one mistake, repeated)`;
