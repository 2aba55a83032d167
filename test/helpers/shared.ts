import * as fs from 'fs';
import * as path from 'path';

/** The shared reference material beside the checkout (docs, schemas, corpus). */
export const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared');

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED, ...parts);
}

export function readShared(...parts: string[]): string {
  return fs.readFileSync(sharedPath(...parts), 'utf8');
}

/** Corpus files, by the "complete" column of INDEX.md. */
export function corpusFiles(): { file: string; complete: boolean }[] {
  const index = readShared('corpus', 'INDEX.md');
  const out: { file: string; complete: boolean }[] = [];
  for (const line of index.split('\n')) {
    const m = /^\| \d+ \| `([^`]+)` \|.*\| (yes|no[^|]*) \|$/.exec(line);
    if (m) out.push({ file: m[1], complete: m[2] === 'yes' });
  }
  return out;
}
