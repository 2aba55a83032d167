/**
 * Mapping keys that PyYAML reads as integers (`1:`, `0x1f:`): the loader gives every key as a
 * string, but Pegleg hands Deckhand Python ints, and writes them back unquoted and sorted as
 * numbers (curator's `actions: {1: ..., 2: ...}`). They are found here from the YAML itself and
 * recorded beside the loaded values (`markIntKey`), for the writer.
 */
import type { Node } from 'yaml';
import { Dict, isDict, markIntKey } from '../deckhand/python';

// A line that may start with an integer key: `1:`, `- 10:`, `0x1f:` (YAML 1.1 ints; a flow
// mapping `{1: a}` too). A cheap test first, so that a file without one costs no AST.
const MAYBE_INT_KEY = /(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t]*)[-+]?[0-9][0-9a-fA-Fx_:]*[ \t]*:(?:[ \t]|$)/m;

// PyYAML's int resolver (YAML 1.1): binary, octal, decimal, hexadecimal, sexagesimal; `_` ignored.
const YAML11_INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;

/** The value of a YAML 1.1 int as PyYAML constructs it, in decimal (a BigInt: it may be long). */
export function yaml11IntText(text: string): string {
  let t = text.replace(/_/g, '');
  let sign = 1n;
  if (t.startsWith('-')) sign = -1n;
  if (t.startsWith('-') || t.startsWith('+')) t = t.slice(1);
  let v: bigint;
  if (t === '0') v = 0n;
  else if (t.startsWith('0b')) v = BigInt(t);
  else if (t.startsWith('0x')) v = BigInt(t);
  else if (t.startsWith('0')) v = BigInt(`0o${t.slice(1)}`);
  else if (t.includes(':')) v = t.split(':').reduce((acc, part) => acc * 60n + BigInt(part), 0n);
  else v = BigInt(t);
  return (sign * v).toString();
}

/**
 * Records the integer keys of the documents of `text` (`raws`: the loader's values of its
 * documents, in order) on those values.
 */
export function markIntKeys(text: string, raws: readonly unknown[]): void {
  if (!MAYBE_INT_KEY.test(text)) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a file that may have such keys
  const Y = require('yaml') as typeof import('yaml');
  const docs = Y.parseAllDocuments(text, { version: '1.1', uniqueKeys: false });
  if (!Array.isArray(docs) || docs.length !== raws.length) return;
  const seen = new Set<unknown>();
  const walk = (node: Node | null | undefined, raw: unknown): void => {
    if (node === null || node === undefined || raw === null || typeof raw !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Y.isSeq(node) && Array.isArray(raw)) {
      node.items.forEach((item, i) => walk(item as Node, raw[i]));
    } else if (Y.isMap(node) && isDict(raw)) {
      for (const pair of node.items) {
        const key = pair.key;
        if (!Y.isScalar(key)) continue;
        const source = typeof key.source === 'string' ? key.source : String(key.value);
        const keyText = key.type === 'PLAIN' && (key.tag === undefined || key.tag === 'tag:yaml.org,2002:int') && YAML11_INT.test(source) ? source : undefined;
        // The loader's key: the text as written, or the number it read.
        const loaded = Object.prototype.hasOwnProperty.call(raw, source) ? source : String(key.value);
        if (!Object.prototype.hasOwnProperty.call(raw, loaded)) continue;
        if (keyText !== undefined) markIntKey(raw as Dict, loaded, yaml11IntText(keyText));
        walk(pair.value as Node, (raw as Dict)[loaded]);
      }
    }
  };
  docs.forEach((doc, i) => walk(doc.contents as Node, raws[i]));
}
