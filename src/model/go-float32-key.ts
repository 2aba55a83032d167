/**
 * The string Helm makes of a float mapping key: go-yaml v2 reads it as a float, and
 * sigs.k8s.io/yaml writes the key back with Go's float32 formatting. Shared by the loader (keys
 * PyYAML reads as floats) and the values Armada retypes on the way to Helm.
 */

/** Go's `strconv.FormatFloat(x, 'g', -1, 32)`, with go-yaml's spellings of the infinities and NaN. */
export function goFloat32Key(x: number): string {
  const f = Math.fround(x);
  if (Number.isNaN(f)) return '.nan';
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  // The shortest digits that read back as the same float32.
  let digits = '';
  let exp = 0;
  for (let p = 1; p <= 9; p++) {
    const s = Math.abs(f).toExponential(p - 1);
    if (Math.fround(Number(s)) !== Math.abs(f)) continue;
    const [mantissa, e] = s.split('e');
    digits = mantissa.replace('.', '').replace(/0+$/, '') || '0';
    exp = Number(e);
    break;
  }
  const sign = f < 0 ? '-' : '';
  // %g with the shortest digits switches to %e below 1e-4 and from 1e6 (Go's ftoa sets eprec to 6).
  if (exp < -4 || exp >= 6) {
    const e = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const int = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${int}${frac ? `.${frac}` : ''}`;
}
