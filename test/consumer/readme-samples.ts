import * as fs from 'fs';
import * as path from 'path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A fenced code block of the README or a guide: its file, language, first line (1-based) and text. */
export interface ReadmeBlock {
  /** Relative to the repository: `README.md`, `docs/pulumi.md`. */
  readonly file: string;
  readonly lang: string;
  readonly line: number;
  readonly code: string;
}

/** The README and the guides and reference under docs/, README first, the rest by name. */
export function documentationFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every fenced block of README.md, in order. */
export function readmeBlocks(lang?: string): ReadmeBlock[] {
  return fileBlocks('README.md', lang);
}

/** Every fenced block of the README and of docs/*.md, file by file, in order. */
export function documentationBlocks(lang?: string): ReadmeBlock[] {
  return documentationFiles().flatMap((f) => fileBlocks(f, lang));
}

function fileBlocks(file: string, lang?: string): ReadmeBlock[] {
  const lines = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').split('\n');
  const out: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    out.push({ file, lang: open[1], line: start + 1, code: lines.slice(start, end).join('\n') + '\n' });
    i = end;
  }
  return lang === undefined ? out : out.filter((b) => b.lang === lang);
}
