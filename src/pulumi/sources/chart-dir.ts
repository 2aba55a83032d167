import { promises as fs } from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { isDirectory } from './cache';
import { ChartSourceError } from './errors';

/** What `Chart.yaml` says about a chart, as far as this module needs it. */
export interface ChartMetadata {
  readonly name: string;
  readonly version?: string | undefined;
  /** Names of the subcharts listed under `dependencies:` (Helm 3 `apiVersion: v2`). */
  readonly dependencies: readonly string[];
}

/** Reads and parses `<dir>/Chart.yaml`; `what` names the chart in messages. */
export async function readChartMetadata(dir: string, what: string): Promise<ChartMetadata> {
  const file = path.join(dir, 'Chart.yaml');
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new ChartSourceError('not-a-chart', `${what}: ${dir} is not a Helm chart: ${file} does not exist`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new ChartSourceError('not-a-chart', `${what}: ${file} is not valid YAML: ${(e as Error).message}`, undefined, { cause: e });
  }
  const obj = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
  const name = obj.name;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ChartSourceError('not-a-chart', `${what}: ${file} has no \`name\`; Helm needs it to load the chart`);
  }
  const deps = Array.isArray(obj.dependencies) ? obj.dependencies : [];
  return {
    name: name.trim(),
    version: typeof obj.version === 'string' || typeof obj.version === 'number' ? String(obj.version) : undefined,
    dependencies: deps.flatMap((d) => (typeof d === 'object' && d !== null && typeof (d as { name?: unknown }).name === 'string' ? [(d as { name: string }).name] : [])),
  };
}

/**
 * Checks that `root/subpath` is a chart directory. `what` names the source in messages
 * (`git source https://…@master`); `confine` refuses a subpath that leaves `root`, because for
 * fetched sources that would point into some other cache entry or anywhere on the machine.
 * @returns the absolute chart directory
 */
export async function locateChart(root: string, subpath: string, what: string, confine: boolean): Promise<string> {
  const dir = path.resolve(root, subpath);
  if (confine) {
    const rel = path.relative(root, dir);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
      throw new ChartSourceError('invalid-option', `${what}: subpath "${subpath}" points outside the fetched source; use a path inside it, such as the chart's directory name`);
    }
  }
  if (confine) await confineReal(root, dir, subpath, what);
  let stat;
  try {
    stat = await fs.stat(dir);
  } catch {
    if (!confine && !(await isDirectory(root))) {
      throw new ChartSourceError('not-found', `${what}: location ${root} does not exist (chart directory would be ${dir})`);
    }
    throw new ChartSourceError('not-found', `${what}: subpath "${subpath}" does not exist: ${dir} not found in ${root}${await hint(root)}`);
  }
  if (!stat.isDirectory()) {
    throw new ChartSourceError('not-found', `${what}: ${dir} is a file, not a chart directory (location ${root}, subpath "${subpath}")`);
  }
  try {
    await fs.access(path.join(dir, 'Chart.yaml'));
  } catch {
    throw new ChartSourceError(
      'not-a-chart',
      `${what}: ${dir} is not a Helm chart: ${path.join(dir, 'Chart.yaml')} does not exist (location ${root}, subpath "${subpath}")${await hint(root)}`,
    );
  }
  if (confine) await refuseEscapingLinks(dir, what);
  return dir;
}

/**
 * The lexical check cannot see symbolic links: a subpath that is one (or goes through one) may
 * lead out of the clone, into another cache entry or anywhere on the machine.
 */
async function confineReal(root: string, dir: string, subpath: string, what: string): Promise<void> {
  let realRoot: string;
  let realDir: string;
  try {
    [realRoot, realDir] = await Promise.all([fs.realpath(root), fs.realpath(dir)]);
  } catch {
    return; // a missing directory is reported by the caller
  }
  if (!inside(realRoot, realDir)) {
    throw new ChartSourceError(
      'unsafe-symlink',
      `${what}: subpath "${subpath}" goes through a symbolic link to ${realDir}, outside the fetched source; name the chart's real directory instead`,
    );
  }
}

/**
 * A fetched chart is installed from a copy, where a link out of the chart would point at
 * whatever is there on the machine: such links are refused, all of them named at once.
 */
async function refuseEscapingLinks(chartDir: string, what: string): Promise<void> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name === '.git') continue;
      const abs = path.join(dir, e.name);
      if (e.isSymbolicLink()) {
        const target = await fs.readlink(abs);
        const lexical = path.resolve(path.dirname(abs), target);
        const real = await fs.realpath(abs).catch(() => lexical);
        if (!inside(chartDir, lexical) || !inside(await fs.realpath(chartDir), real)) found.push(`${path.relative(chartDir, abs).split(path.sep).join('/')} -> ${target}`);
      } else if (e.isDirectory()) {
        await walk(abs);
      }
    }
  };
  await walk(chartDir);
  if (found.length > 0) {
    throw new ChartSourceError(
      'unsafe-symlink',
      `${what}: the chart ${chartDir} holds symbolic links that point outside it, which are refused: ${found.join(', ')}; replace each with the file or directory it points to`,
    );
  }
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** Tarballs usually hold one top-level `<chart>/` directory, so the usual fix is naming it as subpath. */
async function hint(root: string): Promise<string> {
  const found: string[] = [];
  try {
    if (await exists(path.join(root, 'Chart.yaml'))) found.push('.');
    const entries = await fs.readdir(root, { withFileTypes: true });
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= 10) break;
      if (e.isDirectory() && e.name !== '.git' && (await exists(path.join(root, e.name, 'Chart.yaml')))) found.push(e.name);
    }
  } catch {
    return '';
  }
  return found.length > 0 ? `; charts found at subpath ${found.map((f) => `"${f}"`).join(', ')}` : '';
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}
