/**
 * Aliases that cost more than they should: an alias bomb (a few lines whose aliases nest so that
 * the document expands to billions of nodes: "billion laughs") and recursive aliases (a node that
 * contains an alias to itself, which PyYAML builds as a cyclic structure no Armada document can
 * be).
 *
 * js-yaml builds an alias as a reference to the anchored value, so loading costs nothing; it is
 * every later walk of the value (overrides, validation, output) that would expand it. The loaded
 * value is therefore measured first: its size with every alias expanded, computed once per
 * shared value, against {@link ALIAS_EXPANSION_BUDGET}, as `yaml`'s `maxAliasCount` and the
 * YAML libraries of Go and Rust bound alias expansion. Only when a budget is exceeded is the text
 * parsed again, by the `yaml` package, whose tree keeps aliases as nodes, to say which alias.
 */
import type { Node } from 'yaml';
import { resolveAlias } from './alias-targets';
import { ALIAS_EXPANSION_BUDGET, ALIAS_EXPANSION_CHAR_BUDGET, type AliasBudget } from '../../values-schema/alias-budget';

export { aliasExpansion, ALIAS_EXPANSION_BUDGET, ALIAS_EXPANSION_CHAR_BUDGET, measureAliases } from '../../values-schema/alias-budget';
export type { AliasBudget } from '../../values-schema/alias-budget';

// An alias: `*name` where a node may start (after a blank, a flow indicator, `-`, `?` or `:`).
const ALIAS_RE = /(?:^|[\s[{,:?-])\*[^\s[\]{},]/;

/** A problem with the aliases of a document, located in its text. */
export interface AliasProblem {
  readonly kind: 'recursive' | 'budget';
  /** Offset of the alias in the text given to {@link findAliasProblem}. */
  readonly offset: number;
  readonly alias: string;
  /** For `budget`: the nodes the aliases add, counted up to and including this alias. */
  readonly expanded?: number | undefined;
  /** For `budget`: the characters the aliases add, counted up to and including this alias. */
  readonly expandedChars?: number | undefined;
}

/** Cheap test: can the text have an alias at all? */
export function mayHaveAliases(text: string): boolean {
  return text.includes('*') && ALIAS_RE.test(text);
}

/**
 * Which alias makes the document recursive or exceed the budget: the first alias inside the
 * node it names, or the alias at which the expanded total, of nodes or of characters, passes
 * the budget, in text order.
 */
export function findAliasProblem(text: string, budget: AliasBudget = {}): AliasProblem | undefined {
  const nodeBudget = budget.nodes ?? ALIAS_EXPANSION_BUDGET;
  const charBudget = budget.chars ?? ALIAS_EXPANSION_CHAR_BUDGET;
  // Loaded here, not at the top: only a document over its budget needs the yaml package.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { isAlias, isCollection, isNode, isPair, isScalar, parseDocument, visit } = require('yaml') as typeof import('yaml');
  const doc = parseDocument(text, { uniqueKeys: false, merge: true });
  type Size = { nodes: number; chars: number };
  const sizes = new Map<Node, Size>();
  const resolving = new Set<Node>();
  const scalarChars = (node: Node): number => (isScalar(node) && typeof node.value === 'string' ? node.value.length : 0);
  // The expanded size of a node; recursion reports its alias through the visit below.
  const sizeOf = (node: unknown): Size => {
    if (isAlias(node)) {
      const target = resolveAlias(node, doc);
      if (!target || resolving.has(target)) return { nodes: 1, chars: 0 };
      return sizeOf(target);
    }
    if (!isNode(node)) return { nodes: 1, chars: 0 };
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (isScalar(node)) return { nodes: 1, chars: scalarChars(node) };
    resolving.add(node);
    const total = { nodes: 1, chars: 0 };
    const add = (s: Size) => {
      total.nodes += s.nodes;
      total.chars += s.chars;
    };
    if (isCollection(node)) {
      for (const item of node.items) {
        if (isPair(item)) {
          add(sizeOf(item.key));
          add(sizeOf(item.value));
        } else add(sizeOf(item));
        // Far enough: the caller only compares with the budget.
        if (total.nodes > nodeBudget * 2 || total.chars > charBudget * 2) break;
      }
    }
    resolving.delete(node);
    sizes.set(node, total);
    return total;
  };
  let problem: AliasProblem | undefined;
  let expanded = 0;
  let expandedChars = 0;
  visit(doc, {
    Alias(_key, node, path) {
      const name = node.source;
      const offset = node.range?.[0] ?? 0;
      if (path.some((p) => isNode(p) && p.anchor === name)) {
        problem = { kind: 'recursive', offset, alias: name };
        return visit.BREAK;
      }
      const target = resolveAlias(node, doc);
      // As measureAliases counts: a scalar alias adds no node but its characters, a collection
      // its expanded size.
      if (target && isCollection(target)) {
        const s = sizeOf(target);
        expanded += s.nodes;
        expandedChars += s.chars;
      } else if (target) expandedChars += scalarChars(target);
      if (expanded > nodeBudget || expandedChars > charBudget) {
        problem = { kind: 'budget', offset, alias: name, expanded, expandedChars };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return problem;
}
