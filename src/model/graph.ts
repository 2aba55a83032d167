/** Small graph helpers shared by the subchart and ordering checks. */

/**
 * Every elementary cycle reachable in `edges`, each reported once, as the loop of node names from
 * its smallest node back to it (`a -> b -> c -> a`), so that the message shows the whole loop.
 */
export function findCycles(nodes: readonly string[], edges: (node: string) => readonly string[]): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of edges(n)) {
      const s = state.get(m);
      if (s === 'open') {
        const loop = stack.slice(stack.indexOf(m));
        const key = canonicalLoop(loop).join('\u0000');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...canonicalLoop(loop), canonicalLoop(loop)[0]]);
        }
      } else if (s === undefined) {
        visit(m);
      }
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of nodes) if (!state.has(n)) visit(n);
  return cycles;
}

/** Rotates a loop so that it starts at its smallest name: the same loop always prints the same way. */
function canonicalLoop(loop: readonly string[]): string[] {
  let best = 0;
  for (let i = 1; i < loop.length; i++) if (loop[i] < loop[best]) best = i;
  return [...loop.slice(best), ...loop.slice(0, best)];
}
