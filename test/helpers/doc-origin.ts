import { FieldPath } from '../../src/model/diagnostics';

/**
 * The origin of a document of `file` starting at `startLine`, whose fields sit at `lines` (a
 * field not listed sits at the document's start); counts its lookups. A field is looked up, and
 * named, by its first key (`first`), or looked up by its last key and named by its whole path
 * (`last`: the keys of one object).
 */
export function docOrigin(file: string, startLine: number, label: string, lines: Record<string, [number, number]>, by: 'first' | 'last' = 'first') {
  const origin = {
    lookups: 0,
    source: { file, startLine, document: label },
    locate(field?: FieldPath) {
      origin.lookups++;
      const key = field === undefined || field.length === 0 ? '' : String(by === 'first' ? field[0] : field[field.length - 1]);
      const [line, col] = lines[key] ?? [startLine, 1];
      return { location: `${file}:${line}:${col}`, document: label, field: field?.length ? (by === 'first' ? String(field[0]) : field.join('.')) : undefined };
    },
  };
  return origin;
}
