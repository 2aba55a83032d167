/**
 * Deckhand's `DocumentLayering.render()`, in its order: each document (control documents
 * excepted) is layered onto its parent's rendered data with its actions, then substituted; a
 * replacement then gives its data to the parent it replaces. Abstract documents and replaced
 * parents are rendered but not output.
 */
import type { Diagnostic } from '../model/diagnostics';
import { applyAction } from './actions';
import { DeckhandCodes } from './codes';
import { Doc, IndexEntry } from './document';
import { Fatal } from './fatal';
import { findPath } from './jsonpath';
import { Layout } from './layering';
import { hasBarbicanRef, substituteAll, SubstitutionContext } from './substitution';

/** Options of the render loop. */
export interface LoopOptions {
  readonly failOnMissingSource: boolean;
  readonly warn: (doc: Doc, code: string, message: string, field?: string) => void;
}

function pathExists(data: unknown, path: readonly (string | number)[]): boolean {
  if (path.length === 0) return true;
  const steps = path.map((seg) => (typeof seg === 'number' ? { index: seg } : { field: seg }));
  return findPath(data, { text: '', steps }) !== undefined;
}

/** Renders the documents of `lay` in place; returns the ones Deckhand outputs, in its order. */
export function renderLoop(lay: Layout, options: LoopOptions): Doc[] {
  // `_documents_by_index` while rendering: a layered document maps to its parent's copy.
  const entries = new Map<string, IndexEntry>(lay.index);
  const ctx: SubstitutionContext = { sources: lay.sources, failOnMissingSource: options.failOnMissingSource, warn: options.warn, shared: new WeakMap() };
  for (const doc of lay.sorted) {
    if (doc.isControl) continue;
    if (doc.isEncrypted && hasBarbicanRef(doc.data)) {
      throw new Fatal(doc, DeckhandCodes.ENCRYPTION_SOURCE, `Required encryption source reference could not be resolved into a secret: ${doc.label} holds a Barbican reference, which only a Deckhand service can resolve`, 'data');
    }
    let parent: IndexEntry | undefined;
    if (Object.keys(doc.parentSelector).length > 0) {
      const parentKey = lay.parents.get(doc.key);
      if (parentKey !== undefined) {
        parent = entries.get(parentKey)!;
        const actions = doc.actions;
        if (actions.length > 0) {
          let rendered: IndexEntry = parent;
          actions.forEach((action, i) => {
            rendered = applyAction(action, i, doc, rendered);
          });
          doc.data = rendered.data;
          // The parent's secrets that the child's data still holds.
          for (const p of parent.secretPaths) if (pathExists(doc.data, p)) doc.secretPaths.push(p);
          entries.set(doc.key, rendered === parent ? parent : { schema: rendered.schema, layer: rendered.layer, name: rendered.name, data: doc.data, secretPaths: doc.secretPaths });
        }
      }
    }
    if (doc.substitutions.length > 0) {
      substituteAll(doc, ctx);
      entries.set(doc.key, doc);
    }
    if (doc.isReplacement && parent !== undefined) parent.data = doc.data;
  }
  return lay.sorted.filter((d) => !d.isAbstract && !d.hasReplacement);
}

/**
 * `secretPaths` of a rendered document: all of it for a secret document as written, else what
 * substitutions and layering brought (a document Deckhand encrypts because it took a value from an
 * encrypted one is secret at that value only).
 */
export function secretPathsOf(doc: Doc): (string | number)[][] {
  if (doc.secretSource) return [[]];
  return doc.secretPaths.filter((p) => pathExists(doc.data, p));
}

/** Turns a {@link Fatal} into the error diagnostic Deckhand's refusal becomes. */
export function fatalDiagnostic(f: Fatal, diagnostic: (doc: Doc, code: string, message: string, field?: string) => Diagnostic): Diagnostic {
  if (f.doc !== undefined) return diagnostic(f.doc, f.code, `Deckhand cannot render the site: ${f.reason}`, f.field);
  return { severity: 'error', location: '<documents>', code: f.code, message: `Deckhand cannot render the site: ${f.reason}` };
}
