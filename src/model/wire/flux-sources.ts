/**
 * The Flux source objects (`source.toolkit.fluxcd.io/v1`) a site needs: one GitRepository per
 * repository, reference and namespace, one HelmRepository per tarball directory and namespace,
 * shared by every HelmRelease that uses them, with deterministic DNS-1123 names.
 *
 * Names are readable and scoped to the site: `<site>.<repository>-<ref>`
 * (`osh.openstack-helm-infra-master`). The dot cannot occur in either part, so two sites never
 * share a source, even when one's name ends as another's repository begins (sites `a-b` and `a`),
 * and the site's part differs for any two manifest names (`a.b` and `a-b`: see {@link siteSlug});
 * only when two different sources of a site would get the same readable name do all of them take
 * a short hash of what they fetch, so that a name never depends on the order in which charts were
 * written. Every name has at most 63 characters, and none is one of Flux's own (`flux-system`).
 */

import { redactCredentials } from '../safe-text';

export const SOURCE_API_VERSION = 'source.toolkit.fluxcd.io/v1';

/** What a GitRepository checks out (`spec.ref`): exactly one field. */
export type GitRef = { readonly branch: string } | { readonly commit: string } | { readonly name: string };

/** A source one or more HelmReleases read their chart from. */
export type FluxSourceKey =
  | { readonly kind: 'GitRepository'; readonly namespace: string; readonly url: string; readonly ref: GitRef }
  | { readonly kind: 'HelmRepository'; readonly namespace: string; readonly url: string };

const FULL_SHA = /^[0-9a-fA-F]{40}$/;

/**
 * Armada's git `reference` as a GitRepository `ref`: a full commit SHA is a commit (lower case,
 * as Flux compares it), a `refs/...` reference (Gerrit's `refs/changes/...`, a tag as
 * `refs/tags/...`) is a `name`, anything else a branch, as Armada fetches it (`git fetch origin
 * <reference>`); `master` when none was written.
 */
export function gitRef(reference: string | undefined): GitRef {
  const r = reference ?? 'master';
  if (FULL_SHA.test(r)) return { commit: r.toLowerCase() };
  if (r.startsWith('refs/')) return { name: r };
  return { branch: r };
}

/**
 * Why a reference written as a branch may be none: `git fetch origin <reference>`, as Armada
 * runs it, takes a tag, an abbreviated commit or HEAD as well, where a GitRepository's `branch`
 * is only ever a branch (the source never becomes Ready). Undefined for a name that looks like a
 * branch.
 */
export function doubtfulBranch(reference: string): string | undefined {
  if (reference === 'HEAD') return 'HEAD (the remote\'s default branch): name that branch';
  if (/^[0-9a-fA-F]{7,39}$/.test(reference)) return `${JSON.stringify(reference)} looks like an abbreviated commit: write the full 40-character SHA`;
  if (/^v?\d+(?:\.\d+)+(?:[-+.][0-9A-Za-z.-]+)?$/.test(reference)) return `${JSON.stringify(reference)} looks like a tag: if it is one, write refs/tags/${reference}`;
  return undefined;
}

function refText(ref: GitRef): string {
  if ('commit' in ref) return ref.commit.slice(0, 12);
  if ('name' in ref) return ref.name.replace(/^refs\//, '');
  return ref.branch;
}

/** Identity of a source: two keys with the same identity are one object. */
export function sourceIdentity(key: FluxSourceKey): string {
  const ref = key.kind === 'GitRepository' ? ` ${JSON.stringify(key.ref)}` : '';
  return `${key.kind} ${key.namespace} ${key.url}${ref}`;
}

/** Lower-case letters, digits and single hyphens, at most `max` characters. */
export function slug(text: string, max = 63): string {
  const s = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return s.slice(0, max).replace(/-+$/, '');
}

/** FNV-1a, 32 bits, as 8 hex digits: a stable short hash without a crypto dependency. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The last path segment of a URL (without `.git`, a query or a fragment), or its host when the path is empty. */
function urlStem(url: string): string {
  // Names are printed and written in clear: nothing of credentials, a query or a fragment in them.
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/]*)(\/.*)?$/i.exec(redactCredentials(url).replace(/[?#].*$/s, ''));
  const host = (m?.[1] ?? url).replace(/^.*@/, '').replace(/:\d+$/, '');
  const segments = (m?.[2] ?? '').split('/').filter((s) => s !== '');
  const last = segments.length > 0 ? segments[segments.length - 1].replace(/\.git$/, '') : host;
  return slug(last) || slug(host) || 'source';
}

/**
 * The names `flux bootstrap` and `flux install` give their own objects (the GitRepository and
 * Kustomization that sync Flux itself, its namespace): an object of the output with one of these
 * names would replace Flux's own.
 */
export const FLUX_RESERVED_NAMES: ReadonlySet<string> = new Set(['flux-system']);

/**
 * The site's part of every name: at most 20 characters, never empty, and a different one for
 * each manifest name, so that two sites written into one Flux repository (or one namespace)
 * never share an object. A name that is already lower-case letters, digits and single hyphens,
 * of at most 20 characters, is kept; any other (`a.b`, `Site`, a long one) keeps a readable
 * start and takes a hash of the whole name (`a-b-1f0c2e4d`), and so does a name that ends the
 * way such a one does, which `a.b` would otherwise meet as `a-b`.
 */
export function siteSlug(site: string): string {
  const s = slug(site, 20);
  if (s !== '' && s === site && !HASHED_SLUG.test(site)) return s;
  return `${slug(site, 11) || 'site'}-${shortHash(site)}`;
}

/** How {@link siteSlug} ends a name it hashed. */
const HASHED_SLUG = /-[0-9a-f]{8}$/;

/**
 * `<site>.<rest>`, at most 54 characters (room for a hash suffix: 63 in all), for the objects of
 * the output whose names no Armada document gives.
 */
export function scopedName(site: string, rest: string): string {
  const prefix = siteSlug(site);
  return `${prefix}.${slug(rest, 53 - prefix.length) || 'x'}`;
}

/**
 * The HelmRelease of Helm release `release` of a site: `<site>.<release>`, so that two sites (two
 * manifests with the same `releasePrefix`) in one Flux namespace never share one. At most 63
 * characters: helm-controller labels every object of the release with it
 * (`helm.toolkit.fluxcd.io/name`), and a label value has at most 63. A release too long for that
 * keeps its first characters and takes a short hash of the whole name, so that the name stays
 * deterministic and two long releases do not meet. The Helm release itself is `spec.releaseName`.
 */
export function helmReleaseObjectName(site: string, release: string): string {
  const prefix = siteSlug(site);
  const room = 63 - prefix.length - 1;
  // A release name is a DNS label already (Helm's rule): kept as it is, so that two never meet.
  const rest = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/.test(release) ? release : slug(release);
  if (rest.length <= room && rest !== '') return `${prefix}.${rest}`;
  return `${prefix}.${slug(release, room - 9) || 'x'}-${shortHash(release)}`;
}

/** A name of the output that is not one of Flux's own (see {@link FLUX_RESERVED_NAMES}). */
export function unreserved(name: string): string {
  return FLUX_RESERVED_NAMES.has(name) ? `${name}-${shortHash(name)}` : name;
}

function readableName(site: string, key: FluxSourceKey): string {
  const stem = urlStem(key.url);
  return scopedName(site, key.kind === 'HelmRepository' ? stem : `${stem}-${refText(key.ref)}`);
}

/** Collects the sources of a site, in first-use order, and names them. */
export class FluxSources {
  private readonly keys = new Map<string, FluxSourceKey>();
  private names?: Map<string, string> | undefined;

  /** @param site the manifest's name, which every source's name starts with */
  constructor(private readonly site: string) {}

  /** The locations as the charts write them, by identity (a tarball's URL, a `git@host:path`). */
  private readonly written = new Map<string, Set<string>>();

  /**
   * Adds a source (once per identity); returns its identity, to look its name up later.
   * `location` is the chart's own, when it differs from the source's URL.
   */
  public add(key: FluxSourceKey, location?: string): string {
    const id = sourceIdentity(key);
    if (!this.keys.has(id)) this.keys.set(id, key);
    if (location !== undefined && location !== key.url) {
      const set = this.written.get(id);
      if (set) set.add(location);
      else this.written.set(id, new Set([location]));
    }
    this.names = undefined;
    return id;
  }

  /** What a user may name a source by: its URL, the charts' locations of it, its object name. */
  public handles(id: string): string[] {
    return [this.keys.get(id)!.url, ...(this.written.get(id) ?? []), this.nameOf(id)];
  }

  /** The object name of a source added before. */
  public nameOf(id: string): string {
    this.names ??= this.assignNames();
    return this.names.get(id)!;
  }

  /** Every source, in first-use order. */
  public get all(): { id: string; key: FluxSourceKey }[] {
    return [...this.keys].map(([id, key]) => ({ id, key }));
  }

  private assignNames(): Map<string, string> {
    const byName = new Map<string, string[]>();
    for (const [id, key] of this.keys) {
      const n = `${key.kind} ${key.namespace} ${readableName(this.site, key)}`;
      const same = byName.get(n);
      if (same) same.push(id);
      else byName.set(n, [id]);
    }
    const names = new Map<string, string>();
    for (const ids of byName.values()) {
      for (const id of ids) {
        const base = readableName(this.site, this.keys.get(id)!);
        names.set(id, ids.length === 1 ? base : `${base}-${shortHash(id)}`);
      }
    }
    return names;
  }
}
