/** The `code` of each diagnostic the loader emits, for filtering and for tests. */
export const LoadCodes = {
  /** A path that cannot be read: missing, a directory, a FIFO or device, no permission, too large. */
  READ_ERROR: 'read-error',
  /** Reading stopped: too many documents, or too many problems found (see `limits.ts`). */
  INPUT_LIMIT: 'input-limit',
  /** Binary data, UTF-16/UTF-32 text, or bytes that are not UTF-8 (Armada decodes every file as UTF-8). */
  NOT_TEXT: 'not-text',
  /** A file or stream without a single YAML document (warning: Armada accepts it). */
  NO_DOCUMENTS: 'no-documents',
  /** Text the YAML parser rejects. */
  YAML_SYNTAX: 'yaml-syntax',
  /** Well-formed YAML that PyYAML's SafeConstructor refuses to build (`=`, unknown tags, bad dates). */
  YAML_CONSTRUCT: 'yaml-construct',
  /** A recursive alias, or aliases that expand beyond the budget (an alias bomb). */
  YAML_ALIAS: 'yaml-alias',
  /** A document nested deeper than PyYAML reads (about 490 levels), which Armada cannot load. */
  YAML_DEPTH: 'yaml-depth',
  /**
   * A key written twice in one mapping, the last value kept as PyYAML does (warning); an error
   * where PyYAML reads the two keys otherwise than this loader (`1` and `'1'`, two keys to
   * PyYAML; `1` and `1.0`, one), or several merges supply one key.
   */
  DUPLICATE_KEY: 'duplicate-key',
  /** A document with no content (`---` followed by nothing), skipped (warning). */
  EMPTY_DOCUMENT: 'empty-document',
  /** A document that is a scalar or a sequence instead of a mapping. */
  NOT_A_MAPPING: 'not-a-mapping',
  /** A document Armada ignores though it looks meant for Armada: no schema, or a near-miss one (warning). */
  IGNORED_DOCUMENT: 'ignored-document',
  /** An Armada document without a string `metadata.name`. */
  MISSING_NAME: 'missing-name',
  /** An Armada document without `data`. */
  MISSING_DATA: 'missing-data',
  /** Armada's own code for a document that fails its JSON schema. */
  SCHEMA: 'ARM100',
} as const;

/** One of {@link LoadCodes}. */
export type LoadCode = (typeof LoadCodes)[keyof typeof LoadCodes];
