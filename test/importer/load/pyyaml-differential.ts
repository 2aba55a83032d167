/**
 * The comparison behind the differential test: what the loader makes of a text against what
 * PyYAML makes of it.
 */
import { Diagnostic } from '../../../src/model/diagnostics';
import { canonical, parseText } from './helpers';
import { holdsKeyCollision, holdsUnrepresentable, PyResult } from './pyyaml-typed';

/**
 * Errors the loader reports, on purpose, for documents PyYAML reads: each names what Armada (or
 * Helm after it) would do wrong with the value, or a value this loader cannot carry faithfully.
 */
const DELIBERATE_REFUSALS: readonly RegExp[] = [
  /^PyYAML reads the key .* as None: /,
  /are one key in Python/,
  /are two keys to PyYAML/,
  /^several '<<' merge keys in one mapping supply/,
  /^a merge key written as an explicit key/,
];

// U+2028 and U+2029: line breaks to PyYAML, refused here wherever they are (see parse.ts), with
// the reason; js-yaml's own errors about the same text may come with it.
const LINE_SEPARATOR_REFUSAL = /^U\+202[89] \((line|paragraph) separator\) is a line break to PyYAML/;

/** What is wrong with the loader's reading of `text`, or undefined when it agrees with PyYAML. */
export function disagreement(text: string, py: PyResult): string | undefined {
  const r = parseText(text);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  const unplaced = r.diagnostics.find((d) => !/^test\.yaml:\d+:\d+$/.test(d.location));
  if (unplaced) return `a diagnostic without file:line:column: ${show(unplaced)}`;
  if ('error' in py) return errors.length > 0 ? undefined : `PyYAML refuses it (${py.error}), the loader reads ${JSON.stringify(r.documents.map(canonical))}`;
  if (errors.length === 0) {
    const ours = r.documents.map(canonical);
    if (holdsUnrepresentable(py.docs) || holdsKeyCollision(py.docs)) return `PyYAML reads ${JSON.stringify(py.docs)}, the loader reads ${JSON.stringify(ours)} without an error`;
    const a = JSON.stringify(ours, replacer);
    const b = JSON.stringify(py.docs, replacer);
    return a === b ? undefined : `PyYAML reads ${b}, the loader ${a}`;
  }
  if (errors.some((d) => LINE_SEPARATOR_REFUSAL.test(d.message))) return undefined;
  const syntax = errors.find((d) => d.code === 'yaml-syntax');
  if (syntax) return `PyYAML reads ${JSON.stringify(py.docs)}, the loader reports a syntax error: ${show(syntax)}`;
  const unexplained = errors.find((d) => !DELIBERATE_REFUSALS.some((re) => re.test(d.message)) && !(holdsUnrepresentable(py.docs) && d.code === 'yaml-construct'));
  return unexplained ? `PyYAML reads ${JSON.stringify(py.docs)}, the loader refuses it: ${show(unexplained)}` : undefined;
}

function show(d: Diagnostic): string {
  return `${d.location} [${d.code}] ${d.message}`;
}

/** Keys in sorted order: a Python dict and a JavaScript object order integer-like keys differently. */
function replacer(_key: string, v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
