import * as fs from 'fs';
import * as path from 'path';
import { parseInputs } from '../../src/importer/load';
import { SourceDocument } from '../../src/deckhand';
import { sharedPath } from '../helpers/shared';

/** The site folders of the shared test data. */
export const SITES_DIR = sharedPath('sites');

/** The site's files, in the order Pegleg read them, as source documents (paths relative to the site repository). */
export function readSite(site: string): { documents: SourceDocument[]; loadErrors: string[] } {
  const dir = path.join(SITES_DIR, site);
  const order = fs.readFileSync(path.join(dir, 'order.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const inputs = order.map((file) => ({ file, text: fs.readFileSync(path.join(dir, 'tree', file), 'utf8') }));
  const parsed = parseInputs(inputs);
  fixBlockScalarAtEnd(inputs, parsed.documents);
  const loadErrors = parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.location}: ${d.message}`);
  const documents = parsed.documents.map((doc) => {
    const at = doc.locate([]);
    return { raw: doc.raw, origin: { file: doc.file, line: at.line, column: at.column } };
  });
  return { documents, loadErrors };
}

/** Deckhand's own output for the site, as values. */
export function readRendered(site: string): Record<string, unknown>[] {
  const file = path.join(SITES_DIR, site, 'rendered.yaml');
  const parsed = parseInputs([{ file: 'rendered.yaml', text: fs.readFileSync(file, 'utf8') }]);
  return parsed.documents.map((d) => d.raw as Record<string, unknown>);
}

/**
 * The project's loader (js-yaml) ends a block scalar that ends the stream without a line break
 * with a newline; PyYAML, which Pegleg reads with, does not ("clip" keeps only a line break that
 * is there). Until the loader matches, the last string of such a file loses that newline here.
 */
function fixBlockScalarAtEnd(inputs: readonly { file: string; text: string }[], documents: readonly { file: string; raw: unknown }[]): void {
  for (const input of inputs) {
    if (input.text.endsWith('\n')) continue;
    const lastLine = input.text.slice(input.text.lastIndexOf('\n') + 1);
    if (!/^\s/.test(lastLine)) continue;
    const last = [...documents].reverse().find((d) => d.file === input.file);
    if (last === undefined) continue;
    let holder: any = undefined;
    let key: string | number | undefined;
    let cur: any = last.raw;
    while (cur !== null && typeof cur === 'object') {
      const keys = Array.isArray(cur) ? cur.map((_: unknown, i: number) => i) : Object.keys(cur);
      if (keys.length === 0) break;
      holder = cur;
      key = keys[keys.length - 1];
      cur = cur[key as any];
    }
    if (holder !== undefined && typeof cur === 'string' && cur.endsWith('\n')) holder[key as any] = cur.slice(0, -1);
  }
}
