/**
 * Marks an instance with a global symbol, so that `isXxx` checks work across two copies of this
 * library in one program (a monorepo with duplicated node_modules), where `instanceof` fails.
 */
export function brand(target: object, symbol: symbol): void {
  Object.defineProperty(target, symbol, { value: true, enumerable: false });
}

/** Whether `x` carries the brand `symbol` (see {@link brand}). */
export function isBranded(x: unknown, symbol: symbol): boolean {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[symbol] === true;
}
