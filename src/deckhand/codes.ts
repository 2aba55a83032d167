/**
 * The `code` of every diagnostic the Deckhand renderer emits. Stable: users filter on them and
 * the CLI's JSON output carries them.
 */
export const DeckhandCodes = {
  /** A document refused by Deckhand's pre-validation (envelope, metadata or control document schema). */
  DOCUMENT_FORMAT: 'deckhand-format',
  /** Two documents with one (schema, layer, name), or two DataSchemas with one name. */
  DUPLICATE: 'deckhand-duplicate',
  /** No LayeringPolicy, a layer not in its layerOrder, or a parent Deckhand refuses. */
  LAYERING: 'deckhand-layering',
  /** A layering action Deckhand cannot apply (a path missing from the child or the parent). */
  ACTION: 'deckhand-action',
  /** A `replacement: true` document Deckhand refuses. */
  REPLACEMENT: 'deckhand-replacement',
  /** Documents that depend on each other through layering and substitution. */
  CYCLE: 'deckhand-cycle',
  /** A substitution Deckhand skips or completes with null (a warning, as Pegleg renders). */
  SUBSTITUTION: 'deckhand-substitution',
  /** A substitution source (schema, name) that no concrete document provides (a warning, as Pegleg renders). */
  MISSING_SOURCE: 'deckhand-missing-source',
  /** A write through a value shared by a substitution without pattern: the result depends on input order. */
  ALIASING: 'deckhand-aliasing',
  /** A JSONPath or a Python regular expression this renderer cannot run the way Deckhand does. */
  UNSUPPORTED: 'deckhand-unsupported',
  /** An encrypted document whose data is a Barbican reference, which only a Deckhand service can resolve. */
  ENCRYPTION_SOURCE: 'deckhand-encryption-source',
} as const;

/** One of {@link DeckhandCodes}. */
export type DeckhandCode = (typeof DeckhandCodes)[keyof typeof DeckhandCodes];
