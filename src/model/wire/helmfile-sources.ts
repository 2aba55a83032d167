/**
 * A chart's `source` as the `chart:` of a Helmfile release. Helmfile fetches remote charts with
 * go-getter (`git::URL@SUBPATH?ref=REF`) and hands Helm a chart URL as it is; a local directory is
 * a path, which Helmfile resolves from the helmfile's directory.
 */
import { FieldPath, show } from '../diagnostics';
import { redactCredentials } from '../safe-text';
import { ChartSource, SourceType } from '../source';

/** The chart a release installs, and what the mapping found about it. */
export interface HelmfileChart {
  /** The release's `chart:`, or undefined when the source cannot be expressed (an error). */
  readonly chart?: string | undefined;
  readonly findings: readonly SourceFinding[];
}

/** One finding about a source: an error (no usable chart) or a warning. */
export interface SourceFinding {
  readonly severity: 'error' | 'warning';
  readonly field: FieldPath;
  readonly code: 'helmfile-source' | 'helmfile-assumption' | 'not-expressible';
  readonly message: string;
}

const FULL_SHA = /^[0-9a-fA-F]{40}$/;
const PACKAGED = /^(.+?)-(v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)\.(?:tgz|tar\.gz)$/;

/** A path without `.` segments, empty segments or a trailing slash; `.` for none. */
export function cleanSubpath(subpath: string | undefined): string {
  const p = (subpath ?? '.').split('/').filter((s) => s !== '' && s !== '.').join('/');
  return p === '' ? '.' : p;
}

/**
 * The `chart:` of a release whose source is `s`. `assembled` is the directory armada-cdk (or the
 * user) assembled the chart into, which wins over the source.
 */
export function helmfileChart(s: ChartSource, assembled: string | undefined): HelmfileChart {
  if (assembled !== undefined) return { chart: assembled, findings: [] };
  if (s.type === SourceType.LOCAL) return local(s);
  if (s.type === SourceType.GIT) return git(s);
  return tar(s);
}

function local(s: ChartSource): HelmfileChart {
  const sub = cleanSubpath(s.subpath);
  const base = s.location.replace(/\/+$/, '') || '/';
  const chart = sub === '.' ? base : `${base === '/' ? '' : base}/${sub}`;
  const findings: SourceFinding[] = [];
  if (!chart.startsWith('/')) {
    findings.push({
      severity: 'warning',
      field: ['source', 'location'],
      code: 'helmfile-assumption',
      message: `for Helmfile: the relative local path ${show(chart)} is read from the helmfile's directory, where Armada read it from its own working directory; write an absolute path, or put the helmfile where the path holds`,
    });
  }
  // Helmfile reads a chart name of the form repo/chart as a repository's chart: a relative path
  // must say it is one.
  return { chart: chart.startsWith('/') || chart.startsWith('./') || chart.startsWith('../') ? chart : `./${chart}`, findings };
}

/** A URL go-getter's git getter clones: http(s), ssh, git://, or scp-like `user@host:path` as ssh. */
function gitUrl(loc: string): string | undefined {
  if (/^(?:https?|ssh|git):\/\/[^/]/.test(loc)) return loc;
  const scp = /^([A-Za-z0-9._-]+@)?([A-Za-z0-9.-]+):(?!\/\/)(.+)$/.exec(loc);
  if (scp) return `ssh://${scp[1] ?? ''}${scp[2]}/${scp[3].replace(/^\//, '')}`;
  return undefined;
}

/** The URL without its credentials, and whether it had any. */
function withoutCredentials(url: string): { url: string; had: boolean } {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/@]*:[^/@]*@)(.*)$/i.exec(url);
  return m ? { url: `${m[1]}${m[3]}`, had: true } : { url, had: false };
}

function git(s: ChartSource): HelmfileChart {
  const findings: SourceFinding[] = [];
  const loc = gitUrl(s.location);
  if (loc === undefined) {
    return {
      findings: [{ severity: 'error', field: ['source', 'location'], code: 'helmfile-source', message: `received ${show(redactCredentials(s.location))}; Helmfile clones a git chart with go-getter, which needs an http(s)://, ssh:// or git:// URL, or user@host:path` }],
    };
  }
  const { url, had } = withoutCredentials(loc);
  if (had) {
    findings.push({
      severity: 'warning',
      field: ['source', 'location'],
      code: 'helmfile-assumption',
      message: 'for Helmfile: the URL carries credentials, which are left out so that the helmfile does not hold them in clear; give git its credentials another way (a credential helper, a .netrc, or an SSH key with an ssh:// URL)',
    });
  }
  const sub = cleanSubpath(s.subpath);
  // Helmfile splits the URL's path at '@' into the repository and the chart's path inside it.
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '');
  if (path.includes('@') || sub.includes('@') || url.includes('?') || url.includes('#')) {
    return {
      findings: [...findings, { severity: 'error', field: ['source', 'location'], code: 'helmfile-source', message: `received ${show(redactCredentials(s.location))} with subpath ${show(s.subpath ?? '.')}; Helmfile reads a git chart as git::URL@SUBPATH?ref=REF, so neither the repository path nor the subpath may contain '@', and the URL may have no query or fragment` }],
    };
  }
  const ref = s.effectiveReference ?? 'master';
  // go-getter caches a clone by URL and ref for good; Armada fetched the reference on every
  // apply, so anything but a commit is fetched again on every run.
  const query = new URLSearchParams({ ref });
  if (!FULL_SHA.test(ref)) query.set('cache', 'false');
  if (ref.startsWith('refs/changes/')) {
    findings.push({
      severity: 'warning',
      field: ['source', 'reference'],
      code: 'helmfile-assumption',
      message: `for Helmfile: go-getter checks out ${show(ref)} with git clone --branch, which takes branches and tags only, where Armada fetched any reference; a Gerrit change fails to clone: pin it to the change's commit SHA`,
    });
  }
  if (s.proxyServer !== undefined) {
    findings.push({ severity: 'warning', field: ['source', 'proxyServer'], code: 'not-expressible', message: `cannot be expressed for Helmfile: proxyServer ${show(redactCredentials(s.proxyServer))}: go-getter runs git with the environment of helmfile, so set HTTPS_PROXY (or git's http.proxy) there` });
  }
  if (s.authMethod !== undefined) {
    findings.push({ severity: 'warning', field: ['source', 'authMethod'], code: 'helmfile-assumption', message: `for Helmfile: authMethod ${show(s.authMethod)}: git clones with the SSH key and known_hosts of the user running helmfile, where Armada used the key configured for it` });
  }
  return { chart: `git::${url}@${sub}?${query.toString()}`, findings };
}

function tar(s: ChartSource): HelmfileChart {
  const findings: SourceFinding[] = [];
  const m = /^(https?:\/\/[^/]+(?:\/.*)?)\/([^/?#]+)$/.exec(s.location);
  if (!m) {
    return { findings: [{ severity: 'error', field: ['source', 'location'], code: 'helmfile-source', message: `received ${show(redactCredentials(s.location))}; Helmfile fetches a chart archive from an http(s) URL of the file` }] };
  }
  const { url, had } = withoutCredentials(s.location);
  if (had) {
    findings.push({ severity: 'warning', field: ['source', 'location'], code: 'helmfile-assumption', message: 'for Helmfile: the URL carries credentials, which are left out so that the helmfile does not hold them in clear; serve the archive without them, or add the server as a Helm repository with its credentials' });
  }
  if (s.proxyServer !== undefined) {
    findings.push({ severity: 'warning', field: ['source', 'proxyServer'], code: 'not-expressible', message: `cannot be expressed for Helmfile: proxyServer ${show(redactCredentials(s.proxyServer))}: Helmfile downloads with the environment of helmfile, so set HTTPS_PROXY there` });
  }
  const sub = cleanSubpath(s.subpath);
  const packaged = PACKAGED.exec(m[2]);
  if (sub.includes('/')) {
    // Helm loads an archive's one top-level directory; a chart deeper inside needs the archive
    // unpacked, which go-getter does for a forced http getter.
    findings.push({ severity: 'warning', field: ['source', 'subpath'], code: 'helmfile-assumption', message: `for Helmfile: subpath ${show(s.subpath)} below the archive's top directory: written as a go-getter source (http::URL@SUBPATH), which unpacks the archive by its file extension; check that the URL ends in .tgz or .tar.gz` });
    if (url.includes('@')) return { findings: [...findings, { severity: 'error', field: ['source', 'location'], code: 'helmfile-source', message: `received ${show(redactCredentials(s.location))}; a go-getter source splits at '@', so the URL may not contain one` }] };
    return { chart: `http::${url}@${sub}`, findings };
  }
  if (packaged && sub !== '.' && sub !== packaged[1]) {
    findings.push({ severity: 'warning', field: ['source', 'subpath'], code: 'helmfile-assumption', message: `for Helmfile: Helm installs the archive's one top-level directory, which is assumed to be ${show(sub)} (the file name says chart ${show(packaged[1])})` });
  }
  return { chart: url, findings };
}
