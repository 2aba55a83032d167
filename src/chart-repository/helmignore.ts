/**
 * The files Helm reads from a chart directory (`helm install DIR`, `helm package DIR`): what
 * `.helmignore` and Helm's default rule (`templates/.?*`) leave, symbolic links followed. A chart
 * packaged from this list is the chart Helm installs from the directory, so the Pulumi path (which
 * hands Helm the directory) and a packaged chart render the same files.
 *
 * The rules are Helm 3's (pkg/ignore): one pattern a line, `#` comments, no `**`; `!` negates,
 * a trailing `/` matches directories only, a leading `/` or any `/` matches the whole relative
 * path, otherwise the base name alone; patterns are Go `filepath.Match` globs. Helm's negation
 * is not gitignore's: a path that a `!pattern` does NOT match is ignored.
 */
import { promises as fs } from 'fs';
import * as path from 'path';

/** A file of a chart: its path below the chart directory (with `/`) and its bytes. */
export interface ChartFile {
  readonly name: string;
  readonly data: Buffer;
}

interface Rule {
  readonly raw: string;
  readonly negate: boolean;
  readonly mustDir: boolean;
  /** Matches the whole relative path (a `/` in the pattern) or only its base name. */
  readonly whole: boolean;
  readonly re: RegExp;
}

/** A pattern Helm refuses (Helm then refuses the chart), with the reason. */
export class HelmIgnoreError extends Error {}

/** Go's `filepath.Match` pattern as a regular expression; throws on a pattern Go calls bad. */
export function goGlob(pattern: string): RegExp {
  let re = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '*') {
      re += '[^/]*';
      i++;
    } else if (c === '?') {
      re += '[^/]';
      i++;
    } else if (c === '\\') {
      if (i + 1 >= pattern.length) throw new HelmIgnoreError(`${JSON.stringify(pattern)}: a pattern cannot end with \\`);
      re += escapeRe(pattern[i + 1]);
      i += 2;
    } else if (c === '[') {
      let j = i + 1;
      let cls = '';
      if (pattern[j] === '^') {
        cls += '^';
        j++;
      }
      let first = true;
      for (;;) {
        if (j >= pattern.length) throw new HelmIgnoreError(`${JSON.stringify(pattern)}: a character class is not closed with ]`);
        if (pattern[j] === ']' && !first) break;
        first = false;
        let lo = pattern[j];
        if (lo === '\\') {
          j++;
          if (j >= pattern.length) throw new HelmIgnoreError(`${JSON.stringify(pattern)}: a character class is not closed with ]`);
          lo = pattern[j];
        }
        j++;
        if (pattern[j] === '-' && pattern[j + 1] !== ']' && j + 1 < pattern.length) {
          let hi = pattern[j + 1];
          j += 2;
          if (hi === '\\') {
            hi = pattern[j] ?? '';
            j++;
          }
          if (hi === '' || hi < lo) throw new HelmIgnoreError(`${JSON.stringify(pattern)}: a bad range in a character class`);
          cls += `${escapeRe(lo)}-${escapeRe(hi)}`;
        } else cls += escapeRe(lo);
      }
      // A class never matches the separator, as in Go.
      re += cls.startsWith('^') ? `[${cls}/]` : `(?!/)[${cls}]`;
      i = j + 1;
    } else {
      re += escapeRe(c);
      i++;
    }
  }
  return new RegExp(`^${re}$`, 's');
}

function escapeRe(c: string): string {
  return c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** The rules of a `.helmignore` text, then Helm's default rule. */
export function parseHelmIgnore(text: string | undefined): Rule[] {
  const rules: Rule[] = [];
  const lines = text === undefined ? [] : text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const line of [...lines, 'templates/.?*']) {
    let rule = line.trim();
    if (rule === '' || rule.startsWith('#')) continue;
    if (rule.includes('**')) throw new HelmIgnoreError(`${JSON.stringify(line)}: Helm does not support ** in .helmignore`);
    const raw = rule;
    const negate = rule.startsWith('!');
    if (negate) rule = rule.slice(1);
    const mustDir = rule.endsWith('/');
    if (mustDir) rule = rule.slice(0, -1);
    const rooted = rule.startsWith('/');
    if (rooted) rule = rule.slice(1);
    rules.push({ raw, negate, mustDir, whole: rooted || rule.includes('/'), re: goGlob(rule) });
  }
  return rules;
}

/** Whether Helm leaves out `rel` (relative, with `/`), as pkg/ignore's Rules.Ignore decides. */
export function ignored(rules: readonly Rule[], rel: string, isDir: boolean): boolean {
  if (rel === '' || rel === '.' || rel === './') return false;
  for (const r of rules) {
    const subject = r.whole ? rel : rel.slice(rel.lastIndexOf('/') + 1);
    if (r.negate) {
      if (r.mustDir && !isDir) return true;
      if (!r.re.test(subject)) return true;
      continue;
    }
    if (r.mustDir && !isDir) continue;
    if (r.re.test(subject)) return true;
  }
  return false;
}

/**
 * The files Helm loads from the chart directory `dir`, sorted by name (byte order), as Helm's
 * LoadDir walks it: links followed (a loop is an error), ignored directories skipped whole,
 * anything but a regular file an error. `.git` is never part of a chart here (the sources leave
 * it out of what they hand over).
 */
export async function chartFiles(dir: string): Promise<ChartFile[]> {
  const top = path.resolve(dir);
  let ignoreText: string | undefined;
  try {
    ignoreText = await fs.readFile(path.join(top, '.helmignore'), 'utf8');
  } catch {
    ignoreText = undefined;
  }
  const rules = parseHelmIgnore(ignoreText);
  const out: ChartFile[] = [];
  const walk = async (abs: string, rel: string, seen: readonly string[]): Promise<void> => {
    const names = (await fs.readdir(abs)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      if (name === '.git' && rel === '') continue;
      const p = path.join(abs, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = await fs.stat(p).catch((e: NodeJS.ErrnoException) => {
        throw new HelmIgnoreError(`${r}: ${e.code === 'ENOENT' ? 'a symbolic link to nothing' : e.message}`);
      });
      if (st.isDirectory()) {
        if (ignored(rules, r, true)) continue;
        const real = await fs.realpath(p);
        if (seen.includes(real)) throw new HelmIgnoreError(`${r}: a symbolic link loop`);
        await walk(p, r, [...seen, real]);
        continue;
      }
      if (ignored(rules, r, false)) continue;
      if (!st.isFile()) throw new HelmIgnoreError(`${r}: not a regular file (Helm refuses to load it)`);
      out.push({ name: r, data: await fs.readFile(p) });
    }
  };
  await walk(top, '', [await fs.realpath(top)]);
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
