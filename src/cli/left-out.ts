/**
 * Documents of other tools in the input (a rendered Deckhand site holds certificates, passphrases
 * and Pegleg documents beside Armada's): Armada ignores them, so validation says nothing, but a
 * command whose output replaces the input must say that they are not in it.
 */
import { Diagnostic } from '../model/diagnostics';
import { DiagnosticCodes } from '../model/codes';
import type { LoadedDocument } from '../importer/load';
import { isOtherToolsDocument } from '../importer/load/classify';

/** One warning per document of another tool; `command` names what leaves it out (`convert --to documents-v2`). */
export function otherToolsDocumentWarnings(documents: readonly LoadedDocument[], command: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const doc of documents) {
    if (!isOtherToolsDocument(doc.raw)) continue;
    out.push({
      severity: 'warning',
      location: doc.location(['schema']),
      document: doc.label,
      field: 'schema',
      code: DiagnosticCodes.NOT_CONVERTED,
      message: `not an Armada document: Armada ignores it, and ${command} leaves it out; keep it from the input`,
    });
  }
  return out;
}
