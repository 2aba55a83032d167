/**
 * Keys of user data as plain data. `__proto__`, `constructor` and `prototype` are ordinary keys
 * in YAML and in Helm values; in JavaScript, assigning `o['__proto__']` replaces the prototype
 * instead (the key is lost, or worse, a later write lands on `Object.prototype`), and reading
 * `o['constructor']` finds an inherited member. Every place that copies or merges user data by
 * key goes through these two.
 */

/** Sets `key` as an own, enumerable data property, `__proto__` included. */
export function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/** The value of `key` when `o` has it itself; never an inherited member. */
export function getOwn(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** Whether `o` has an enumerable string key of its own (without listing them all). */
export function hasOwnKey(o: object): boolean {
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) return true;
  return false;
}
