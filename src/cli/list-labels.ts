/**
 * Sites written for older Armada (treasuremap 2018, airship-in-a-bottle 2017) give `labels` as a
 * list of one-key mappings (`- application: ceph`), which today's schema refuses with jsonschema's
 * bare `[{'application': 'ceph'}, ...] is not of type 'object'`, once per wait and hook. The
 * message stays Armada's (it is what `armada apply` prints); the report adds one note per run
 * that says what to write instead, and groups these errors as one kind whatever the labels are.
 */
import type { Diagnostic } from '../model/diagnostics';
import { plural } from '../model/diagnostics';

// `[{'application': 'ceph'}, {'component': 'mon'}] is not of type 'object'`, possibly cut (`...`).
const LIST_OF_MAPPINGS = /^\[\{.*is not of type 'object'$/s;
const ITEM = /\{('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"): ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^{}',]+)\}/g;

/** Whether `d` is the schema's refusal of labels written as a list of one-key mappings. */
export function isListOfLabels(d: Diagnostic): boolean {
  return d.severity === 'error' && d.field !== undefined && /(^|\.)labels$/.test(d.field) && LIST_OF_MAPPINGS.test(d.message);
}

/** The one note of a report about such labels, or none. */
export function listOfLabelsNotes(ds: readonly Diagnostic[]): string[] {
  const found = ds.filter(isListOfLabels);
  if (found.length === 0) return [];
  const first = found[0];
  const written = first.message.replace(/ is not of type 'object'$/s, '');
  const mapping = asMapping(written);
  return [
    `note: ${plural(found.length, 'labels field')} ${found.length === 1 ? 'is' : 'are'} written as a list of one-key mappings, as sites for older Armada wrote them; ` +
      `Armada's schema wants one mapping of every label: for ${written} (${first.location}${first.field ? `, ${first.field}` : ''}) write ${mapping}`,
  ];
}

/** `[{'application': 'ceph'}, {'component': 'mon'}]` as the mapping it means: `{application: ceph, component: mon}`. */
function asMapping(repr: string): string {
  const pairs: string[] = [];
  for (const m of repr.matchAll(ITEM)) pairs.push(`${scalar(m[1])}: ${scalar(m[2])}`);
  const cut = repr.endsWith('...');
  return `{${pairs.join(', ')}${cut ? ', ...' : ''}}`;
}

/** A Python repr of a key or value, as a YAML flow scalar: plain when that reads back the same. */
function scalar(repr: string): string {
  const text = /^'.*'$/s.test(repr) ? repr.slice(1, -1).replace(/\\'/g, "'").replace(/\\\\/g, '\\') : /^".*"$/s.test(repr) ? (JSON.parse(repr) as string) : repr.trim();
  const quoted = /^['"]/.test(repr);
  if (!quoted) return text === 'True' ? 'true' : text === 'False' ? 'false' : text === 'None' ? 'null' : text;
  // A string that YAML would read as something else (a number, a boolean, null) keeps its quotes.
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(text) && !/^(y|yes|n|no|true|false|on|off|null|~)$/i.test(text) ? text : JSON.stringify(text);
}
