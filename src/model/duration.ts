import { brand, isBranded } from './brand';

const DURATION = Symbol.for('armada-cdk.Duration');

/**
 * A length of time, in whole seconds on the wire (Armada's timeouts are integer seconds).
 *
 * Factories never throw: a negative or fractional amount is reported by validation at synth,
 * with the construct path, together with every other problem in the definition.
 */
/** The longest Go `time.Duration` (2^63 - 1 nanoseconds), in whole seconds: Helm's timeouts and Flux's intervals are read as one. */
export const GO_DURATION_MAX_SECONDS = 9223372036;

export class Duration {
  /** A duration of `amount` seconds. */
  public static seconds(amount: number): Duration {
    return new Duration(amount, 'seconds', amount);
  }
  /** A duration of `amount` minutes. */
  public static minutes(amount: number): Duration {
    return new Duration(amount * 60, 'minutes', amount);
  }
  /** A duration of `amount` hours. */
  public static hours(amount: number): Duration {
    return new Duration(amount * 3600, 'hours', amount);
  }
  /** True when `x` is a Duration (also across copies of this library). */
  public static isDuration(x: unknown): x is Duration {
    return isBranded(x, DURATION);
  }

  private constructor(
    private readonly totalSeconds: number,
    /** The unit the duration was written in, so that generated code and messages read naturally. */
    public readonly unit: 'seconds' | 'minutes' | 'hours',
    /** The amount in `unit`. */
    public readonly amount: number,
  ) {
    brand(this, DURATION);
  }

  /** The duration in seconds, as Armada writes it. */
  public toSeconds(): number {
    return this.totalSeconds;
  }

  /** `10 minutes`, `90 seconds`. */
  public toString(): string {
    const one = this.amount === 1;
    return `${this.amount} ${one ? this.unit.slice(0, -1) : this.unit}`;
  }

  /** Problem with this duration as an Armada timeout, or undefined when it is a valid one. */
  public problem(): string | undefined {
    const s = this.totalSeconds;
    if (!Number.isFinite(s)) return `received ${this.describe()}; a timeout must be a whole number of seconds greater than 0`;
    if (!Number.isInteger(s)) return `received ${this.describe()} (${s} s); a timeout must be a whole number of seconds greater than 0`;
    if (s <= 0) return `received ${this.describe()}; a timeout must be a whole number of seconds greater than 0`;
    return undefined;
  }

  private describe(): string {
    return this.unit === 'seconds' ? `${this.amount} seconds` : `${this.amount} ${this.unit}`;
  }
}

