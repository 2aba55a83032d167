/**
 * What each alias of a `yaml` document names, found in one walk. The `yaml` package's own
 * `Alias.resolve(doc)` walks the whole document for every alias it resolves, so that a document of
 * n aliases cost n walks: a 1 MB document of merges (`<<: *base` in every mapping) took minutes.
 */
import type { Alias, Document, Node } from 'yaml';

const targets = new WeakMap<Document, Map<Alias, Node | undefined>>();

/**
 * The node `alias` names in `doc`: the last node before it with that anchor, in the order
 * `Alias.resolve` searches (the `yaml` package's `visit`), or undefined.
 */
export function resolveAlias(alias: Alias, doc: Document): Node | undefined {
  let map = targets.get(doc);
  if (map === undefined) {
    map = new Map();
    const found = map;
    const anchors = new Map<string, Node>();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { isAlias, visit } = require('yaml') as typeof import('yaml');
    visit(doc, {
      Node: (_key, node) => {
        if (isAlias(node)) found.set(node, anchors.get(node.source));
        else if ((node as { anchor?: string }).anchor) anchors.set((node as { anchor: string }).anchor, node);
      },
    });
    targets.set(doc, map);
  }
  return map.get(alias);
}
