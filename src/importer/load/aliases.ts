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

/**
 * How many nodes the aliases of one document may add when they are expanded. Real manifests
 * share a values block among a few hundred charts at most, far below this; a bomb is far above.
 */
export const ALIAS_EXPANSION_BUDGET = 1_000_000;

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
}

/** Cheap test: can the text have an alias at all? */
export function mayHaveAliases(text: string): boolean {
  return text.includes('*') && ALIAS_RE.test(text);
}

/**
 * Whether the loaded value is cyclic or expands beyond the budget: the nodes added by every
 * repeated reference to a shared collection (an alias), each counted at its expanded size (a
 * mapping entry counts its key and its value). Linear in the value as built: each shared
 * collection is measured once.
 */
export function measureAliases(value: unknown, budget = ALIAS_EXPANSION_BUDGET): 'ok' | 'recursive' | 'budget' {
  const size = new Map<object, number>();
  const open = new Set<object>();
  let added = 0;
  // Iterative post-order walk: deep nesting must not exhaust the stack here.
  const stack: { node: object; children: unknown[]; perChild: number; i: number; total: number }[] = [];
  const enter = (v: unknown): number | 'recursive' | undefined => {
    if (v === null || typeof v !== 'object') return 1;
    if (open.has(v)) return 'recursive';
    const known = size.get(v);
    if (known !== undefined) {
      added += known;
      return known;
    }
    open.add(v);
    const isList = Array.isArray(v);
    stack.push({ node: v, children: isList ? v : Object.values(v as Record<string, unknown>), perChild: isList ? 0 : 1, i: 0, total: 1 });
    return undefined;
  };
  const first = enter(value);
  if (first === 'recursive') return 'recursive';
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i < top.children.length) {
      const r = enter(top.children[top.i++]);
      if (r === 'recursive') return 'recursive';
      top.total += top.perChild;
      if (r !== undefined) top.total += r;
      continue;
    }
    stack.pop();
    open.delete(top.node);
    size.set(top.node, top.total);
    if (stack.length > 0) stack[stack.length - 1].total += top.total;
  }
  return added > budget ? 'budget' : 'ok';
}

/**
 * Which alias makes the document recursive or exceed the budget: the first alias inside the
 * node it names, or the alias at which the expanded total passes the budget, in text order.
 */
export function findAliasProblem(text: string, budget = ALIAS_EXPANSION_BUDGET): AliasProblem | undefined {
  // Loaded here, not at the top: only a document over its budget needs the yaml package.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { isAlias, isCollection, isNode, isPair, isScalar, parseDocument, visit } = require('yaml') as typeof import('yaml');
  const doc = parseDocument(text, { uniqueKeys: false, merge: true });
  const sizes = new Map<Node, number>();
  const resolving = new Set<Node>();
  // The expanded size of a node; recursion reports its alias through `cyclic`.
  const sizeOf = (node: unknown): number => {
    if (isAlias(node)) {
      const target = node.resolve(doc);
      if (!target || resolving.has(target)) return 1;
      return sizeOf(target);
    }
    if (!isNode(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (isScalar(node)) return 1;
    resolving.add(node);
    let total = 1;
    if (isCollection(node)) {
      for (const item of node.items) {
        if (isPair(item)) total += sizeOf(item.key) + sizeOf(item.value);
        else total += sizeOf(item);
        if (total > budget * 2) break; // far enough: the caller only compares with the budget
      }
    }
    resolving.delete(node);
    sizes.set(node, total);
    return total;
  };
  let problem: AliasProblem | undefined;
  let expanded = 0;
  visit(doc, {
    Alias(_key, node, path) {
      const name = node.source;
      const offset = node.range?.[0] ?? 0;
      if (path.some((p) => isNode(p) && p.anchor === name)) {
        problem = { kind: 'recursive', offset, alias: name };
        return visit.BREAK;
      }
      const target = node.resolve(doc);
      // As measureAliases counts: a scalar alias adds nothing, a collection its expanded size.
      expanded += target && isCollection(target) ? sizeOf(target) : 0;
      if (expanded > budget) {
        problem = { kind: 'budget', offset, alias: name, expanded };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return problem;
}
