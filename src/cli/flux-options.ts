/** The `convert --to flux-v2` options: parsed here so that the convert command stays a dispatcher. */
import { Duration, GO_DURATION_MAX_SECONDS } from '../model/duration';
import { dns1123LabelProblem, dns1123SubdomainProblem } from '../model/names';
import { FluxOptions, HelmReleasePlacement } from '../model/wire/flux-v2';
import { FLUX_BOOTSTRAP_SOURCE, repositoryPathProblem } from '../model/wire/flux-layout';
import type { FluxDirectoryOptions } from '../model/wire/flux-gitops';
import { ChartSource } from '../model/source';
import { redactCredentials } from '../model/safe-text';
import { flag, list, OptionSpec, ParsedArgs, str } from './args';
import { UsageError } from './io';

export const FLUX_CLI_OPTIONS: Record<string, OptionSpec> = {
  interval: { type: 'string' },
  'source-interval': { type: 'string' },
  placement: { type: 'string', choices: Object.values(HelmReleasePlacement) },
  'flux-namespace': { type: 'string' },
  'source-namespace': { type: 'string' },
  suspend: { type: 'boolean' },
  'local-source': { type: 'string', multiple: true },
  'source-secret': { type: 'string', multiple: true },
  'single-file': { type: 'boolean' },
  'repository-path': { type: 'string' },
  'repository-source': { type: 'string' },
  'substitute-from': { type: 'string' },
};

export const FLUX_CLI_HELP = `  --interval DURATION  flux-v2: HelmRelease spec.interval, e.g. 10m, 1h, 1h30m (default 10m)
  --source-interval DURATION
                       flux-v2: GitRepository/HelmRepository interval (default: --interval)
  --placement single-namespace|chart-namespace
                       flux-v2: every HelmRelease in --flux-namespace (default), or each in its
                       chart's namespace (dependsOn then crosses namespaces), after a Namespace
                       for each namespace written into (created if missing, never pruned)
  --flux-namespace NS  flux-v2: Flux's namespace (default flux-system): the HelmReleases' with
                       single-namespace; never written as a Namespace with chart-namespace
  --source-namespace NS
                       flux-v2: the sources' namespace (default: beside the HelmReleases)
  --suspend            flux-v2: write every HelmRelease suspended (resume each to take it over)
  --local-source DIR=URL[#REF]
                       flux-v2: the Git repository (and reference) that holds the local directory
                       DIR of local sources (repeatable)
  --source-secret SOURCE=SECRET
                       flux-v2: the source needs credentials: write spec.secretRef {name: SECRET}
                       on the GitRepository/HelmRepository that SOURCE names (its URL, a chart's
                       source location, or the object's name); the Secret is yours to create in
                       the source's namespace (repeatable)
  -o DIR (flux-v2)     writes DIR/<manifest>/, a directory Flux can point at: kustomization.yaml,
                       flux-kustomizations.yaml (one Kustomization for the sources, then one per
                       plan step, each dependsOn the one before, wait: true), sources/ and
                       steps/NN-<group>/ (each a kustomize folder)
  --repository-path PATH
                       flux-v2 with -o: DIR's path in the Git repository Flux reads, which the
                       Kustomizations' spec.path start with (default: DIR as given, when relative)
  --repository-source NAME
                       flux-v2 with -o: the GitRepository, in --flux-namespace, that reads that
                       repository (default flux-system, the one flux bootstrap makes)
  --substitute-from SECRET
                       flux-v2 with -o: keep the \${VAR} placeholders of the values for
                       kustomize-controller to substitute from the Secret SECRET (in
                       --flux-namespace), so that passwords stay out of Git; every other \${ of
                       the values (scripts, templates) is escaped as $\${
  --single-file        flux-v2 with -o: write DIR/<manifest>.flux-v2.yaml instead, as on stdout`;

/** `10m`, `1h30m`, `45s`: whole seconds, as the Armada timeouts are. */
function duration(args: ParsedArgs, option: string): Duration | undefined {
  const v = str(args, option);
  if (v === undefined) return undefined;
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(v);
  const seconds = m && v !== '' ? Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) : 0;
  if (seconds <= 0) throw new UsageError(`--${option} must be a duration such as 10m, 1h or 1h30m, greater than 0; received ${JSON.stringify(v)}`, 'convert');
  if (seconds > GO_DURATION_MAX_SECONDS) throw new UsageError(`--${option}: received ${JSON.stringify(v)}; Flux reads it as a Go duration, which ends at ${GO_DURATION_MAX_SECONDS} seconds (2562047h, about 292 years)`, 'convert');
  return Duration.seconds(seconds);
}

function namespace(args: ParsedArgs, option: string): string | undefined {
  const v = str(args, option);
  const p = v === undefined ? undefined : dns1123LabelProblem(v);
  if (p) throw new UsageError(`--${option}: received ${JSON.stringify(v)}; a namespace ${p}`, 'convert');
  return v;
}

/** `DIR=URL[#REF]`, repeatable. */
function localSources(args: ParsedArgs): Record<string, ChartSource> | undefined {
  const out: Record<string, ChartSource> = {};
  for (const v of list(args, 'local-source')) {
    const m = /^([^=]+)=([^#]+)(?:#(.+))?$/.exec(v);
    if (!m) throw new UsageError(`--local-source must be DIR=URL or DIR=URL#REF (the Git repository that holds the local directory DIR); received ${JSON.stringify(v)}`, 'convert');
    out[m[1]] = ChartSource.git(m[2], { reference: m[3] });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `SOURCE=SECRET`, repeatable: split at the last `=` (a URL's query may hold one, a Secret's name never). */
function sourceSecrets(args: ParsedArgs): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const v of list(args, 'source-secret')) {
    const at = v.lastIndexOf('=');
    const [source, secret] = at < 0 ? ['', ''] : [v.slice(0, at), v.slice(at + 1)];
    if (source === '' || secret === '') throw new UsageError(`--source-secret must be SOURCE=SECRET (a source's URL or name, and the Secret with its credentials); received ${JSON.stringify(redactCredentials(v))}`, 'convert');
    const p = dns1123SubdomainProblem(secret);
    if (p) throw new UsageError(`--source-secret ${JSON.stringify(redactCredentials(source))}: received Secret ${JSON.stringify(secret)}; a Secret name ${p}`, 'convert');
    if (Object.prototype.hasOwnProperty.call(out, source) && out[source] !== secret) throw new UsageError(`--source-secret ${JSON.stringify(redactCredentials(source))}: given twice, with Secrets ${JSON.stringify(out[source])} and ${JSON.stringify(secret)}`, 'convert');
    out[source] = secret;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function fluxOptions(args: ParsedArgs): FluxOptions {
  return {
    interval: duration(args, 'interval'),
    sourceInterval: duration(args, 'source-interval'),
    placement: str(args, 'placement') as HelmReleasePlacement | undefined,
    namespace: namespace(args, 'flux-namespace'),
    sourceNamespace: namespace(args, 'source-namespace'),
    suspend: flag(args, 'suspend'),
    localSources: localSources(args),
    sourceSecrets: sourceSecrets(args),
  };
}

/** Where `-o DIR` of flux-v2 sits in the Git repository, for its Kustomizations. */
export type FluxLayoutArgs = FluxDirectoryOptions;

/**
 * The layout options of `convert --to flux-v2`: undefined for the single-file forms (stdout, or
 * `-o DIR --single-file`), where they are refused.
 */
export function fluxLayoutArgs(args: ParsedArgs, dir: string | undefined): FluxLayoutArgs | undefined {
  const repoPath = str(args, 'repository-path');
  const source = str(args, 'repository-source');
  const substitute = str(args, 'substitute-from');
  const layout = dir !== undefined && dir !== '-' && !flag(args, 'single-file');
  if (!layout) {
    for (const [option, value] of [['repository-path', repoPath], ['repository-source', source], ['substitute-from', substitute]] as const) {
      if (value !== undefined) throw new UsageError(`--${option} applies to the directory that -o DIR writes for flux-v2; received it ${dir === undefined || dir === '-' ? 'without -o' : 'with --single-file'}`, 'convert');
    }
    if (flag(args, 'single-file') && (dir === undefined || dir === '-')) throw new UsageError('--single-file applies with -o DIR only; without -o the output is a single stream already', 'convert');
    return undefined;
  }
  const p = repoPath ?? dir.split(/[\\/]+/).join('/');
  const problem = repositoryPathProblem(p);
  if (problem) {
    throw new UsageError(repoPath === undefined
      ? `-o ${dir}: the Kustomizations need the directory's path in the Git repository Flux reads, and this one ${problem}; give it with --repository-path PATH`
      : `--repository-path: received ${JSON.stringify(repoPath)}; it ${problem}`, 'convert');
  }
  const sp = source === undefined ? undefined : dns1123SubdomainProblem(source);
  if (sp) throw new UsageError(`--repository-source: received ${JSON.stringify(source)}; a GitRepository name ${sp}`, 'convert');
  const bp = substitute === undefined ? undefined : dns1123SubdomainProblem(substitute);
  if (bp) throw new UsageError(`--substitute-from: received ${JSON.stringify(substitute)}; a Secret name ${bp}`, 'convert');
  return { repositoryPath: p, repositorySource: source ?? FLUX_BOOTSTRAP_SOURCE, substituteFrom: substitute };
}
