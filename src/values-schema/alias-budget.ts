/**
 * What a loaded YAML value costs once its aliases are expanded. js-yaml builds an alias as a
 * reference to the anchored value, so loading costs nothing and every later walk would expand
 * it: Armada documents (see `importer/load/aliases.ts`) and a local chart's own values.yaml are
 * measured with this before anything walks them. Here, because the values schemas may import only
 * the model and themselves, and the importer may import them.
 */

/**
 * How many nodes the aliases of one document may add when they are expanded. Real manifests
 * share a values block among a few hundred charts at most, far below this; a bomb is far above.
 */
export const ALIAS_EXPANSION_BUDGET = 1_000_000;

/**
 * How many characters (keys and strings) the aliases of one document may add when expanded: a
 * few nodes can name a long string, so counting nodes alone let a 100 KB file expand past what a
 * JavaScript string holds. One Armada document is one chart, whose values Helm keeps in a release
 * Secret of at most 1 MiB; no real chart's aliases add a sixteenth of this.
 */
export const ALIAS_EXPANSION_CHAR_BUDGET = 16 * 1024 * 1024;

/** Bounds of {@link measureAliases} (and of the importer's `findAliasProblem`). */
export interface AliasBudget {
  /** @default ALIAS_EXPANSION_BUDGET */
  readonly nodes?: number | undefined;
  /** @default ALIAS_EXPANSION_CHAR_BUDGET */
  readonly chars?: number | undefined;
}

/**
 * Whether the loaded value is cyclic or expands beyond the budget: the nodes added by every
 * repeated reference to a shared collection (an alias), each counted at its expanded size (a
 * mapping entry counts its key and its value), and the characters of its keys and strings. A
 * string alias is not told from a copy once loaded, so the characters the aliases add are also
 * bounded as what the value holds beyond `textLength`, the length of its text. `budget` is the
 * nodes, `chars` the characters. Linear in the value as built: each shared collection is
 * measured once.
 */
export function measureAliases(value: unknown, budget: AliasBudget = {}, textLength = 0): 'ok' | 'recursive' | 'budget' | 'chars' {
  return aliasExpansion(value, budget, textLength).verdict;
}

/**
 * {@link measureAliases}, with what the aliases add when the value is within the budget: the
 * nodes, and the characters (the larger of those the aliases add and those the value holds beyond
 * its text), for a caller that bounds several values together.
 */
export function aliasExpansion(value: unknown, budget: AliasBudget = {}, textLength = 0): { verdict: 'ok' | 'recursive' | 'budget' | 'chars'; nodes: number; chars: number } {
  const nodeBudget = budget.nodes ?? ALIAS_EXPANSION_BUDGET;
  const charBudget = budget.chars ?? ALIAS_EXPANSION_CHAR_BUDGET;
  const size = new Map<object, { nodes: number; chars: number }>();
  const open = new Set<object>();
  let added = 0;
  let addedChars = 0;
  // Iterative post-order walk: deep nesting must not exhaust the stack here.
  const stack: { node: object; children: unknown[]; perChild: number; i: number; nodes: number; chars: number }[] = [];
  const enter = (v: unknown): { nodes: number; chars: number } | 'recursive' | undefined => {
    if (v === null || typeof v !== 'object') return { nodes: 1, chars: typeof v === 'string' ? v.length : 0 };
    if (open.has(v)) return 'recursive';
    const known = size.get(v);
    if (known !== undefined) {
      added += known.nodes;
      addedChars += known.chars;
      return known;
    }
    open.add(v);
    const isList = Array.isArray(v);
    let keyChars = 0;
    if (!isList) for (const k of Object.keys(v)) keyChars += k.length;
    stack.push({ node: v, children: isList ? v : Object.values(v as Record<string, unknown>), perChild: isList ? 0 : 1, i: 0, nodes: 1, chars: keyChars });
    return undefined;
  };
  const first = enter(value);
  if (first === 'recursive') return { verdict: 'recursive', nodes: added, chars: addedChars };
  let total = first?.chars ?? 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i < top.children.length) {
      const r = enter(top.children[top.i++]);
      if (r === 'recursive') return { verdict: 'recursive', nodes: added, chars: addedChars };
      top.nodes += top.perChild;
      if (r !== undefined) {
        top.nodes += r.nodes;
        top.chars += r.chars;
      }
      // Past either budget already: the rest cannot bring it back.
      if (added > nodeBudget) return { verdict: 'budget', nodes: added, chars: addedChars };
      if (addedChars > charBudget) return { verdict: 'chars', nodes: added, chars: addedChars };
      continue;
    }
    stack.pop();
    open.delete(top.node);
    size.set(top.node, { nodes: top.nodes, chars: top.chars });
    if (stack.length > 0) {
      stack[stack.length - 1].nodes += top.nodes;
      stack[stack.length - 1].chars += top.chars;
    } else total = top.chars;
  }
  const chars = Math.max(addedChars, total - textLength);
  return { verdict: added > nodeBudget ? 'budget' : chars > charBudget ? 'chars' : 'ok', nodes: added, chars };
}
