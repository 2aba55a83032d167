/**
 * Strict structural comparison for tests that must tell values apart the way the loader's users
 * would: types, -0 and NaN, prototypes, key order and property descriptors.
 */

function show(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v !== null && typeof v === 'object') return Object.prototype.toString.call(v);
  return String(v);
}

/**
 * The first difference between `a` and `b`, or undefined: same types (number, bigint, string),
 * numbers by `Object.is` (-0, NaN), same prototypes, same own keys in the same order (symbols
 * included) with the same descriptors, recursively.
 */
export function strictDiff(a: unknown, b: unknown, at = '$'): string | undefined {
  if (typeof a !== typeof b) return `${at}: ${typeof a} ${show(a)} vs ${typeof b} ${show(b)}`;
  if (typeof a === 'number') return Object.is(a, b) ? undefined : `${at}: ${show(a)} vs ${show(b)}`;
  if (typeof a !== 'object' || a === null || b === null) return a === b ? undefined : `${at}: ${show(a)} vs ${show(b)}`;
  const x = a as object;
  const y = b as object;
  if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return `${at}: prototypes differ (${show(x)} vs ${show(y)})`;
  if (Array.isArray(x) !== Array.isArray(y)) return `${at}: array vs non-array`;
  if (ArrayBuffer.isView(x)) {
    const p = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
    const q = new Uint8Array((y as ArrayBufferView).buffer, (y as ArrayBufferView).byteOffset, (y as ArrayBufferView).byteLength);
    return p.length === q.length && p.every((c, i) => c === q[i]) ? undefined : `${at}: bytes differ`;
  }
  const kx = Reflect.ownKeys(x);
  const ky = Reflect.ownKeys(y);
  if (kx.length !== ky.length || kx.some((k, i) => k !== ky[i])) return `${at}: keys [${kx.map(String).join(', ')}] vs [${ky.map(String).join(', ')}]`;
  for (const k of kx) {
    const dx = Object.getOwnPropertyDescriptor(x, k)!;
    const dy = Object.getOwnPropertyDescriptor(y, k)!;
    if (dx.enumerable !== dy.enumerable || dx.writable !== dy.writable || dx.configurable !== dy.configurable || !!dx.get !== !!dy.get || !!dx.set !== !!dy.set) {
      return `${at}.${String(k)}: property descriptors differ`;
    }
    const d = strictDiff(dx.value, dy.value, `${at}.${String(k)}`);
    if (d !== undefined) return d;
  }
  return undefined;
}
