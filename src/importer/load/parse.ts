/**
 * YAML streams to documents, with PyYAML `safe_load_all` semantics.
 *
 * Values are built by js-yaml with a PyYAML-compatible schema; positions are computed
 * afterwards, one document at a time, only for the documents a diagnostic is about.
 */
import { jsyaml } from './js-yaml';
import { Diagnostic, elidedFieldPath, formatFieldPath, hasErrors, withCommas } from '../../model/diagnostics';
import { aliasExpansion, ALIAS_EXPANSION_BUDGET, ALIAS_EXPANSION_CHAR_BUDGET, findAliasProblem, mayHaveAliases } from './aliases';
import { LoadCodes } from './codes';
import { ChunkSource, LoadedDocument, YamlDocument } from './document';
import type { SourcePosition } from './wire-path';
import { KeptIndexes } from './positions';
import { pyStrRepr } from './py-repr';
import type * as JsYaml from 'js-yaml';
import { constructStats, mayHaveNonSpecificTag, PYYAML_SAFE_SCHEMA, resolveNonSpecificTag } from './pyyaml-schema';
import { Chunk, positionOf, SourceText, splitDocuments } from './source';
import { keyProblems, keyProblemsPrefilter, longKeyMessage, longKeysInAst, mayHaveKeyProblemsIn, mayHaveLongKey, repeatedKeyFinding } from './pyyaml-keys';
import { KeyWatch } from './key-watch';
import { finalBlockScalarListener, mayEndInBlockScalar } from './final-block-scalar';
import { mayMisreadEmptyItem } from './js-yaml-quirks';
import { firstTooDeep, mayNestDeeperThan, PYYAML_MAX_DEPTH } from './depth';
import { LoadBudget, MAX_DOCUMENTS, MAX_LOAD_FINDINGS, TOO_MANY_FINDINGS } from './limits';
import { firstRefusedTab } from './tabs';
import type { collectSpecials } from './specials';
import { isUnknownTag, type UnknownTags } from './yaml-ast-load';

/** Documents and diagnostics from one or more streams. */
export interface ParseResult {
  /** Every document that could be built, in stream order, files in the order given. */
  readonly documents: LoadedDocument[];
  /** Syntax errors, constructor errors, duplicate-key warnings, empty streams. */
  readonly diagnostics: Diagnostic[];
}

// PyYAML's Reader accepts only these characters anywhere in the stream, comments included.
// Surrogates are let through: decoded UTF-8 only has them in valid pairs.
const NON_PRINTABLE_RE = /[^\t\n\r\x20-\x7E\x85\xA0-\uFFFD]/;

// Line breaks to PyYAML and not to js-yaml, which PyYAML keeps as such in a scalar's content (NEL,
// which PyYAML reads as LF everywhere, is made LF before parsing: see normalizeLineBreaks).
const LINE_SEPARATOR_RE = /[\u2028\u2029]/;

/** Options of {@link parseYamlStream}. */
export interface ParseOptions {
  /**
   * What a node whose tag PyYAML's SafeLoader has no constructor for becomes: `refuse`, a
   * constructor error, as `safe_load` raises; `null`, as read by a loader with a catch-all
   * constructor that returns `None` (Pegleg's), so `!foo x`, `!!python/tuple [1, 2]` and, as a
   * value, a plain `=` or `<<` are null, and nothing inside such a node is checked. Every other
   * value is built as `refuse` builds it.
   * @default 'refuse'
   */
  readonly unknownTags?: UnknownTags | undefined;
}

/**
 * Parses one YAML stream the way Armada reads it (`yaml.safe_load_all`), keeping every document
 * it can: a malformed document is reported at the parser's line and column and the others still
 * load (PyYAML would reject the whole stream; the error is kept, so the caller still stops).
 * @default options - `{}`
 */
export function parseYamlStream(input: SourceText, options: ParseOptions = {}): ParseResult {
  return parseStream(input, new KeptIndexes(), new LoadBudget(), options.unknownTags ?? 'refuse');
}

function parseStream(input: SourceText, kept: KeptIndexes, budget: LoadBudget, unknownTags: UnknownTags = 'refuse'): ParseResult {
  const documents: LoadedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  const file = input.file;
  const text = normalizeLineBreaks(input.text.charCodeAt(0) === 0xfeff ? input.text.slice(1) : input.text);

  const separator = LINE_SEPARATOR_RE.exec(text);
  if (separator) {
    const p = positionOf(text, separator.index);
    const which = separator[0] === '\u2028' ? 'U+2028 (line separator)' : 'U+2029 (paragraph separator)';
    diagnostics.push({
      severity: 'error',
      location: `${file}:${p.line}:${p.column}`,
      code: LoadCodes.YAML_SYNTAX,
      message: `${which} is a line break to PyYAML, which Armada reads documents with, and not to this loader, so the two would read this document differently; use a line break, or write it as the escape "\\${separator[0] === '\u2028' ? 'L' : 'P'}" in a double-quoted string`,
    });
  }

  const bad = NON_PRINTABLE_RE.exec(text);
  if (bad) {
    const p = positionOf(text, bad.index);
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    diagnostics.push({
      severity: 'error',
      location: `${file}:${p.line}:${p.column}`,
      code: LoadCodes.YAML_SYNTAX,
      message: `unacceptable character #x${code}: special characters are not allowed`,
    });
  }

  for (const chunk of splitDocuments(text, MAX_DOCUMENTS - budget.documents)) {
    if (budget.stopped) break;
    if (budget.documents + documents.length >= MAX_DOCUMENTS) {
      stopReading(budget, diagnostics, `${file}:${chunk.docLine}:1`, `the input holds more than ${withCommas(MAX_DOCUMENTS)} documents (a site of 8,000 charts has about 9,000); is it the rendered site you meant?`);
      break;
    }
    if (budget.findings + diagnostics.length >= MAX_LOAD_FINDINGS) {
      stopReading(budget, diagnostics, `${file}:${chunk.docLine}:1`, TOO_MANY_FINDINGS);
      break;
    }
    if (chunk.missingStartAt !== undefined) {
      const p = positionOf(text, chunk.missingStartAt, chunk.start, chunk.line);
      diagnostics.push({
        severity: 'error',
        location: `${file}:${p.line}:${p.column}`,
        code: LoadCodes.YAML_SYNTAX,
        message: `expected '<document start>', but found ${tokenName(text, chunk.missingStartAt)}: after '...' a new document must start with '---'`,
      });
      continue;
    }
    loadChunk(text, chunk, file, documents, diagnostics, bad !== null, kept, budget, unknownTags);
  }
  if (!budget.stopped) reportRefusedTab(text, file, diagnostics);
  budget.documents += documents.length;
  budget.findings += diagnostics.length;

  if (documents.length === 0 && !hasErrors(diagnostics)) {
    diagnostics.push({ severity: 'warning', location: file, code: LoadCodes.NO_DOCUMENTS, message: `${file} contains no YAML documents` });
  }
  return { documents, diagnostics };
}

/** {@link parseYamlStream} over several inputs, documents concatenated as Armada does, counted by `budget` (see `limits.ts`). */
export function parseInputs(inputs: readonly SourceText[], budget: LoadBudget = new LoadBudget()): ParseResult {
  const kept = new KeptIndexes();
  const documents: LoadedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const input of inputs) {
    if (budget.stopped) break;
    const r = parseStream(input, kept, budget);
    for (const d of r.documents) documents.push(d);
    for (const d of r.diagnostics) diagnostics.push(d);
  }
  return { documents, diagnostics };
}

/** The diagnostics of one stream, counted against the run's {@link LoadBudget}. */
class Findings {
  constructor(
    private readonly diagnostics: Diagnostic[],
    private readonly budget: LoadBudget,
  ) {}

  /** How many more findings the run may report. */
  public room(): number {
    return MAX_LOAD_FINDINGS - this.budget.findings - this.diagnostics.length;
  }

  /** Adds `d`, or, with no room left, stops reading (at `d`); false once stopped. */
  public add(d: Diagnostic): boolean {
    if (this.room() > 0) return this.diagnostics.push(d) > 0;
    stopReading(this.budget, this.diagnostics, d.location, TOO_MANY_FINDINGS);
    return false;
  }

  /** {@link add} of an error of `doc` at `at`. */
  public errorAt(doc: YamlDocument, at: { readonly line: number; readonly column: number }, code: string, message: string): boolean {
    return this.add({ severity: 'error', location: `${doc.file}:${at.line}:${at.column}`, ...(doc.label ? { document: doc.label } : {}), code, message });
  }
}

/** What the constructors made while one chunk was read (see `constructStats`). */
function constructedDuring<T>(read: () => T): { result: T; specials: boolean; merges: boolean; failures: number } {
  const { specials, merges, failures } = constructStats;
  const result = read();
  return { result, specials: constructStats.specials !== specials, merges: constructStats.merges !== merges, failures: constructStats.failures - failures };
}

/** Reads the documents of one chunk, checks each as PyYAML would read it, and keeps those it can. */
function loadChunk(text: string, chunk: Chunk, file: string, documents: LoadedDocument[], diagnostics: Diagnostic[], nonPrintableReported: boolean, kept: KeptIndexes, budget: LoadBudget, unknownTags: UnknownTags): void {
  const chunkText = text.slice(chunk.start, chunk.end);
  const read = constructedDuring(() => loadWithJsYaml(chunkText, chunk, file, diagnostics, nonPrintableReported, mayHaveLongKey(chunkText), unknownTags));
  const loaded = read.result;
  if (loaded === undefined) return;
  const findings = unknownTags === 'null' ? new OutsideUnknownTags(diagnostics, budget) : new Findings(diagnostics, budget);
  const source = new ChunkSource(text, chunk, kept);
  // Cheap text tests rule out most checks; a chunk the second reader built (keys with
  // properties, which the tests do not expect) is checked in full.
  const full = loaded.secondReader;
  const checkAliases = full || mayHaveAliases(chunkText);
  const keyScan = full ? 'ast' : keyProblemsPrefilter(chunkText);
  const checks: DocumentChecks = {
    keys: loaded.keys,
    keyProblems: keyScan === 'ast' || (keyScan === 'keys' && (loaded.duplicates || read.merges)) ? true : keyScan === 'keys' ? 'value' : false,
    merges: read.merges,
    duplicates: loaded.duplicates,
    unknownTagsAsNull: unknownTags === 'null',
  };
  const mayBeTooDeep = full || mayNestDeeperThan(chunkText);
  let failuresFound = 0;
  const built: YamlDocument[] = [];
  for (let i = 0; i < loaded.values.length && !budget.stopped; i++) {
    const value = loaded.values[i];
    if (checkAliases && aliasBudgetExceeded(value, text, chunk, file, diagnostics, budget)) continue;
    if (mayBeTooDeep && tooDeepForArmada(value, source, i, file, chunk, diagnostics)) continue;
    let raw = value;
    let specials;
    let failures: ReturnType<typeof collectSpecials>['failures'] = [];
    // Loaded only for a chunk whose constructors made a value that needs a second look (rare).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (read.specials) ({ value: raw, specials, failures } = (require('./specials') as typeof import('./specials')).collectSpecials(value));
    const doc = new YamlDocument(source, i, file, documents.length, chunk.docLine, raw, specials, !read.specials && !checkAliases);
    if (findings instanceof OutsideUnknownTags) findings.document(doc, i);
    documents.push(doc);
    built.push(doc);
    failuresFound += failures.length;
    if (!reportConstructFailures(doc, failures, findings)) return;
    if (!checkDocument(doc, chunkText, i, checks.keyProblems === 'value' ? { ...checks, keyProblems: mayHaveKeyProblemsIn(value, checkAliases) } : checks, findings)) return;
  }
  // Failures made while building but found in no value: in keys, or in values a repeated key
  // replaced (PyYAML constructs both, and fails). Plain `=` and `<<` keys make some that are none.
  if (read.failures > failuresFound && !budget.stopped) {
    for (const doc of built) {
      if (findings instanceof OutsideUnknownTags) findings.document(doc, doc.indexInChunk);
      for (const f of doc.lostConstructFailures()) {
        if (!findings.errorAt(doc, f.at, LoadCodes.YAML_CONSTRUCT, f.message)) return;
      }
    }
  }
}

/**
 * The findings of a stream read with unknown tags as null: what PyYAML never constructs (the
 * content of a node with such a tag) cannot fail, so the constructor's and the key checks'
 * findings there are dropped; the parser's (syntax, depth, aliases) stand.
 */
class OutsideUnknownTags extends Findings {
  private file = '';
  private spans: { from: SourcePosition; to: SourcePosition }[] = [];

  /** The document the next findings are about, document `index` of its chunk. */
  public document(doc: YamlDocument, index: number): void {
    const ast = doc.ast();
    const parsed = ast.documents()[index];
    this.file = doc.file;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spans = parsed ? (require('./yaml-ast-load') as typeof import('./yaml-ast-load')).unknownTagSpans(parsed) : [];
    this.spans = spans.map(([from, to]) => ({ from: ast.position(ast.propertiesStart(from)), to: ast.position(to) }));
  }

  public override add(d: Diagnostic): boolean {
    if ((d.code === LoadCodes.YAML_CONSTRUCT || d.code === LoadCodes.DUPLICATE_KEY) && this.inSpan(d.location)) return true;
    return super.add(d);
  }

  private inSpan(location: string): boolean {
    if (this.spans.length === 0 || !location.startsWith(`${this.file}:`)) return false;
    const m = /:(\d+):(\d+)$/.exec(location);
    if (!m) return false;
    const at = { line: Number(m[1]), column: Number(m[2]) };
    const before = (a: SourcePosition, b: SourcePosition) => a.line < b.line || (a.line === b.line && a.column < b.column);
    return this.spans.some((s) => !before(at, s.from) && before(at, s.to));
  }
}

/** Which of {@link checkDocument}'s checks a chunk needs. */
interface DocumentChecks {
  /** Collection keys and long keys: from js-yaml's parse (see `key-watch.ts`), or the AST's for the second reader's documents. */
  readonly keys: KeyWatch | 'ast' | undefined;
  /** Whether {@link keyProblems} reads the AST; `value`: if the document's value may hold one (`mayHaveKeyProblemsIn`). */
  readonly keyProblems: boolean | 'value';
  readonly merges: boolean;
  readonly duplicates: boolean;
  /** The stream is read with unknown tags as null (see {@link ParseOptions.unknownTags}). */
  readonly unknownTagsAsNull?: boolean | undefined;
}

/** Reports the values PyYAML's constructors refuse; false once reading stopped. */
function reportConstructFailures(doc: YamlDocument, failures: ReturnType<typeof collectSpecials>['failures'], findings: Findings): boolean {
  for (const f of failures) {
    const ok = findings.add({
      severity: 'error',
      location: doc.location(f.path),
      ...(doc.label ? { document: doc.label } : {}),
      ...(f.path.length ? { field: formatFieldPath(f.path) } : {}),
      code: LoadCodes.YAML_CONSTRUCT,
      message: f.failure.message + (f.failure.text === '=' ? ` (a plain '=' is YAML 1.1's "value" key; quote it: '=')` : ''),
    });
    if (!ok) return false;
  }
  return true;
}

/**
 * Reports where PyYAML reads document `index` of the chunk differently from js-yaml's value:
 * keys it refuses, merges it does otherwise, keys written twice. False once reading stopped.
 */
function checkDocument(doc: YamlDocument, chunkText: string, index: number, checks: DocumentChecks, findings: Findings): boolean {
  const watched = checks.keys instanceof KeyWatch ? checks.keys : undefined;
  if (checks.keys !== undefined) {
    const found = watched ? withPositions(doc, watched.collectionKeys.get(index)) : doc.collectionKeys();
    for (const k of found) {
      if ('unknownTag' in k && k.unknownTag !== undefined) {
        if (!findings.errorAt(doc, k.unknownTag.at, LoadCodes.YAML_CONSTRUCT, `could not determine a constructor for the tag '${k.unknownTag.tag}' (PyYAML's SafeLoader knows no such tag)`)) return false;
        continue;
      }
      const template = k.template ? ": is this an unrendered template? Quote '{{ ... }}' or render it first" : ': a mapping or a sequence cannot be a key';
      if (!findings.errorAt(doc, k.at, LoadCodes.YAML_CONSTRUCT, `found unhashable key${template}`)) return false;
    }
  }
  if (checks.keyProblems) {
    for (const d of keyProblems(doc.ast(), chunkText, index, doc.file, doc.label)) if (!findings.add(d)) return false;
  }
  if (checks.keys !== undefined) {
    const found = watched ? withPositions(doc, watched.longKeys.get(index)) : longKeysInAst(doc.ast(), chunkText, index);
    for (const k of found) if (!findings.errorAt(doc, k.at, LoadCodes.YAML_SYNTAX, longKeyMessage(k.length))) return false;
  }
  if (checks.merges) {
    for (const at of doc.explicitMergeKeys()) {
      const message = "a merge key written as an explicit key ('? <<'): PyYAML merges it, this loader would keep a key named \"<<\"; write it as '<<: *anchor'";
      if (!findings.errorAt(doc, at, LoadCodes.YAML_CONSTRUCT, message)) return false;
    }
    for (const m of doc.badMergeValues()) {
      // A mapping read as null is merged all the same: PyYAML merges nodes, whatever their tag.
      if (checks.unknownTagsAsNull && m.tag !== undefined && isUnknownTag(m.tag, 'mapping')) continue;
      const message = `expected a mapping or list of mappings for merging, but found ${m.found}: PyYAML refuses a '<<' whose value is anything else`;
      if (!findings.errorAt(doc, m.at, LoadCodes.YAML_CONSTRUCT, message)) return false;
    }
    for (const m of doc.conflictingMerges()) {
      const message = `several '<<' merge keys in one mapping supply ${pyStrRepr(m.key)}: PyYAML takes it from the last, this loader from the first; merge once with '<<: [*a, *b]' (the first listed wins)`;
      if (!findings.errorAt(doc, m.at, LoadCodes.DUPLICATE_KEY, message)) return false;
    }
  }
  if (checks.duplicates) {
    // One more than there is room for: where the stop is reported.
    for (const dup of doc.duplicateKeys(findings.room() + 1)) {
      const ok = findings.add({
        ...repeatedKeyFinding(dup),
        location: `${doc.file}:${dup.again.line}:${dup.again.column}`,
        ...(doc.label ? { document: doc.label } : {}),
        field: formatFieldPath(dup.path),
        code: LoadCodes.DUPLICATE_KEY,
      });
      if (!ok) return false;
    }
  }
  return true;
}

/** Findings at offsets of the document's chunk, with their file positions, in text order. */
function withPositions<T extends { readonly offset: number }>(doc: YamlDocument, found: readonly T[] | undefined): (T & { at: SourcePosition })[] {
  if (!found) return [];
  const sorted = [...found].sort((a, b) => a.offset - b.offset);
  const at = doc.positionsOf(sorted.map((f) => f.offset));
  return sorted.map((f, i) => ({ ...f, at: at[i] }));
}

/**
 * Reports the first tab PyYAML refuses (see `tabs.ts`), in a document or between documents, as
 * PyYAML stops there: unless the line has an error already (js-yaml's, about the same tab).
 */
function reportRefusedTab(text: string, file: string, diagnostics: Diagnostic[]): void {
  const tab = firstRefusedTab(text);
  if (tab === undefined) return;
  const p = positionOf(text, tab);
  if (diagnostics.some((d) => d.severity === 'error' && d.location.startsWith(`${file}:${p.line}:`))) return;
  const message = "found character '\\t' that cannot start any token: PyYAML, which Armada reads documents with, takes a tab only inside a quoted or block scalar or a comment, never as a space between tokens; use spaces";
  diagnostics.push({ severity: 'error', location: `${file}:${p.line}:${p.column}`, code: LoadCodes.YAML_SYNTAX, message });
}

/** Reports, once, where reading stopped and why; nothing after it is read (see `limits.ts`). */
function stopReading(budget: LoadBudget, diagnostics: Diagnostic[], location: string, why: string): void {
  if (budget.stopped) return;
  budget.stopped = true;
  diagnostics.push({ severity: 'error', location, code: LoadCodes.INPUT_LIMIT, message: `armada-cdk stopped reading here, and read nothing after it: ${why}` });
}

/**
 * The chunk's documents as js-yaml builds them, or undefined once their error is reported.
 * `secondReader` says that they come from the `yaml` package's AST instead (see `yaml-ast-load.ts`).
 * `keys` is where the key checks find the keys: js-yaml's parse, watched, for a chunk that may
 * have a collection key (a flow collection, an explicit key, an alias) or a long key; the AST for
 * the second reader's.
 */
function loadWithJsYaml(chunkText: string, chunk: Chunk, file: string, diagnostics: Diagnostic[], nonPrintableReported: boolean, longLines: boolean, unknownTags: UnknownTags = 'refuse'): { values: unknown[]; duplicates: boolean; secondReader: boolean; keys: KeyWatch | 'ast' | undefined } | undefined {
  // Unknown tags as null: js-yaml refuses them, so the second reader, which builds every other
  // value as js-yaml does, reads the whole stream (js-yaml's error stands where it fails too).
  if (unknownTags === 'null' || mayMisreadEmptyItem(chunkText)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const astLoad = require('./yaml-ast-load') as typeof import('./yaml-ast-load');
    const read = astLoad.loadWithYamlAst(chunkText, { unknownTags });
    if (read) return { ...read, secondReader: true, keys: 'ast' };
    // js-yaml would stop at the first unknown tag: the syntax error is the one to report.
    const error = unknownTags === 'null' ? astLoad.firstSyntaxError(chunkText) : undefined;
    if (error) {
      const p = positionOf(chunkText, error.offset, 0, chunk.line);
      diagnostics.push({ severity: 'error', location: `${file}:${p.line}:${p.column}`, code: LoadCodes.YAML_SYNTAX, message: error.message });
      return undefined;
    }
  }
  const watchKeys = longLines || MAY_HAVE_COLLECTION_KEY.test(chunkText);
  const tags = mayHaveNonSpecificTag(chunkText);
  const finalBlock = mayEndInBlockScalar(chunkText);
  const load = (json: boolean) => {
    const watch = watchKeys ? new KeyWatch(chunkText, longLines) : undefined;
    // In this order: a '!' scalar gets its value, then the final block scalar its last line break.
    const listeners = [tags ? resolveNonSpecificTag : undefined, finalBlock ? finalBlockScalarListener(chunkText) : undefined, watch?.listener].filter((l) => l !== undefined) as Listener[];
    const listener = listeners.length <= 1 ? listeners[0] : (e: 'open' | 'close', s: never) => listeners.forEach((l) => l(e, s));
    const options: JsYaml.LoadOptions = { schema: PYYAML_SAFE_SCHEMA, ...(listener ? { listener: listener as unknown as NonNullable<JsYaml.LoadOptions['listener']> } : {}), ...(json ? { json: true } : {}) };
    return { values: jsyaml.loadAll(chunkText, null, options), duplicates: json, secondReader: false, keys: watch };
  };
  try {
    return load(false);
  } catch (e) {
    if (!(e instanceof jsyaml.YAMLException) || !e.reason.startsWith('duplicated mapping key')) {
      return readWithYamlAst(e, chunkText, chunk, file, diagnostics, nonPrintableReported);
    }
  }
  // PyYAML keeps the last value of a repeated key; js-yaml does that only in its JSON mode.
  try {
    return load(true);
  } catch (e) {
    return readWithYamlAst(e, chunkText, chunk, file, diagnostics, nonPrintableReported);
  }
}

type Listener = (event: 'open' | 'close', state: never) => void;

/** Only a flow collection, an explicit key (`?`) or an alias can put a collection where a key is. */
const MAY_HAVE_COLLECTION_KEY = /[[{?*]/;

/**
 * After js-yaml failed: a document with an anchor or a tag may be one js-yaml cannot read and
 * PyYAML can (properties on an implicit key); the `yaml` package reads it. Otherwise, or if that
 * fails too, js-yaml's error is reported.
 */
function readWithYamlAst(e: unknown, chunkText: string, chunk: Chunk, file: string, diagnostics: Diagnostic[], nonPrintableReported: boolean): { values: unknown[]; duplicates: boolean; secondReader: true; keys: 'ast' } | undefined {
  if (e instanceof jsyaml.YAMLException && !nonPrintableReported && (chunkText.includes('&') || chunkText.includes('!'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const read = (require('./yaml-ast-load') as typeof import('./yaml-ast-load')).loadWithYamlAst(chunkText);
    if (read) return { ...read, secondReader: true, keys: 'ast' };
  }
  reportLoadError(e, chunk, file, diagnostics, nonPrintableReported);
  return undefined;
}

/**
 * PyYAML ends a line at CR, LF, CRLF or NEL (U+0085), and reads each as LF, in a scalar's content
 * too. A lone CR and a NEL become LF here, once, so that js-yaml reads the document as PyYAML does
 * (js-yaml takes a NEL for an ordinary character, even in a comment) and every position (parser
 * marks, the AST, the block index) counts lines as PyYAML does; the value is unchanged, since
 * YAML folds any line break in a scalar to LF.
 */
function normalizeLineBreaks(text: string): string {
  const cr = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
  return cr.includes('\x85') ? cr.replace(/\x85/g, '\n') : cr;
}

/**
 * Refuses a document whose aliases are recursive or expand beyond the budget, alone or with those
 * of the documents read before it in the run, before anything walks it: reported at the alias, and
 * the document is left out.
 */
function aliasBudgetExceeded(value: unknown, text: string, chunk: Chunk, file: string, diagnostics: Diagnostic[], budget: LoadBudget): boolean {
  const room = { nodes: ALIAS_EXPANSION_BUDGET - budget.aliasNodes, chars: ALIAS_EXPANSION_CHAR_BUDGET - budget.aliasChars };
  const measured = aliasExpansion(value, room, chunk.end - chunk.start);
  const verdict = measured.verdict;
  if (verdict === 'ok') {
    budget.aliasNodes += measured.nodes;
    budget.aliasChars += measured.chars;
    return false;
  }
  // Over what is left of the run's budget, but not over a whole budget alone: the run's sum says.
  const alone = budget.aliasNodes === 0 && budget.aliasChars === 0 ? verdict : aliasExpansion(value, {}, chunk.end - chunk.start).verdict;
  const byRun = alone === 'ok';
  let problem: ReturnType<typeof findAliasProblem>;
  try {
    // Located by the bound it passed, so that the message and the alias agree.
    const bound = byRun ? room : {};
    problem = findAliasProblem(text.slice(chunk.start, chunk.end), verdict === 'budget' ? { ...bound, chars: Infinity } : verdict === 'chars' ? { ...bound, nodes: Infinity } : {});
  } catch {
    problem = undefined; // too deep to walk again: the document start must do
  }
  const p = problem ? positionOf(text, chunk.start + problem.offset, chunk.start, chunk.line) : { line: chunk.docLine, column: 1 };
  const label = labelOf(value);
  const name = problem ? ` *${problem.alias}` : '';
  const at = problem ? ` (at${name})` : '';
  const whose = byRun ? 'the aliases of the documents read so far, this one included,' : 'the aliases of this document';
  const limit = byRun ? ', the limit for all the documents of one run together' : '';
  const message =
    verdict === 'recursive'
      ? `recursive alias${name}: the node it names contains it, so the document would be infinitely deep; Armada cannot use it`
      : verdict === 'budget'
        ? `${whose} expand to more than ${withCommas(ALIAS_EXPANSION_BUDGET)} nodes${limit}${at}: an alias bomb? Refused before it is expanded`
        : `${whose} expand to more than ${withCommas(ALIAS_EXPANSION_CHAR_BUDGET / 1024 / 1024)} MiB of text${limit}${at}, where one chart's values are at most 1 MiB in Helm's release Secret: an alias bomb? Refused before it is expanded`;
  diagnostics.push({
    severity: 'error',
    location: `${file}:${p.line}:${p.column}`,
    ...(label ? { document: label } : {}),
    code: LoadCodes.YAML_ALIAS,
    message,
  });
  return true;
}

/**
 * Refuses a document nested deeper than PyYAML reads (see `depth.ts`): Armada's loader would stop
 * with a RecursionError. Reported at the first collection past the limit, and the document is
 * left out.
 */
function tooDeepForArmada(value: unknown, source: ChunkSource, indexInChunk: number, file: string, chunk: Chunk, diagnostics: Diagnostic[]): boolean {
  const path = firstTooDeep(value);
  if (path === undefined) return false;
  let location = `${file}:${chunk.docLine}:1`;
  try {
    location = new YamlDocument(source, indexInChunk, file, 0, chunk.docLine, value, undefined).location(path);
  } catch {
    // too deep for the position's own parser: the document start must do
  }
  const label = labelOf(value);
  diagnostics.push({
    severity: 'error',
    location,
    ...(label ? { document: label } : {}),
    code: LoadCodes.YAML_DEPTH,
    message: `this document nests mappings and sequences more than ${PYYAML_MAX_DEPTH} levels deep (at ${elidedFieldPath(path)}): PyYAML, which Armada reads documents with, stops there with a RecursionError (Python's limit of 1,000 frames, two for each level); flatten the values`,
  });
  return true;
}

/** `schema name` of a document that is not kept, for its diagnostic. */
function labelOf(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '';
  const v = value as { schema?: unknown; metadata?: { name?: unknown } | null };
  const name = v.metadata !== null && typeof v.metadata === 'object' ? v.metadata.name : undefined;
  return [v.schema, name].filter((x): x is string => typeof x === 'string').join(' ');
}

function reportLoadError(e: unknown, chunk: Chunk, file: string, diagnostics: Diagnostic[], nonPrintableReported: boolean): void {
  if (e instanceof jsyaml.YAMLException) {
    const mark = (e as jsyaml.YAMLException & { mark?: { line: number; column: number } }).mark;
    const location = mark ? `${file}:${chunk.line + mark.line}:${mark.column + 1}` : `${file}:${chunk.docLine}:1`;
    const unknownTag = /^unknown tag !<(.*)>$/.exec(e.reason);
    if (unknownTag) {
      diagnostics.push({ severity: 'error', location, code: LoadCodes.YAML_CONSTRUCT, message: `could not determine a constructor for the tag '${unknownTag[1]}'` });
      return;
    }
    if (nonPrintableReported && /non-printable|null byte/.test(e.reason)) return;
    diagnostics.push({ severity: 'error', location, code: LoadCodes.YAML_SYNTAX, message: e.reason });
    return;
  }
  // Not a YAML error: deep nesting can exhaust the stack. Report it; never let it escape.
  if (e instanceof RangeError) {
    diagnostics.push({
      severity: 'error',
      location: `${file}:${chunk.docLine}:1`,
      code: LoadCodes.YAML_DEPTH,
      message: `this document nests too deeply to be loaded (the parser ran out of stack): PyYAML, which Armada reads documents with, stops at ${PYYAML_MAX_DEPTH} levels with a RecursionError; flatten the values`,
    });
    return;
  }
  const message = e instanceof Error ? e.message : String(e);
  diagnostics.push({ severity: 'error', location: `${file}:${chunk.docLine}:1`, code: LoadCodes.YAML_SYNTAX, message: `cannot load this document: ${message}` });
}

/** PyYAML's name for the token that starts at `offset`, for the "expected '<document start>'" error. */
function tokenName(text: string, offset: number): string {
  const c = text[offset];
  if (c === '-' && /[ \t\r\n]/.test(text[offset + 1] ?? '\n')) return "'<block sequence start>'";
  if (c === '[') return "'<flow sequence start>'";
  if (c === '{') return "'<flow mapping start>'";
  const eol = text.indexOf('\n', offset);
  const line = text.slice(offset, eol < 0 ? undefined : eol);
  return /:(?:[ \t]|$)/.test(line) ? "'<block mapping start>'" : "'<scalar>'";
}
