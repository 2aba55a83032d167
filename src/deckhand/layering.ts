/**
 * The structure Deckhand's `DocumentLayering.__init__` builds before rendering: the layering
 * policy, each document's parent, replacements, the substitution sources and the render order.
 * Each step follows `deckhand/engine/layering.py`, fatal cases and their reasons included.
 */
import { DeckhandCodes } from './codes';
import { Doc } from './document';
import { Fatal } from './fatal';
import { Dict, isDict, pyEq, pyRepr } from './python';

/** What rendering needs from the structure. */
export interface Layout {
  /** `_documents_by_index`: the first document of each (schema, layer, name), in input order. */
  readonly index: Map<string, Doc>;
  /** Child key to parent key. */
  readonly parents: Map<string, string>;
  /** Substitution sources by `JSON.stringify([schema, name])`, replacements in their parents' place. */
  readonly sources: Map<string, Doc>;
  /** Deckhand's render order. */
  readonly sorted: Doc[];
  /** The LayeringPolicy used, and whether others were ignored. */
  readonly policy: Doc;
  readonly ignoredPolicies: readonly Doc[];
}

/** Key of a substitution source. */
export function sourceKey(schema: unknown, name: unknown): string {
  return JSON.stringify([schema, name]);
}

// Label values are dict keys in Deckhand: 1, 1.0 and True are one key.
function labelKey(k: string, v: unknown): string {
  return JSON.stringify([k, typeof v === 'boolean' ? Number(v) : v]);
}

/** Builds the layout of `docs` (pre-validated), or throws {@link Fatal}. */
export function layout(docs: readonly Doc[]): Layout {
  const policies = docs.filter((d) => d.schema.startsWith('deckhand/LayeringPolicy'));
  if (policies.length === 0) {
    throw new Fatal(undefined, DeckhandCodes.LAYERING, 'Required LayeringPolicy was not found for layering: no document has the schema deckhand/LayeringPolicy/v1');
  }
  const policy = policies[0]!;
  const policyData = policy.data;
  const rawOrder = isDict(policyData) && Array.isArray(policyData['layerOrder']) ? (policyData['layerOrder'] as unknown[]) : [];

  const index = new Map<string, Doc>();
  const byLayer = new Map<string, Doc[]>();
  const byLabels = new Map<string, Doc[]>();
  for (const doc of docs) {
    if (!index.has(doc.key)) index.set(doc.key, doc);
    const layer = doc.layer;
    if (layer !== '') {
      if (!rawOrder.includes(layer)) {
        throw new Fatal(doc, DeckhandCodes.LAYERING, `Invalid layer '${layer}' for document [${doc.schema}] ${doc.name} was not found in layerOrder: ${rawOrder.join(', ')} for provided LayeringPolicy: ${policy.name} (at ${policy.location})`, 'metadata.layeringDefinition.layer');
      }
      let list = byLayer.get(layer);
      if (list === undefined) byLayer.set(layer, (list = []));
      list.push(doc);
    }
    for (const [k, v] of Object.entries(doc.parentSelector)) {
      const key = labelKey(k, v);
      let list = byLabels.get(key);
      if (list === undefined) byLabels.set(key, (list = []));
      list.push(doc);
    }
  }
  // Layers without documents are dropped from the order.
  const layerOrder = rawOrder.filter((l): l is string => typeof l === 'string' && byLayer.has(l));
  const layerIndex = (doc: Doc): number => {
    const i = layerOrder.indexOf(doc.layer);
    if (i < 0) throw new Fatal(doc, DeckhandCodes.LAYERING, `${doc.label} has a parentSelector but no layer in the layerOrder (${layerOrder.join(', ')}): Deckhand cannot place it`, 'metadata.layeringDefinition');
    return i;
  };

  const parents = new Map<string, string>();
  const childCount = new Map<Doc, number>();
  for (const layer of layerOrder) {
    for (const parent of byLayer.get(layer) ?? []) {
      const candidates = new Set<Doc>();
      for (const [k, v] of Object.entries(parent.labels)) for (const c of byLabels.get(labelKey(k, v)) ?? []) candidates.add(c);
      const children: Doc[] = [];
      for (const child of candidates) if (isChild(parent, child, layerIndex, layerOrder)) children.push(child);
      for (const child of children) childCount.set(child, (childCount.get(child) ?? 0) + 1);
      for (const child of children) {
        const currentKey = parents.get(child.key);
        const current = currentKey === undefined ? undefined : index.get(currentKey);
        if (current !== undefined) {
          // A parent in a nearer layer wins over one further up.
          if (layerIndex(parent) > layerIndex(current)) {
            parents.set(child.key, parent.key);
            childCount.set(child, childCount.get(child)! - 1);
          }
        } else if (!parents.has(child.key)) {
          parents.set(child.key, parent.key);
        }
      }
    }
  }
  for (const [layer, list] of byLayer) {
    if (layer === layerOrder[0]) continue;
    for (const doc of list) {
      const n = childCount.get(doc) ?? 0;
      if (n > 1) {
        throw new Fatal(doc, DeckhandCodes.LAYERING, `Too many parent documents found for document [${doc.schema}, ${doc.layer}] ${doc.name}. Found: ${n}. Expected: 1 (the parentSelector ${pyRepr(doc.parentSelector)} matches ${n} documents in one layer)`, 'metadata.layeringDefinition.parentSelector');
      }
    }
  }

  const sources = replacementsAndSources(index, parents);
  const sorted = renderOrder(index, parents, sources);
  return { index, parents, sources, sorted, policy, ignoredPolicies: policies.slice(1) };
}

function isChild(parent: Doc, child: Doc, layerIndex: (d: Doc) => number, layerOrder: readonly string[]): boolean {
  if (parent === child) return false;
  const parentIdx = layerIndex(parent);
  const childIdx = layerIndex(child);
  const labels: Dict = parent.labels;
  const selector = child.parentSelector;
  const matches = Object.keys(selector).every((k) => pyEq(Object.prototype.hasOwnProperty.call(labels, k) ? labels[k] : null, selector[k]));
  if (!matches) return false;
  const why = (reason: string) =>
    new Fatal(child, DeckhandCodes.LAYERING, `The document parent [${parent.schema}] ${parent.name} (at ${parent.location}) is invalid for document [${child.schema}] ${child.name}. Reason: ${reason}`, 'metadata.layeringDefinition.parentSelector');
  if (child.schema !== parent.schema) throw why('Child has parentSelector which references parent, but their `schema`s do not match.');
  if (parentIdx >= childIdx) {
    throw why(`Child has parentSelector which references parent, but the child layer ${child.layer} must be lower than the parent layer ${parent.layer} for layerOrder ${layerOrder.join(', ')}.`);
  }
  return true;
}

function replacementFatal(doc: Doc, reason: string): Fatal {
  return new Fatal(doc, DeckhandCodes.REPLACEMENT, `Replacement document [${doc.schema}, ${doc.layer}] ${doc.name} is invalid. Reason: ${reason}`, 'metadata.replacement');
}

function replacementsAndSources(index: Map<string, Doc>, parents: Map<string, string>): Map<string, Doc> {
  const nonReplacement = new Set<string>();
  for (const doc of index.values()) {
    const parentKey = parents.get(doc.key);
    const parent = parentKey === undefined ? undefined : index.get(parentKey);
    if (doc.isReplacement) {
      if (parent === undefined) throw replacementFatal(doc, 'Document replacement requires that the document with `replacement: true` have a parent.');
      if (doc.schema !== parent.schema || doc.name !== parent.name) throw replacementFatal(doc, 'Document replacement requires that both documents have the same `schema` and `metadata.name`.');
      parent.replacedBy = doc;
    } else {
      if (parent !== undefined && doc.schema === parent.schema && doc.name === parent.name) {
        throw replacementFatal(doc, 'Non-replacement documents cannot have the same `schema` and `metadata.name` as their parent. Either add `replacement: true` to the document or give the document a different name.');
      }
      if (!doc.isControl) {
        const id = sourceKey(doc.schema, doc.name);
        if (nonReplacement.has(id)) {
          throw replacementFatal(
            doc,
            'More than one document with the same name and schema was found, but none has `replacement: true`. Ensure that only 2 documents exist for each replacement and that one has `replacement: true` and the other `replacement: false`.',
          );
        }
        nonReplacement.add(id);
      }
    }
  }
  const sources = new Map<string, Doc>();
  for (const doc of index.values()) {
    if (doc.isAbstract) continue;
    let ref = doc;
    if (ref.hasReplacement) {
      if (ref.isReplacement) throw replacementFatal(ref, 'A replacement document cannot itself be replaced by another document.');
      ref = ref.replacedBy!;
    }
    sources.set(sourceKey(ref.schema, ref.name), ref);
  }
  return sources;
}

/**
 * `_topologically_sort_documents`: a graph of layering and substitution edges, sorted as
 * networkx 3.6 does (`topological_generations`, nodes in insertion order) and reversed; the
 * documents outside the graph follow in input order.
 */
function renderOrder(index: Map<string, Doc>, parents: Map<string, string>, sources: Map<string, Doc>): Doc[] {
  const succ = new Map<string, Map<string, true>>();
  const inDegree = new Map<string, number>();
  const node = (k: string) => {
    if (!succ.has(k)) {
      succ.set(k, new Map());
      inDegree.set(k, 0);
    }
  };
  const edge = (u: string, v: string) => {
    node(u);
    node(v);
    const out = succ.get(u)!;
    if (!out.has(v)) {
      out.set(v, true);
      inDegree.set(v, inDegree.get(v)! + 1);
    }
  };
  for (const doc of index.values()) {
    if (Object.keys(doc.parentSelector).length > 0) {
      const parentKey = parents.get(doc.key);
      let ancestor = parentKey === undefined ? undefined : index.get(parentKey);
      if (ancestor !== undefined && ancestor.hasReplacement && ancestor.replacedBy !== doc) ancestor = ancestor.replacedBy;
      if (ancestor !== undefined) edge(doc.key, ancestor.key);
    }
    for (const sub of doc.substitutions) {
      const src = isDict(sub) && isDict(sub['src']) ? sub['src'] : undefined;
      const from = src === undefined ? undefined : sources.get(sourceKey(src['schema'], src['name']));
      if (from !== undefined) edge(doc.key, from.key);
    }
  }
  const cycle = findCycle(succ);
  if (cycle !== undefined) {
    const docsIn = cycle.map((k) => index.get(k)!);
    throw new Fatal(docsIn[0], DeckhandCodes.CYCLE, `Cannot determine substitution order as a dependency cycle exists for the following documents: ${docsIn.map((d) => `${d.label} (${d.location})`).join(' -> ')}`);
  }
  const order: string[] = [];
  const remaining = new Map<string, number>();
  for (const [k, d] of inDegree) if (d > 0) remaining.set(k, d);
  let zero = [...inDegree].filter(([, d]) => d === 0).map(([k]) => k);
  while (zero.length > 0) {
    const generation = zero;
    zero = [];
    for (const k of generation) {
      for (const child of succ.get(k)!.keys()) {
        const left = remaining.get(child)! - 1;
        if (left === 0) {
          zero.push(child);
          remaining.delete(child);
        } else remaining.set(child, left);
      }
    }
    order.push(...generation);
  }
  const result: Doc[] = [];
  const placed = new Set<Doc>();
  for (let i = order.length - 1; i >= 0; i--) {
    const doc = index.get(order[i]!);
    if (doc !== undefined && !placed.has(doc)) {
      result.push(doc);
      placed.add(doc);
    }
  }
  for (const doc of index.values()) if (!placed.has(doc)) result.push(doc);
  return result;
}

/** A cycle of the graph, as the keys on it, or undefined. */
function findCycle(succ: Map<string, Map<string, true>>): string[] | undefined {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  for (const start of succ.keys()) {
    if (state.has(start)) continue;
    // Iterative DFS: a path of thousands of documents must not overflow the call stack.
    const frames: { k: string; it: Iterator<string> }[] = [{ k: start, it: succ.get(start)!.keys() }];
    state.set(start, 1);
    stack.push(start);
    while (frames.length > 0) {
      const top = frames[frames.length - 1]!;
      const next = top.it.next();
      if (next.done) {
        state.set(top.k, 2);
        stack.pop();
        frames.pop();
        continue;
      }
      const k = next.value;
      const s = state.get(k);
      if (s === 1) return stack.slice(stack.indexOf(k)).concat(k);
      if (s === undefined) {
        state.set(k, 1);
        stack.push(k);
        frames.push({ k, it: succ.get(k)!.keys() });
      }
    }
  }
  return undefined;
}
