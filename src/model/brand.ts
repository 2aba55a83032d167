/**
 * Marks an instance with a global symbol, so that `isXxx` checks work across two copies of this
 * library in one program (a monorepo with duplicated node_modules), where `instanceof` fails.
 */
export function brand(target: object, symbol: symbol): void {
  Object.defineProperty(target, symbol, { value: true, enumerable: false });
}
