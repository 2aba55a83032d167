/**
 * Documents of other tools in the input (a rendered Deckhand site holds certificates, passphrases
 * and Pegleg, Drydock, Promenade and Shipyard documents beside Armada's): Armada ignores them, so
 * validation says nothing, but a command whose output replaces the input says, once, that they
 * are not in it.
 */
import type { LoadedDocument } from '../importer/load';
import { isOtherToolsDocument } from '../importer/load/classify';

/**
 * One note line for all the documents of other tools, counted by schema (most first), or none;
 * `command` names what leaves them out (`convert --to documents-v2`).
 */
export function otherToolsNotes(documents: readonly LoadedDocument[], command: string): string[] {
  const counts = new Map<string, number>();
  let first: LoadedDocument | undefined;
  for (const doc of documents) {
    if (!isOtherToolsDocument(doc.raw)) continue;
    first ??= doc;
    counts.set(doc.schema!, (counts.get(doc.schema!) ?? 0) + 1);
  }
  if (!first) return [];
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const bySchema = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = bySchema.slice(0, 4).map(([s, n]) => (n > 1 ? `${s} x${n}` : s));
  const more = bySchema.length > 4 ? `, ${bySchema.length - 4} more schemas` : '';
  if (total === 1) return [`note: 1 document of another tool (${first.label}, ${first.location(['schema'])}) is not an Armada document: Armada ignores it, and ${command} leaves it out`];
  return [`note: ${total} documents of other tools (${shown.join(', ')}${more}; the first at ${first.location(['schema'])}) are not Armada documents: Armada ignores them, and ${command} leaves them out`];
}
