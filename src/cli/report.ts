import { Diagnostic } from '../model/diagnostics';
import { CliIo } from './io';

/** `FILE:LINE:COL: error: <doc>: <path>: <message>`: one line per diagnostic, as compilers print them. */
export function formatLine(d: Diagnostic): string {
  return [d.location, d.severity, d.document, d.field, d.message].filter((p) => p !== undefined && p !== '').join(': ');
}

/** The diagnostics in input order (file, then line and column), errors and warnings interleaved. */
export function sorted(ds: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => {
    const m = /^(.*):(\d+):(\d+)$/.exec(d.location);
    return m ? { file: m[1], line: Number(m[2]), col: Number(m[3]) } : { file: d.location, line: 0, col: 0 };
  };
  return ds
    .map((d, i) => ({ d, i, k: key(d) }))
    .sort((a, b) => (a.k.file === b.k.file ? a.k.line - b.k.line || a.k.col - b.k.col || a.i - b.i : a.i - b.i))
    .map((x) => x.d);
}

/** The JSON form of `--format json`. */
export function toJson(ds: readonly Diagnostic[]) {
  return {
    valid: !ds.some((d) => d.severity === 'error'),
    errors: ds.filter((d) => d.severity === 'error').length,
    warnings: ds.filter((d) => d.severity === 'warning').length,
    diagnostics: sorted(ds).map((d) => {
      const m = /^(.*):(\d+):(\d+)$/.exec(d.location);
      return {
        severity: d.severity,
        code: d.code,
        location: d.location,
        ...(m ? { file: m[1], line: Number(m[2]), column: Number(m[3]) } : { file: d.location }),
        ...(d.document ? { document: d.document } : {}),
        ...(d.field ? { field: d.field } : {}),
        message: d.message,
      };
    }),
  };
}

export function printLines(io: CliIo, ds: readonly Diagnostic[], to: 'stdout' | 'stderr' = 'stderr'): void {
  const out = io[to];
  for (const d of sorted(ds)) out.write(formatLine(d) + '\n');
}

/** `2 errors, 1 warning` */
export function summary(ds: readonly Diagnostic[]): string {
  const e = ds.filter((d) => d.severity === 'error').length;
  const w = ds.filter((d) => d.severity === 'warning').length;
  return `${e} error${e === 1 ? '' : 's'}, ${w} warning${w === 1 ? '' : 's'}`;
}
