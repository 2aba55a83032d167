/**
 * Pegleg's site collection rules (`pegleg/engine/util/definition.py` and `files.py`), as pure
 * functions: which folders of a site repository hold a site's documents, and which files of a
 * folder Pegleg reads. The file system walk itself is in `site-files.ts`.
 */

/** `site/<name>/site-definition.yaml`, relative to the repository, with `/` separators. */
export function siteDefinitionPath(site: string): string {
  return `site/${site}/site-definition.yaml`;
}

/** Pegleg's `directories_for`: `global`, `type/<site_type>` and `site/<name>`, in that order. */
export function siteDirectories(site: string, siteType: string): string[] {
  return ['global', `type/${siteType}`, `site/${site}`];
}

/**
 * Whether Pegleg reads the files directly in `dir` (relative to the repository, `/` separators):
 * not in a folder whose own name starts with `.` (Pegleg's `os.walk` still goes into its
 * subfolders, and reads those), and not anywhere under a folder named `tools`. Pegleg tests the
 * `tools` rule on the whole path, the repository's own location included (a repository checked
 * out under a folder named `tools` gives it no documents at all); here only the path inside the
 * repository counts.
 */
export function readsFilesIn(dir: string): boolean {
  const parts = dir.split('/');
  if (parts[parts.length - 1].startsWith('.')) return false;
  return !parts.includes('tools');
}

/** Whether Pegleg reads a file of that name: `*.yaml` (not `.yml`), not hidden. */
export function isSiteFile(name: string): boolean {
  return !name.startsWith('.') && name.endsWith('.yaml');
}

/** Whether a site name can name a folder of `site/` (no separator, not `.` or `..`). */
export function siteNameProblem(site: string): string | undefined {
  if (site === '' || site === '.' || site === '..' || /[/\\\0]/.test(site)) return `${JSON.stringify(site)} is not a site name: it names a folder of site/ (no "/", not "." or "..")`;
  return undefined;
}
