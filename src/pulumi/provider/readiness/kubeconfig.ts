/**
 * Which cluster the gate talks to. The input mirrors the Pulumi Kubernetes provider's `kubeconfig`
 * (YAML contents or a path), so a program can hand both the same value, or a ready-made KubeConfig.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type * as https from 'node:https';

/**
 * What the gate needs from a `KubeConfig` of `@kubernetes/client-node`: the server, and the TLS and
 * auth options for each request (applied per request, so exec and OIDC tokens are refreshed).
 */
export interface KubeConfigLike {
  getCurrentCluster(): { readonly server: string } | null;
  applyToHTTPSOptions(options: https.RequestOptions): Promise<void>;
}

/**
 * A `KubeConfig` of `@kubernetes/client-node` (or anything shaped like one), kubeconfig YAML (or
 * JSON) contents, or the path of a kubeconfig file.
 */
export type ClusterConfig = KubeConfigLike | string;

type ClientNode = typeof import('@kubernetes/client-node');

/**
 * Resolves a {@link ClusterConfig} to a KubeConfig. A string that spans lines or starts with `{` is
 * kubeconfig contents; any other string is a path (`~/` is expanded). Undefined loads the default
 * (`KUBECONFIG`, `~/.kube/config`, or the in-cluster service account). `context` applies to
 * strings and the default only: a KubeConfig object is used with its own current context.
 */
export async function resolveKubeConfig(config: ClusterConfig | undefined, context?: string): Promise<KubeConfigLike> {
  if (config !== undefined && typeof config !== 'string') return config;
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  const contents = config !== undefined && isKubeconfigContents(config);
  const what = config === undefined ? 'The default kubeconfig' : contents ? 'The kubeconfig contents' : `The kubeconfig file ${expandHome(config)}`;
  try {
    if (config === undefined) kc.loadFromDefault();
    else if (contents) kc.loadFromString(config);
    else kc.loadFromFile(expandHome(config));
  } catch (e) {
    // No cause attached: the parser's own message quotes the lines around the error, and those
    // hold tokens and keys (the gate receives the kubeconfig as a secret).
    throw new Error(`${what} cannot be read: ${safeReason(e)}; its contents are not shown, as they may hold credentials.`);
  }
  if (context !== undefined) kc.setCurrentContext(context);
  if (!kc.getCurrentCluster()) {
    throw new Error(`The kubeconfig has no cluster for context '${kc.getCurrentContext()}'.`);
  }
  return kc;
}

/**
 * What to do when `applyToHTTPSOptions` failed with `error` because `@kubernetes/client-node`
 * refuses the cluster's plain-HTTP server (`http://`, allowed only with `insecure-skip-tls-verify`
 * or a proxy), or undefined for any other failure. The callers keep only the kind of such a
 * failure (its message may quote what an exec plugin printed), which for this one said nothing
 * useful; this one is the kubeconfig's fault, so it is not worth retrying either.
 */
export function plainHttpRefused(kc: KubeConfigLike, error: unknown): string | undefined {
  const cluster = kc.getCurrentCluster() as { server: string; name?: unknown } | null;
  // client-node's own text (1.x): "HTTP protocol is not allowed when skipTLSVerify is not set or false".
  if (!cluster || !/^http:/i.test(cluster.server) || !(error instanceof Error) || !/^HTTP protocol is not allowed\b/.test(error.message)) return undefined;
  let server = 'http://...';
  try {
    // Scheme, host and port only: nothing of the URL's user part.
    server = `http://${new URL(cluster.server).host}`;
  } catch {
    // an unparsable address is not shown
  }
  const named = typeof cluster.name === 'string' && cluster.name !== '';
  return (
    `the kubeconfig's cluster${named ? ` '${cluster.name as string}'` : ''} has a plain-HTTP server (${server}), which @kubernetes/client-node refuses unless the cluster ` +
    `sets insecure-skip-tls-verify: true. Give the server's https:// address, or, for a server without TLS, set it: kubectl config set-cluster ${named ? (cluster.name as string) : 'NAME'} --insecure-skip-tls-verify=true`
  );
}

/** What went wrong, without any text of the kubeconfig: the YAML error's kind and position, or a field that is missing. */
function safeReason(e: unknown): string {
  const err = e as { name?: string | undefined; reason?: unknown; mark?: { line?: unknown; column?: unknown }; message?: unknown; code?: unknown };
  if (err?.name === 'YAMLException' && typeof err.reason === 'string') {
    const at = typeof err.mark?.line === 'number' && typeof err.mark.column === 'number' ? ` at line ${err.mark.line + 1}, column ${err.mark.column + 1}` : '';
    return `invalid YAML (${err.reason})${at}`;
  }
  if (typeof err?.code === 'string' && /^E[A-Z]+$/.test(err.code)) return `cannot open it (${err.code})`;
  // client-node's own checks name the field only ("users[0].name is missing").
  if (typeof err?.message === 'string' && /^[A-Za-z0-9_.[\]-]+ is (missing|required)$/.test(err.message)) return err.message;
  return `it is not a valid kubeconfig (${typeof err?.name === 'string' ? err.name : typeof e})`;
}

function isKubeconfigContents(s: string): boolean {
  return s.includes('\n') || s.trimStart().startsWith('{');
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/**
 * `@kubernetes/client-node` 1.x and 2.x are ES modules and an optional peer dependency, so it is
 * loaded only when a kubeconfig has to be read: `require` works on Node versions that load ES
 * modules synchronously, a real `import()` on the others (TypeScript would turn a plain
 * `import()` into `require` in CommonJS output, hence the Function).
 */
async function loadClientNode(): Promise<ClientNode> {
  const id = '@kubernetes/client-node';
  try {
    return require(id) as ClientNode;
  } catch (requireError) {
    try {
      const dynamicImport = new Function('id', 'return import(id)') as (id: string) => Promise<ClientNode>;
      return await dynamicImport(id);
    } catch (importError) {
      const reason = importError instanceof Error ? importError.message : String(importError);
      const engine = engineProblem(installedVersion(id), process.versions.node);
      throw new Error(
        `Could not load the peer dependency ${id} (1.x or 2.x) to read the kubeconfig (${reason}): ${engine ?? 'install it'}; or pass a KubeConfig object.`,
        { cause: requireError },
      );
    }
  }
}

/** The installed package's version, or undefined when there is none. */
function installedVersion(id: string): string | undefined {
  try {
    const { version } = require(`${id}/package.json`) as { version?: unknown };
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** The oldest Node.js that client-node 2.x runs on: its `undici` 8 needs 22.19 (client-node itself declares no engines). */
const CLIENT_NODE_2_NODE = [22, 19, 0] as const;

/**
 * Why the installed client-node cannot run on this Node.js: 2.x fails on Node.js 20 deep inside a
 * dependency, with a message that names neither.
 */
export function engineProblem(clientNodeVersion: string | undefined, nodeVersion: string): string | undefined {
  const major = clientNodeVersion === undefined ? NaN : Number(/^(\d+)\./.exec(clientNodeVersion)?.[1]);
  const have = /^v?(\d+)\.(\d+)\.(\d+)/.exec(nodeVersion);
  if (!(major >= 2) || !have) return undefined;
  for (let i = 0; i < 3; i++) {
    const diff = Number(have[i + 1]) - CLIENT_NODE_2_NODE[i];
    if (diff > 0) return undefined;
    if (diff < 0) {
      return `@kubernetes/client-node ${clientNodeVersion} needs Node.js ${CLIENT_NODE_2_NODE.join('.')} or later and this is Node.js ${nodeVersion}; install @kubernetes/client-node@1 (Node.js 20 and later) or run on a newer Node.js`;
    }
  }
  return undefined;
}
