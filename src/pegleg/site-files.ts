/**
 * The files of a Pegleg site, read from the file system: `site/<name>/site-definition.yaml`
 * gives the site type, then every `*.yaml` under `global/`, `type/<site_type>/` and
 * `site/<name>/`, as Pegleg collects them (see `collect.ts` for the rules).
 *
 * Order: Pegleg reads the files in `os.walk` order, which is the order the file system lists
 * them in (on ext4, hash order: not sorted, and not the same on another machine). Deckhand's
 * output depends on input order in a few places, so the order here is a fixed one: each folder's
 * files sorted by name, then its subfolders, sorted, one after the other (a sorted `os.walk`). To
 * reproduce one Pegleg run exactly, pass its files in its order instead.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic } from '../model/diagnostics';
import { isSiteFile, readsFilesIn, siteDefinitionPath, siteDirectories, siteNameProblem } from './collect';

/** The files of a site, or why they cannot be listed. */
export interface SiteFiles {
  /** `data.site_type` of the site definition; undefined when it could not be read. */
  readonly siteType?: string | undefined;
  /** Paths of the files to read, in reading order (the repository path joined with each). */
  readonly files: readonly string[];
  /** Problems with the repository or the site definition (errors), found together. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Code of the diagnostics about a site repository and its site definition. */
export const SITE_CODE = 'pegleg-site';

/**
 * Lists the files of `site` in the repository at `repo`, in the order described above. The site
 * definition is read with `readDefinition` (text to its `data.site_type`, or a problem), so that
 * the YAML reading stays with the loader.
 */
export function listSiteFiles(repo: string, site: string, readDefinition: (file: string, text: string) => { siteType: string } | { problem: string }): SiteFiles {
  const fail = (location: string, message: string): SiteFiles => ({ files: [], diagnostics: [{ severity: 'error', location, code: SITE_CODE, message }] });
  const badName = siteNameProblem(site);
  if (badName) return fail('--site', badName);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(repo);
  } catch {
    return fail(repo, `the site repository ${repo} does not exist`);
  }
  if (!stat.isDirectory()) return fail(repo, `the site repository ${repo} is not a directory`);
  const defFile = path.join(repo, ...siteDefinitionPath(site).split('/'));
  let text: string;
  try {
    text = fs.readFileSync(defFile, 'utf8');
  } catch {
    const sites = listSites(repo);
    return fail(defFile, `site ${JSON.stringify(site)} has no site definition (${siteDefinitionPath(site)} in ${repo})${sites.length > 0 ? `; the repository has sites ${sites.join(', ')}` : '; the repository has no site/ folder with sites'}`);
  }
  const def = readDefinition(defFile, text);
  if ('problem' in def) return fail(defFile, def.problem);
  const files: string[] = [];
  for (const dir of siteDirectories(site, def.siteType)) walk(repo, dir, files);
  return { siteType: def.siteType, files, diagnostics: [] };
}

/** The folders of `site/` (Pegleg's `list_sites`), sorted. */
export function listSites(repo: string): string[] {
  try {
    return fs
      .readdirSync(path.join(repo, 'site'), { withFileTypes: true })
      .filter((e) => isDirectory(path.join(repo, 'site', e.name), e))
      .map((e) => e.name)
      .sort(byName);
  } catch {
    return [];
  }
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDirectory(full: string, e: fs.Dirent): boolean {
  if (e.isDirectory()) return true;
  if (!e.isSymbolicLink()) return false;
  try {
    return fs.statSync(full).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A sorted `os.walk` of `repo/rel`: the folder's files, then each subfolder in turn. As in
 * `os.walk` (without `followlinks`), a link to a folder is not walked into, and a link to a file
 * is read; a folder that does not exist gives nothing.
 */
function walk(repo: string, rel: string, out: string[]): void {
  const full = path.join(repo, ...rel.split('/'));
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(full, { withFileTypes: true });
  } catch {
    return;
  }
  const files: string[] = [];
  const dirs: string[] = [];
  for (const e of entries) {
    const p = path.join(full, e.name);
    if (e.isDirectory()) dirs.push(e.name);
    else if (e.isSymbolicLink()) {
      let st: fs.Stats | undefined;
      try {
        st = fs.statSync(p);
      } catch {
        st = undefined;
      }
      if (st?.isDirectory()) continue;
      files.push(e.name);
    } else files.push(e.name);
  }
  if (readsFilesIn(rel)) for (const f of files.sort(byName)) if (isSiteFile(f)) out.push(path.join(full, f));
  for (const d of dirs.sort(byName)) walk(repo, `${rel}/${d}`, out);
}
