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

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

/** The closest candidate to `name`, when one is close enough to be a likely typo. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestD || (d === bestD && best !== undefined && c < best)) {
      best = c;
      bestD = d;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}
