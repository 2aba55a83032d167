import * as fs from 'fs';
import * as path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A fenced code block of the README: its language, first line (1-based) and text. */
export interface ReadmeBlock {
  readonly lang: string;
  readonly line: number;
  readonly code: string;
}

/** Every fenced block of README.md, in order. */
export function readmeBlocks(lang?: string): ReadmeBlock[] {
  const lines = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
  const out: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    out.push({ lang: open[1], line: start + 1, code: lines.slice(start, end).join('\n') + '\n' });
    i = end;
  }
  return lang === undefined ? out : out.filter((b) => b.lang === lang);
}
