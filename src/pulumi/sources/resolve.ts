import * as path from 'path';
import { ChartSource, SourceType } from '../../model/source';
import { locateChart } from './chart-dir';
import { ChartSourceError, redact } from './errors';
import { fetchGitRepository } from './git-source';
import { ResolveChartSourceOptions } from './options';
import { fetchTarball } from './tar-source';

/** A chart directory on disk, ready for `helm install`. */
export interface ResolvedChartSource {
  /** Absolute chart directory: the fetched source plus `subpath`. Do not modify it: it is shared. */
  readonly dir: string;
  /** Absolute directory of the whole source: `location`, the extracted tarball or the clone. */
  readonly root: string;
  /** The source type that was resolved. */
  readonly type: SourceType;
  /** Full commit SHA the reference resolved to (git sources). */
  readonly commit?: string | undefined;
  /** Hex SHA-256 of the downloaded tarball (tar sources). */
  readonly sha256?: string | undefined;
  /** True when nothing was downloaded or cloned (local sources, and cache hits). */
  readonly cached: boolean;
}

/**
 * Fetches a chart the way Armada's pre-flight does (`ChartDownload`) and returns its directory.
 *
 * - `local`: `location/subpath` as it is; nothing is copied.
 * - `tar`: HTTP(S) GET of `location` (redirects followed, through `proxyServer` if set), extracted
 *   into the cache, chart at `<extracted>/<subpath>`. TLS is verified unless `insecure` is set;
 *   Armada verifies only when its `certs` option is configured.
 * - `git`: `git clone location`, `git fetch origin <reference>`, checkout of `FETCH_HEAD`, so the
 *   reference may be a branch, tag, commit SHA or Gerrit `refs/changes/…` ref (default `master`).
 *   One clone per (location, reference), shared by every chart and by concurrent calls.
 *
 * Downloads and clones are cached on disk under `cacheDir` and reused by later runs; see
 * `ResolveChartSourceOptions.refresh` for branches and URLs that move.
 *
 * @throws ChartSourceError with a `code` and a message naming the source, the paths and the fix
 */
export async function resolveChartSource(source: ChartSource, options: ResolveChartSourceOptions = {}): Promise<ResolvedChartSource> {
  const subpath = source.effectiveSubpath;
  switch (source.type) {
    case SourceType.LOCAL: {
      const root = path.resolve(source.location);
      const dir = await locateChart(root, subpath, `local source ${source.location}`, false);
      return { dir, root, type: SourceType.LOCAL, cached: true };
    }
    case SourceType.TAR: {
      const t = await fetchTarball(source.location, source.proxyServer, options);
      const dir = await locateChart(t.root, subpath, `tar source ${redact(source.location)}`, true);
      return { dir, root: t.root, type: SourceType.TAR, sha256: t.sha256, cached: t.cached };
    }
    case SourceType.GIT: {
      const reference = source.effectiveReference ?? 'master';
      const g = await fetchGitRepository({ location: source.location, reference, proxyServer: source.proxyServer, authMethod: source.authMethod }, options);
      const dir = await locateChart(g.root, subpath, `git source ${redact(source.location)}@${reference}`, true);
      return { dir, root: g.root, type: SourceType.GIT, commit: g.commit, cached: g.cached };
    }
    default:
      // Reachable from plain objects and imported documents (`type: dev`), which the type system cannot stop.
      throw new ChartSourceError('unsupported-type', `source type "${String((source as { type?: unknown }).type)}" is not supported; Armada accepts local, tar and git`);
  }
}
