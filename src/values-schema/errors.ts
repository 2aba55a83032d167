/**
 * Thrown when a values schema cannot be read or compiled. Violations of a schema by values are
 * not errors: `validateValues` returns those.
 */
export class ValuesSchemaError extends Error {
  /** The schema file, when the schema was loaded from one. */
  public readonly file?: string | undefined;
  /** 1-based position of a JSON syntax error in `file`. */
  public readonly line?: number | undefined;
  /** 1-based position of a JSON syntax error in `file`, in UTF-16 code units. */
  public readonly column?: number | undefined;

  /**
   * The schema may be valid, but is beyond what the validator can compile (its `$ref` chains
   * exhaust the stack): the values could not be checked, which is not the user's mistake.
   * @default false
   */
  public readonly beyondValidator: boolean;

  constructor(message: string, where: { file?: string | undefined; line?: number | undefined; column?: number | undefined; beyondValidator?: boolean | undefined } = {}) {
    super(message);
    this.name = 'ValuesSchemaError';
    this.file = where.file;
    this.line = where.line;
    this.column = where.column;
    this.beyondValidator = where.beyondValidator ?? false;
  }
}
