/**
 * JavaScript stand-ins for the PyYAML values that have no JSON equivalent, so that a loaded
 * document can still say what Armada would have seen.
 */

import { brand } from '../../model/brand';
import { YAML_TIMESTAMP_BRAND } from '../../model/values';

/**
 * A YAML 1.1 timestamp, as PyYAML's SafeLoader builds it: a `datetime.date` when there is no time
 * part, otherwise a `datetime.datetime` (naive, or with a fixed UTC offset).
 *
 * Not a `Date`: a `Date` cannot tell a date from a midnight datetime, nor a naive time from UTC,
 * and JSON schema validation must see something that is neither a string nor an object (Armada
 * rejects `reference: 2019-01-01` because the value is a `datetime.date`).
 */
export class PyTimestamp {
  /** `date` for `2001-12-14`, `datetime` for anything with a time part. */
  public readonly kind: 'date' | 'datetime';
  /** Offset east of UTC in minutes; `undefined` for a naive datetime or a date. */
  public readonly utcOffsetMinutes: number | undefined;

  constructor(
    public readonly year: number,
    public readonly month: number,
    public readonly day: number,
    public readonly hour?: number,
    public readonly minute?: number,
    public readonly second?: number,
    public readonly microsecond?: number,
    utcOffsetMinutes?: number,
  ) {
    this.kind = hour === undefined ? 'date' : 'datetime';
    this.utcOffsetMinutes = utcOffsetMinutes;
    // Chart values may keep it: the model and the writers know it by this brand.
    brand(this, YAML_TIMESTAMP_BRAND);
  }

  /** Python's `repr()`: `datetime.date(2002, 12, 14)`, `datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=...)`. */
  public pyRepr(): string {
    if (this.kind === 'date') return `datetime.date(${this.year}, ${this.month}, ${this.day})`;
    const parts = [this.year, this.month, this.day, this.hour ?? 0, this.minute ?? 0, this.second ?? 0, this.microsecond ?? 0];
    // Python drops a zero microsecond, then a zero second (never the minute).
    if (parts[6] === 0) parts.pop();
    if (parts.length === 6 && parts[5] === 0) parts.pop();
    let tz = '';
    if (this.utcOffsetMinutes !== undefined) tz = `, tzinfo=${timezoneRepr(this.utcOffsetMinutes)}`;
    return `datetime.datetime(${parts.join(', ')}${tz})`;
  }

  /** Python's `str()` (= `isoformat(' ')`), which is also what `yaml.safe_dump` writes back. */
  public toString(): string {
    const d = `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`;
    if (this.kind === 'date') return d;
    let t = `${pad(this.hour ?? 0, 2)}:${pad(this.minute ?? 0, 2)}:${pad(this.second ?? 0, 2)}`;
    if (this.microsecond) t += `.${pad(this.microsecond, 6)}`;
    if (this.utcOffsetMinutes !== undefined) {
      const m = Math.abs(this.utcOffsetMinutes);
      t += `${this.utcOffsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(m / 60), 2)}:${pad(m % 60, 2)}`;
    }
    return `${d} ${t}`;
  }

  /** JSON has no timestamp: serialise as Python's `str()`, like `json.dumps(default=str)`. */
  public toJSON(): string {
    return this.toString();
  }

  /** The same instant as a JavaScript `Date` (naive values and dates are taken as UTC). */
  public toDate(): Date {
    const ms = Date.UTC(this.year, this.month - 1, this.day, this.hour ?? 0, this.minute ?? 0, this.second ?? 0, Math.floor((this.microsecond ?? 0) / 1000));
    return new Date(ms - (this.utcOffsetMinutes ?? 0) * 60_000);
  }

  public get [Symbol.toStringTag](): string {
    return 'PyTimestamp';
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function timezoneRepr(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'datetime.timezone.utc';
  // timedelta normalises to days + non-negative seconds: -5h is (days=-1, seconds=68400).
  const total = offsetMinutes * 60;
  const days = Math.floor(total / 86400);
  const seconds = total - days * 86400;
  const fields: string[] = [];
  if (days !== 0) fields.push(`days=${days}`);
  if (seconds !== 0) fields.push(`seconds=${seconds}`);
  return `datetime.timezone(datetime.timedelta(${fields.join(', ')}))`;
}

/**
 * A float whose value is a whole number (`600.0`) or not finite (`.inf`), held only while a
 * document is being built. JavaScript cannot tell `600.0` from `600`, but Armada's Draft-4 schemas
 * can (`600.0 is not of type 'integer'`), so the loader notes where these were and then puts the
 * plain number back.
 */
export class FloatMarker {
  constructor(public readonly value: number) {}
  /** As a mapping key this becomes a string: use Python's spelling, `600.0`. */
  public toString(): string {
    return pyFloatRepr(this.value);
  }
  public get [Symbol.toStringTag](): string {
    return 'PyFloat';
  }
}

/**
 * A scalar PyYAML's SafeConstructor refuses (a plain `=`, an impossible date, `0b_`), held only
 * while a document is being built; the loader reports it with its position and replaces it by the
 * source text.
 */
export class ConstructFailure {
  constructor(
    public readonly text: string,
    public readonly message: string,
  ) {}
  /** As a mapping key PyYAML turns `=` into the string `'='`, and so do we. */
  public toString(): string {
    return this.text;
  }
  public get [Symbol.toStringTag](): string {
    return 'ConstructFailure';
  }
}

/** Python's `repr(float)`: shortest round-trip digits, exponent outside `1e-4 <= |x| < 1e16`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, expText] = Math.abs(x).toExponential().split('e');
  const exp = Number(expText);
  const digits = mant.replace('.', '');
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
    return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
  return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
}
