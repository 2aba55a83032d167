/**
 * Marks an instance with a global symbol, so that `isXxx` checks work across two copies of this
 * library in one program (a monorepo with duplicated node_modules), where `instanceof` fails.
 */
export function brand(target: object, symbol: symbol): void {
  // On the class's prototype, once: a property defined on every instance costs each
  // construction a map transition (thousands per large site).
  const proto = Object.getPrototypeOf(target) as object | null;
  const holder = proto === null || proto === Object.prototype ? target : proto;
  if (!Object.prototype.hasOwnProperty.call(holder, symbol)) Object.defineProperty(holder, symbol, { value: true, enumerable: false });
}

/** Whether `x` carries the brand `symbol` (see {@link brand}). */
export function isBranded(x: unknown, symbol: symbol): boolean {
  return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[symbol] === true;
}
