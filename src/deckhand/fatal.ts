/**
 * A case where Deckhand stops rendering (it raises, and Pegleg renders nothing): carried up to
 * `renderDocuments` as one error diagnostic on the document it is about.
 */
import type { Doc } from './document';

/** Deckhand refuses the site: `reason` is Deckhand's, `doc` is where to point. */
export class Fatal extends Error {
  constructor(
    public readonly doc: Doc | undefined,
    public readonly code: string,
    public readonly reason: string,
    public readonly field?: string,
  ) {
    super(reason);
  }
}
