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
 * documents (computed lazily: positions are only looked up when a diagnostic needs them).
 */
export interface Origin {
  /** Location of the whole object, or of one of its fields when the origin can tell. */
  locate(field?: FieldPath): { readonly location: string; readonly document?: string | undefined; readonly field?: string | undefined };
  /**
   * The document the object was read from, known without locating anything: enough to put the
   * object's diagnostics in input order among other documents' and to group like ones, so that
   * only the diagnostics that are printed need a position.
   * @default - none: the object's diagnostics are ordered by their location
   */
  readonly source?: OriginSource | undefined;
  /**
   * The fields of the `metadata` of the document the object was read from, besides `schema` and
   * `name`, in their order (Deckhand's `layeringDefinition`, `storagePolicy`, `labels`,
   * `substitutions`): Armada does not read them, but the documents outputs write them back, so
   * that a site converted between document versions keeps what its other tools need.
   * @default - none
   */
  documentMetadata?(): Readonly<Record<string, unknown>> | undefined;
}

/** The document an {@link Origin} was read from. */
export interface OriginSource {
  /** The file, as `location` names it. */
  readonly file: string;
  /**
   * The line where the document starts: every position `locate` gives is on this line or after
   * it, and before the line where the file's next document starts.
   */
  readonly startLine: number;
  /** What `locate` gives as `document`. */
  readonly document: string;
}

/** Origin of an object defined by a construct: fields are named in camelCase, as in the props. */
export class ConstructOrigin implements Origin {
  constructor(public readonly path: string) {}
  public locate(field?: FieldPath) {
    return { location: this.path, field: field && field.length > 0 ? formatFieldPath(field) : undefined };
  }
}

const NO_PATH: FieldPath = [];

/**
 * A diagnostic of an {@link Origin} that asks for its position (and its wire field) only when
 * `location`, `document` or `field` is first read: a run that prints one line for thousands of
 * like warnings locates only that one.
 */
export class DeferredDiagnostic implements Diagnostic {
  private where: Located | undefined;
  private text: string | MessageWriter;
  constructor(
    public readonly severity: Severity,
    public readonly origin: Origin,
    private readonly path: FieldPath | undefined,
    message: string | MessageWriter,
    public readonly code: string,
  ) {
    this.text = message;
  }

  /** Written when first read, when the rule gave a writer: most of many like warnings are only counted. */
  public get message(): string {
    if (typeof this.text !== 'string') this.text = this.write(this.text);
    return this.text;
  }

  /** The message `writer` gives for this diagnostic. */
  protected write(writer: MessageWriter): string {
    return writer(this.fieldPath() ?? []);
  }

  /** The field the diagnostic is about. */
  protected fieldPath(): FieldPath | undefined {
    return this.path;
  }

  private located(): Located {
    return (this.where ??= clean(this.origin.locate(this.fieldPath())));
  }
  public get location(): string {
    return this.located().location;
  }
  public get document(): string | undefined {
    const source = this.origin.source;
    return source !== undefined ? source.document : this.located().document;
  }
  public get field(): string | undefined {
    return this.located().field;
  }
  /** The field as {@link ruleField} names it, without locating the diagnostic. */
  public get rule(): string {
    // Built each time: a cache keyed by path (a WeakMap) cost more than it saved, most paths being
    // a diagnostic's own.
    return ruleField(this.path ?? NO_PATH);
  }
  /** Whether the position has been looked up. */
  public get placed(): boolean {
    return this.where !== undefined;
  }
  /** The same diagnostic as a plain object, with the keys (and their order) of one built directly. */
  public toPlain(): Diagnostic {
    return { severity: this.severity, ...this.located(), message: this.message, code: this.code };
  }
}

/**
 * A {@link DeferredDiagnostic} whose message a {@link MessageWriterOf} writes from `value`, when
 * first read: the rule's writer is one function for every warning of its kind, and `value` is
 * what the rule already holds (a chart's source, a wait), so that a warning found thousands of
 * times keeps no closure, no context and no string of its own.
 */
class DeferredDiagnosticOf<T> extends DeferredDiagnostic {
  constructor(severity: Severity, origin: Origin, path: FieldPath | undefined, writer: MessageWriterOf<T>, private readonly value: T, code: string) {
    // Stored where a plain writer would be, and called with `value` by write() alone.
    super(severity, origin, path, writer as unknown as MessageWriter, code);
  }
  protected override write(writer: MessageWriter): string {
    return (writer as unknown as MessageWriterOf<T>)(this.value, this.fieldPath() ?? []);
  }
}

/**
 * A {@link DeferredDiagnostic} about `[...parent, key]`, which builds that path only when read: a
 * rule that finds thousands of fields of a few objects shares each object's path among them.
 */
class DeferredChildDiagnostic extends DeferredDiagnostic {
  constructor(severity: Severity, origin: Origin, parent: FieldPath, private readonly key: string | number, message: string | MessageWriter, code: string) {
    super(severity, origin, parent, message, code);
  }
  protected override fieldPath(): FieldPath {
    return [...super.fieldPath()!, this.key];
  }
}

/**
 * Like warnings about several keys of one object (a closed values schema prunes every key of a
 * block): one entry that stands for {@link count} diagnostics, each made only when a report
 * prints or lists it, so that a site's quarter million of them are not as many objects to keep,
 * group and order. Read as a {@link Diagnostic}, a run is its member that comes first in the
 * file (on a tie, the first key): the one a grouped report line shows. Only
 * {@link Diagnostics.compact} gives runs, to a reporter that counts each by {@link weightOf};
 * every other accessor gives their members.
 */
export class DeferredDiagnosticRun extends DeferredDiagnostic {
  private firstMember: DeferredDiagnostic | undefined;
  constructor(
    origin: Origin,
    private readonly parent: FieldPath,
    private readonly keys: readonly (string | number)[],
    private readonly writer: string | MessageWriter,
    code: string,
  ) {
    super('warning', origin, parent, writer, code);
  }

  /** How many diagnostics the run stands for. */
  public get count(): number {
    return this.keys.length;
  }
  /** The diagnostics the run stands for, in the order the rule found them. */
  public members(): DeferredDiagnostic[] {
    return this.keys.map((k) => new DeferredChildDiagnostic(this.severity, this.origin, this.parent, k, this.writer, this.code));
  }
  private first(): DeferredDiagnostic {
    if (this.firstMember === undefined) {
      let best: { d: DeferredDiagnostic; line: number; column: number } | undefined;
      for (const d of this.members()) {
        const at = parseLocation(d.location);
        if (best === undefined || at.line < best.line || (at.line === best.line && at.column < best.column)) best = { d, line: at.line, column: at.column };
      }
      this.firstMember = best!.d;
    }
    return this.firstMember;
  }
  public override get message(): string {
    return this.first().message;
  }
  public override get location(): string {
    return this.first().location;
  }
  public override get document(): string | undefined {
    return this.origin.source?.document ?? this.first().document;
  }
  public override get field(): string | undefined {
    return this.first().field;
  }
  public override get placed(): boolean {
    return this.firstMember !== undefined;
  }
  public override toPlain(): Diagnostic {
    return this.first().toPlain();
  }
}

/** How many diagnostics `d` stands for: a {@link DeferredDiagnosticRun} its members, any other one. */
export function weightOf(d: Diagnostic): number {
  return d instanceof DeferredDiagnosticRun ? d.count : 1;
}

/** `ds` with each {@link DeferredDiagnosticRun} replaced by its members, where it stood. */
export function expandRuns(ds: readonly Diagnostic[]): readonly Diagnostic[] {
  if (!ds.some((d) => d instanceof DeferredDiagnosticRun)) return ds;
  return ds.flatMap((d) => (d instanceof DeferredDiagnosticRun ? d.members() : [d]));
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
  if (typeof field === 'string') return field.replace(/\[\d+\]/g, '[]').replace(/^((?:data\.)?values)[.[].*$/s, '$1');
  let out = '';
  for (let i = 0; i < field.length; i++) {
    const seg = field[i];
    if (typeof seg === 'number') out += '[]';
    else out += (out === '' ? '' : '.') + seg;
    if (seg === 'values' && i <= 1) break;
  }
  return out;
}

/**
 * Writes a message from the field it is about, when the message is first read: one writer can
 * serve every warning of a kind, so that thousands of them cost no closure each.
 */
export type MessageWriter = (field: FieldPath) => string;

/**
 * Writes a message from a value the rule holds anyway (see {@link Diagnostics.warnOf}), and the
 * field it is about, when the message is first read.
 */
export type MessageWriterOf<T> = (value: T, field: FieldPath) => string;

const NONE: readonly Diagnostic[] = Object.freeze([]);

/** Collects diagnostics; rules add to it and never throw. */
export class Diagnostics {
  /** As collected, runs ({@link warnBelowEach}) included. */
  private readonly items: Diagnostic[] = [];
  // Made when first read: the reader sets a collector up per chart document, and most of them
  // never find anything.
  /** The runs' members in place of the runs, up to `expandedFrom` of `items`. */
  private expanded: Diagnostic[] | undefined;
  private expandedFrom = 0;
  private plain: Diagnostic[] | undefined;

  /** Every diagnostic, as plain objects (each located). */
  public get all(): readonly Diagnostic[] {
    const collected = this.collected;
    const plain = (this.plain ??= []);
    for (let i = plain.length; i < collected.length; i++) {
      const d = collected[i];
      plain.push(d instanceof DeferredDiagnostic ? d.toPlain() : d);
    }
    return plain;
  }
  /**
   * Every diagnostic as collected: those of {@link error} and {@link warn} are located only when
   * read (see {@link DeferredDiagnostic}). For a reporter that prints some of many.
   */
  public get collected(): readonly Diagnostic[] {
    if (this.expanded === undefined && this.items.length === 0) return NONE;
    const expanded = (this.expanded ??= []);
    for (; this.expandedFrom < this.items.length; this.expandedFrom++) {
      const d = this.items[this.expandedFrom];
      if (d instanceof DeferredDiagnosticRun) expanded.push(...d.members());
      else expanded.push(d);
    }
    return expanded;
  }
  /**
   * {@link collected}, with each run of like warnings ({@link warnBelowEach}) as one
   * {@link DeferredDiagnosticRun}: for a reporter that counts them by {@link weightOf} and
   * prints one line for many.
   */
  public get compact(): readonly Diagnostic[] {
    return this.items;
  }
  public get errors(): Diagnostic[] {
    return errorsOf(this.all);
  }
  public get warnings(): Diagnostic[] {
    return warningsOf(this.all);
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
    this.items.push(new DeferredDiagnostic('error', origin, field, message, code));
  }
  /** @param message - the message, or a writer of it, called when it is first read (for warnings a rule gives by the thousand) */
  public warn(origin: Origin, field: FieldPath | undefined, code: DiagnosticCode, message: string | MessageWriter): void {
    this.items.push(new DeferredDiagnostic('warning', origin, field, message, code));
  }
  /**
   * {@link warn} with a message `write` writes from `value` when it is first read: for a rule that
   * warns about every chart of a large site, one writer at module level and a value the chart
   * already holds cost each warning no closure and no string (a writer closure and its context
   * were most of what thousands of such warnings kept alive).
   */
  public warnOf<T>(origin: Origin, field: FieldPath | undefined, code: DiagnosticCode, write: MessageWriterOf<T>, value: T): void {
    this.items.push(new DeferredDiagnosticOf('warning', origin, field, write, value, code));
  }
  /** {@link warn} about the field `key` of `parent` (which the caller may share among many). */
  public warnBelow(origin: Origin, parent: FieldPath, key: string | number, code: DiagnosticCode, message: string | MessageWriter): void {
    this.items.push(new DeferredChildDiagnostic('warning', origin, parent, key, message, code));
  }
  /** {@link warnBelow} about each of `keys` of `parent`, with one message writer: one run. */
  public warnBelowEach(origin: Origin, parent: FieldPath, keys: readonly (string | number)[], code: DiagnosticCode, message: string | MessageWriter): void {
    if (keys.length === 1) this.warnBelow(origin, parent, keys[0], code, message);
    else if (keys.length > 1) this.items.push(new DeferredDiagnosticRun(origin, parent, keys, message, code));
  }
}

type Located = { location: string; document?: string | undefined; field?: string | undefined };

function clean(loc: { location: string; document?: string | undefined; field?: string | undefined }): Located {
  const out: Located = { location: loc.location };
  if (loc.document !== undefined) out.document = loc.document;
  if (loc.field !== undefined) out.field = loc.field;
  return out;
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
  for (let i = 0; i < ds.length; i++) {
    const d = ds[i];
    if (isError(d)) errors++;
    else warnings += weightOf(d);
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
