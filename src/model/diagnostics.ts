/**
 * One diagnostic shape for every layer: the constructs report construct paths, the importer
 * reports `file:line:column`, and each adapter decides how to surface them (cdk8s throws one
 * aggregated error at synth, Pulumi raises a ResourceError, the CLI prints and exits 1).
 * Every layer formats, counts and filters diagnostics with the helpers here, so that one finding
 * reads the same wherever it surfaces, and builds its "did you mean" hints with {@link suggest}.
 */
import type { DiagnosticCode } from './codes';
import { safeText } from './safe-text';

/** How serious a diagnostic is. */
export type Severity = 'error' | 'warning';

/** A single finding about a definition or a document. */
export interface Diagnostic {
  /** `error` stops synthesis; `warning` is reported and synthesis goes on. */
  readonly severity: Severity;
  /** Where: a construct path (`site/infra/mariadb`) or `file:line:column`. */
  readonly location: string;
  /** The Armada document, when the input was documents (`armada/Chart/v1 mariadb`). */
  readonly document?: string | undefined;
  /** The field inside the construct props or document (`wait.resources[0].minReady`). */
  readonly field?: string | undefined;
  /** What is wrong: the value received and what is allowed. */
  readonly message: string;
  /** Stable rule identifier (`ARM001`, `timeout`, ...), one of `DiagnosticCodes` or the loader's `LoadCodes`. */
  readonly code: string;
}

/** A field inside a spec, in the spec's own (camelCase) terms: `['wait', 'resources', 0, 'minReady']`. */
export type FieldPath = readonly (string | number)[];

/** Renders `['wait', 'resources', 0, 'minReady']` as `wait.resources[0].minReady`. */
export function formatFieldPath(path: FieldPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** A path hundreds of keys long (a document nested too deep), as its first and last few keys. */
export function elidedFieldPath(path: FieldPath): string {
  if (path.length <= 6) return formatFieldPath(path);
  return `${formatFieldPath(path.slice(0, 4))} ... ${formatFieldPath(path.slice(-2)).replace(/^(?!\[)/, '.')}`;
}

/**
 * Where a spec came from, so that a rule written against the spec can point at the user's
 * source: a construct path for the constructs, a file position and wire field name for imported
 * documents.
 */
export interface Origin {
  /** Location of the whole object, or of one of its fields when the origin can tell. */
  locate(field?: FieldPath): { readonly location: string; readonly document?: string | undefined; readonly field?: string | undefined };
  /**
   * The fields of the `metadata` of the document the object was read from, besides `schema` and
   * `name`, in their order (Deckhand's `layeringDefinition`, `storagePolicy`, `labels`,
   * `substitutions`): Armada does not read them, but the documents outputs write them back, so
   * that a site converted between document versions keeps what its other tools need.
   * @default - none
   */
  documentMetadata?(): Readonly<Record<string, unknown>> | undefined;
}

/** Origin of an object defined by a construct: fields are named in camelCase, as in the props. */
export class ConstructOrigin implements Origin {
  constructor(public readonly path: string) {}
  public locate(field?: FieldPath) {
    return { location: this.path, field: field && field.length > 0 ? formatFieldPath(field) : undefined };
  }
}

/** A diagnostic about `field` of the object `origin` is about, located now. */
function diagnosticOf(severity: Severity, origin: Origin, field: FieldPath | undefined, code: string, message: string): Diagnostic {
  const at = origin.locate(field);
  return {
    severity,
    location: at.location,
    ...(at.document !== undefined ? { document: at.document } : {}),
    ...(at.field !== undefined ? { field: at.field } : {}),
    message,
    code,
  };
}

/** `file:line:column` split, or the whole location as the file, at line 0 (construct paths, `STDIN`). */
export function parseLocation(location: string): { file: string; line: number; column: number } {
  const c2 = location.lastIndexOf(':');
  const c1 = c2 > 0 ? location.lastIndexOf(':', c2 - 1) : -1;
  if (c1 >= 0 && isDigits(location, c1 + 1, c2) && isDigits(location, c2 + 1, location.length)) {
    return { file: location.slice(0, c1), line: Number(location.slice(c1 + 1, c2)), column: Number(location.slice(c2 + 1)) };
  }
  return { file: location, line: 0, column: 0 };
}

function isDigits(s: string, from: number, to: number): boolean {
  if (from >= to) return false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * The field a rule is about, for grouping like findings: indices written `[]`, and chart values
 * as `values` (a rule about values finds each key of them). `['wait', 'resources', 0, 'minReady']`
 * is `wait.resources[].minReady`; `data.values.a.b` is `data.values`.
 */
export function ruleField(field: FieldPath | string): string {
  if (typeof field === 'string') {
    // Asked once per diagnostic of a report: prefix tests, and a regex only for a field with an index.
    if (isBelow(field, 'values')) return 'values';
    if (isBelow(field, 'data.values')) return 'data.values';
    return field.includes('[') ? field.replace(/\[\d+\]/g, '[]') : field;
  }
  let out = '';
  for (let i = 0; i < field.length; i++) {
    const seg = field[i];
    if (typeof seg === 'number') out += '[]';
    else out += (out === '' ? '' : '.') + seg;
    if (seg === 'values' && i <= 1) break;
  }
  return out;
}

/** Whether `field` is a field inside `parent` (`values.a`, `values[0]` inside `values`). */
function isBelow(field: string, parent: string): boolean {
  if (field.length <= parent.length || !field.startsWith(parent)) return false;
  const c = field.charCodeAt(parent.length);
  return c === 46 /* . */ || c === 91 /* [ */;
}

/** Writes a message from the field it is about: one writer serves every warning of a kind. */
export type MessageWriter = (field: FieldPath) => string;

/** Writes a message from a value the rule holds anyway (see {@link Diagnostics.warnOf}), and the field it is about. */
export type MessageWriterOf<T> = (value: T, field: FieldPath) => string;

/** Collects diagnostics, located as they are added; rules add to it and never throw. */
export class Diagnostics {
  private readonly items: Diagnostic[] = [];

  /** Every diagnostic, in the order added. */
  public get all(): readonly Diagnostic[] {
    return this.items;
  }
  public get errors(): Diagnostic[] {
    return errorsOf(this.items);
  }
  public get warnings(): Diagnostic[] {
    return warningsOf(this.items);
  }
  public get hasErrors(): boolean {
    return hasErrors(this.items);
  }

  public add(d: Diagnostic): void {
    this.items.push(d);
  }
  public addAll(ds: readonly Diagnostic[]): void {
    for (const d of ds) this.items.push(d);
  }

  public error(origin: Origin, field: FieldPath | undefined, code: DiagnosticCode, message: string): void {
    this.items.push(diagnosticOf('error', origin, field, code, message));
  }
  /** @param message - the message, or a writer of it from the field */
  public warn(origin: Origin, field: FieldPath | undefined, code: DiagnosticCode, message: string | MessageWriter): void {
    this.items.push(diagnosticOf('warning', origin, field, code, typeof message === 'string' ? message : message(field ?? [])));
  }
  /** {@link warn} with a message `write` writes from `value`: one writer at module level for a rule's every warning. */
  public warnOf<T>(origin: Origin, field: FieldPath | undefined, code: DiagnosticCode, write: MessageWriterOf<T>, value: T): void {
    this.items.push(diagnosticOf('warning', origin, field, code, write(value, field ?? [])));
  }
  /** {@link warn} about the field `key` of `parent`. */
  public warnBelow(origin: Origin, parent: FieldPath, key: string | number, code: DiagnosticCode, message: string | MessageWriter): void {
    this.warn(origin, [...parent, key], code, message);
  }
}

/** Whether `d` stops synthesis. */
export function isError(d: Diagnostic): boolean {
  return d.severity === 'error';
}

/** Whether any of `ds` is an error (warnings alone never stop synthesis). */
export function hasErrors(ds: readonly Diagnostic[]): boolean {
  return ds.some(isError);
}

/** The errors among `ds`, in their order. */
export function errorsOf(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds.filter(isError);
}

/** The warnings among `ds`, in their order. */
export function warningsOf(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds.filter((d) => d.severity === 'warning');
}

/**
 * How a diagnostic is laid out on one line; each surface keeps the layout its users already read:
 * - `severity-first`: `error: site/infra/mariadb: wait.timeout: must be ...`, for the library's
 *   aggregated errors and printed warnings;
 * - `compiler`: `f.yaml:3:5: error: armada/Chart/v1 x: data.wait: ...`, as compilers print them
 *   (the CLI), empty parts left out;
 * - `bare`: `site/infra/mariadb: wait.timeout: must be ...`, for cdk8s validation messages, which
 *   cdk8s labels as errors itself.
 */
export type DiagnosticLayout = 'severity-first' | 'compiler' | 'bare';

/**
 * One diagnostic as one line: where (location, document, field), then what, with control
 * characters escaped and the credentials of any URL in it hidden ({@link safeText}): a warning
 * quoting a chart's location must not put its token into a CI log.
 * @param layout - see {@link DiagnosticLayout}; `severity-first` by default.
 */
export function formatDiagnostic(d: Diagnostic, layout: DiagnosticLayout = 'severity-first'): string {
  const within = [d.document, d.field].filter(present);
  switch (layout) {
    case 'compiler':
      return safeText([d.location, d.severity, ...within, d.message].filter(present).join(': '));
    case 'bare':
      return safeText([d.location, ...within].filter(present).join(': ') + ': ' + d.message);
    case 'severity-first':
      return safeText(`${d.severity}: ${[d.location, ...within].join(': ')}: ${d.message}`);
  }
}

export { printable } from './safe-text';

function present(part: string | undefined): part is string {
  return part !== undefined && part !== '';
}

/**
 * `1,000,000`: a count as the messages write it (`toLocaleString` would load the ICU data, some
 * 20 ms, in every run that builds a message with it).
 */
export function withCommas(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `1 error`, `2 warnings`, `3 charts`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `2 errors, 1 warning`: the count line that ends a report. */
export function summary(ds: readonly Diagnostic[]): string {
  let errors = 0;
  let warnings = 0;
  for (const d of ds) {
    if (isError(d)) errors++;
    else warnings++;
  }
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/**
 * The message of an error that carries several diagnostics: `heading:` then one indented
 * `severity-first` line per diagnostic (`ArmadaManifest site failed with 2 errors:\n  error: ...`).
 */
export function diagnosticsMessage(heading: string, ds: readonly Diagnostic[]): string {
  return `${heading}:\n` + ds.map((d) => `  ${formatDiagnostic(d)}`).join('\n');
}

/**
 * Thrown by adapters (cdk8s synth, Testing helpers) when a definition has errors: one error
 * carrying every diagnostic, so that a user fixes them all in one pass.
 */
export class ArmadaValidationError extends Error {
  public readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], what = 'armada-cdk validation') {
    super(diagnosticsMessage(`${what} failed with ${plural(errorsOf(diagnostics).length, 'error')}`, diagnostics));
    this.name = 'ArmadaValidationError';
    this.diagnostics = diagnostics;
  }
}

/**
 * How a mistyped name is matched to the one meant. Each caller keeps the tolerance its messages
 * have always had: Armada's own (Python) messages forgive a swapped pair of letters, the values
 * schema's a difference of case.
 */
export interface SuggestionRule {
  /** The largest distance still taken for a typo, given the word and the closest candidate. */
  readonly within: (word: string, candidate: string) => number;
  /** Count an adjacent transposition (`lables` for `labels`) as one edit rather than two. */
  readonly transpositions: boolean;
  /**
   * How letter case counts: `exact`; `ignored` (both sides compared in lower case); `equal-only`
   * (a candidate that differs only in case is distance 0, otherwise case counts).
   */
  readonly letterCase: 'exact' | 'ignored' | 'equal-only';
  /** Which of equally close candidates wins: the `first` given, or the `alphabetical` first. */
  readonly ties: 'first' | 'alphabetical';
  /** Whether a candidate equal to the word itself may be suggested. */
  readonly offerSelf: boolean;
}

/** The rules of the "did you mean" hints, one per family of messages. */
export const SuggestionRules = {
  /** Names in the model and the CLI (chart and group names, wait types, options, commands). */
  NAME: {
    within: (word: string) => Math.max(2, Math.floor(word.length / 3)),
    transpositions: false,
    letterCase: 'exact',
    ties: 'alphabetical',
    offerSelf: true,
  },
  /** Armada's schema keys, enum values and document schemas: one edit in three characters, case ignored. */
  ARMADA_KEY: {
    within: (word: string, candidate: string) => Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3)),
    transpositions: true,
    letterCase: 'ignored',
    ties: 'first',
    offerSelf: false,
  },
  /** Keys of a chart's values.schema.json: the same letters but for case, or a couple of edits away. */
  VALUES_KEY: {
    within: (word: string) => Math.min(2, Math.floor(word.length / 3)),
    transpositions: false,
    letterCase: 'equal-only',
    ties: 'first',
    offerSelf: true,
  },
} as const satisfies Record<string, SuggestionRule>;

/** The candidate a mistyped `word` most likely meant, or `undefined` when none is close enough. */
export function suggest(word: string, candidates: Iterable<string>, rule: SuggestionRule = SuggestionRules.NAME): string | undefined {
  const lower = word.toLowerCase();
  const distance = (c: string): number => {
    if (!rule.offerSelf && c === word) return Infinity;
    if (rule.letterCase === 'equal-only' && c.toLowerCase() === lower) return 0;
    return rule.letterCase === 'ignored' ? editDistance(lower, c.toLowerCase(), rule.transpositions) : editDistance(word, c, rule.transpositions);
  };
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(c);
    if (d < bestD || (rule.ties === 'alphabetical' && d === bestD && best !== undefined && c < best)) {
      best = c;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= rule.within(word, best) ? best : undefined;
}

/**
 * Levenshtein distance; with `transpositions`, an adjacent swap is one edit (optimal string
 * alignment), so that `sequnced` is one step from `sequenced` like `lables` from `labels`.
 */
export function editDistance(a: string, b: string, transpositions = false): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev2: number[] = [];
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur.push(d);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length];
}

/** Quotes a received value for a message: strings in quotes, everything else as JSON. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (typeof value === 'function') return 'a function';
  try {
    const s = JSON.stringify(value);
    return s === undefined ? String(value) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
  } catch {
    return String(value);
  }
}
