/**
 * Python's `==` on the values PyYAML builds, which Deckhand uses to compare data: mappings equal
 * whatever their key order, lists item by item, and numbers by value across int, float and bool
 * (`1 == 1.0 == True`).
 */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const na = numeric(a);
  if (na !== undefined) {
    const nb = numeric(b);
    return nb !== undefined && na === nb;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !pyEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function numeric(v: unknown): number | bigint | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  return undefined;
}
