import { brand, isBranded } from './brand';

/** How Armada fetches a chart (`source.type`). */
export enum SourceType {
  /** A directory on the machine that runs Armada: `location/subpath`. */
  LOCAL = 'local',
  /** A chart tarball fetched over HTTP(S), extracted, then `subpath` inside it. */
  TAR = 'tar',
  /** A git repository cloned, `reference` fetched and checked out, then `subpath` inside it. */
  GIT = 'git',
}

/** Options shared by every source. */
export interface SourceOptions {
  /**
   * Path of the chart inside the directory, tarball or repository.
   * @default - Armada's default, `.` (the root); left out of the output unless written
   */
  readonly subpath?: string | undefined;
}

/** Options of a tarball source. */
export interface TarSourceOptions extends SourceOptions {
  /**
   * HTTP(S) proxy for the download (`source.proxy_server`).
   * @default - no proxy
   */
  readonly proxyServer?: string | undefined;
}

/** Options of a git source. */
export interface GitSourceOptions extends SourceOptions {
  /**
   * What to check out: a branch, a tag, a commit SHA or a Gerrit `refs/changes/...` ref.
   * @default - Armada's default, `master`; left out of the output unless written
   */
  readonly reference?: string | undefined;
  /**
   * Proxy for git (`http.proxy`).
   * @default - no proxy
   */
  readonly proxyServer?: string | undefined;
  /**
   * `ssh` to clone with the SSH key configured for Armada (case-insensitive, as in Armada).
   * @default - anonymous clone
   */
  readonly authMethod?: string | undefined;
}

const SOURCE = Symbol.for('armada-cdk.ChartSource');

/** Where a chart comes from (Armada `source`). Build one with `ChartSource.git`, `.tar` or `.local`. */
export class ChartSource {
  /** A chart in a git repository, for example `ChartSource.git('https://opendev.org/openstack/openstack-helm', { subpath: 'keystone' })`. */
  public static git(location: string, options: GitSourceOptions = {}): ChartSource {
    return new ChartSource(SourceType.GIT, location, options.subpath, options.reference, options.proxyServer, options.authMethod);
  }
  /** A chart tarball downloaded over HTTP(S). */
  public static tar(location: string, options: TarSourceOptions = {}): ChartSource {
    return new ChartSource(SourceType.TAR, location, options.subpath, undefined, options.proxyServer, undefined);
  }
  /** A chart directory on the machine that runs the deployment. */
  public static local(location: string, options: SourceOptions = {}): ChartSource {
    return new ChartSource(SourceType.LOCAL, location, options.subpath, undefined, undefined, undefined);
  }
  /** True when `x` is a ChartSource (also across copies of this library). */
  public static isChartSource(x: unknown): x is ChartSource {
    return isBranded(x, SOURCE);
  }

  private constructor(
    /** `local`, `tar` or `git`. */
    public readonly type: SourceType,
    /** Directory, URL of the tarball, or URL of the repository. */
    public readonly location: string,
    /** Path of the chart inside the source, as written (undefined: Armada's `.`). */
    public readonly subpath: string | undefined,
    /** Git reference, as written (undefined: Armada's `master`). */
    public readonly reference: string | undefined,
    /** Proxy, as written. */
    public readonly proxyServer: string | undefined,
    /** Git auth method, as written. */
    public readonly authMethod: string | undefined,
  ) {
    brand(this, SOURCE);
  }

  /** The subpath Armada uses: `.` when none was written. */
  public get effectiveSubpath(): string {
    return this.subpath ?? '.';
  }
  /** The git reference Armada checks out: `master` when none was written (git sources only). */
  public get effectiveReference(): string | undefined {
    return this.type === SourceType.GIT ? (this.reference ?? 'master') : undefined;
  }
}

