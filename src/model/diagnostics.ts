/**
 * One diagnostic shape for every layer: the constructs report construct paths, the importer
 * reports `file:line:column`, and each adapter decides how to surface them (cdk8s throws one
 * aggregated error at synth, Pulumi raises a ResourceError, the CLI prints and exits 1).
 */

/** How serious a diagnostic is. */
export type Severity = 'error' | 'warning';

/** A single finding about a definition or a document. */
export interface Diagnostic {
  /** `error` stops synthesis; `warning` is reported and synthesis goes on. */
  readonly severity: Severity;
  /** Where: a construct path (`site/infra/mariadb`) or `file:line:column`. */
  readonly location: string;
  /** The Armada document, when the input was documents (`armada/Chart/v1 mariadb`). */
  readonly document?: string;
  /** The field inside the construct props or document (`wait.resources[0].minReady`). */
  readonly field?: string;
  /** What is wrong: the value received and what is allowed. */
  readonly message: string;
  /** Stable rule identifier (`ARM001`, `timeout`, ...), for filtering and for tests. */
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

/**
 * Where a spec came from, so that a rule written against the spec can point at the user's
 * source: a construct path for the constructs, a file position and wire field name for imported
 * documents (computed lazily: positions are only looked up when a diagnostic needs them).
 */
export interface Origin {
  /** Location of the whole object, or of one of its fields when the origin can tell. */
  locate(field?: FieldPath): { readonly location: string; readonly document?: string; readonly field?: string };
}

/** Origin of an object defined by a construct: fields are named in camelCase, as in the props. */
export class ConstructOrigin implements Origin {
  constructor(public readonly path: string) {}
  public locate(field?: FieldPath) {
    return { location: this.path, field: field && field.length > 0 ? formatFieldPath(field) : undefined };
  }
}

/** Collects diagnostics; rules add to it and never throw. */
export class Diagnostics {
  private readonly items: Diagnostic[] = [];

  public get all(): readonly Diagnostic[] {
    return this.items;
  }
  public get errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'error');
  }
  public get warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === 'warning');
  }
  public get hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }

  public add(d: Diagnostic): void {
    this.items.push(d);
  }
  public addAll(ds: readonly Diagnostic[]): void {
    for (const d of ds) this.items.push(d);
  }

  public error(origin: Origin, field: FieldPath | undefined, code: string, message: string): void {
    this.items.push({ severity: 'error', ...clean(origin.locate(field)), message, code });
  }
  public warn(origin: Origin, field: FieldPath | undefined, code: string, message: string): void {
    this.items.push({ severity: 'warning', ...clean(origin.locate(field)), message, code });
  }
}

function clean(loc: { location: string; document?: string; field?: string }) {
  const out: { location: string; document?: string; field?: string } = { location: loc.location };
  if (loc.document !== undefined) out.document = loc.document;
  if (loc.field !== undefined) out.field = loc.field;
  return out;
}

/** `site/infra/mariadb: wait.timeout: must be ...` or `f.yaml:3:5: armada/Chart/v1 x: data.wait: ...`. */
export function formatDiagnostic(d: Diagnostic): string {
  const parts = [d.location];
  if (d.document) parts.push(d.document);
  if (d.field) parts.push(d.field);
  return `${d.severity}: ${parts.join(': ')}: ${d.message}`;
}

/**
 * Thrown by adapters (cdk8s synth, Testing helpers) when a definition has errors: one error
 * carrying every diagnostic, so that a user fixes them all in one pass.
 */
export class ArmadaValidationError extends Error {
  public readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], what = 'armada-cdk validation') {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    super(
      `${what} failed with ${errors.length} error${errors.length === 1 ? '' : 's'}:\n` +
        diagnostics.map((d) => `  ${formatDiagnostic(d)}`).join('\n'),
    );
    this.name = 'ArmadaValidationError';
    this.diagnostics = diagnostics;
  }
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
