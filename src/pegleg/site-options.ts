/** The options of `loadPeglegSite` (see `site-manifest.ts`). */
import type { Construct } from 'constructs';

/** Where a secret value is, for {@link PeglegSiteOptions.secret}. */
export interface SecretValueLocation {
  /** The chart's name (`metadata.name` of its `armada/Chart` document). */
  readonly chart: string;
  /** The path of the value inside the chart's values. */
  readonly path: readonly (string | number)[];
}

/** Options of {@link loadPeglegSite}. */
export interface PeglegSiteOptions {
  /**
   * The site to render: `site/<site>/site-definition.yaml` of {@link repo} names its type, and
   * every `*.yaml` of `global/`, `type/<site_type>/` and `site/<site>/` is read, in sorted path
   * order (Pegleg reads them in the file system's order; pass {@link files} for another).
   * @default - none: {@link files} are read instead
   */
  readonly site?: string | undefined;
  /**
   * The site repository of {@link site}.
   * @default '.' (the current directory)
   */
  readonly repo?: string | undefined;
  /**
   * Files to read instead of a whole site, in the order given: a site's files (rendered first),
   * or documents rendered already (with {@link rendered}).
   * @default - none: {@link site} is read
   */
  readonly files?: readonly string[] | undefined;
  /**
   * {@link files} hold documents Deckhand rendered already (`pegleg site render`'s output): they
   * are read as they are, not rendered again.
   * @default false
   */
  readonly rendered?: boolean | undefined;
  /**
   * The `armada/Manifest` to build.
   * @default - the manifest a `shipyard/DeploymentConfiguration/v1` names (`data.armada.manifest`), else the only manifest
   */
  readonly targetManifest?: string | undefined;
  /**
   * Where to create the manifest construct.
   * @default - a construct tree of its own
   */
  readonly scope?: Construct | undefined;
  /**
   * Construct id of the manifest.
   * @default - the manifest's name
   */
  readonly id?: string | undefined;
  /**
   * What a secret chart value becomes (a value substituted from a `deckhand/Passphrase`,
   * `Certificate`, `CertificateKey`, `CertificateAuthorityKey`, `PrivateKey` or `PublicKey`
   * document, or an encrypted one): `armada-cdk/pulumi`'s `loadPeglegSite` makes it a Pulumi
   * secret.
   * @default - the value as it is
   */
  readonly secret?: ((value: unknown, where: SecretValueLocation) => unknown) | undefined;
}

