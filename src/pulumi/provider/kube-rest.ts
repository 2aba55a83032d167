/**
 * The few Kubernetes calls the dynamic providers make besides the readiness wait (read a Helm
 * release record, list and delete jobs and pods), over Node's http/https with the KubeConfig's
 * TLS and auth applied per request, so a plain HTTP server can stand in for the cluster in tests.
 */
import { safeText } from '../../model/safe-text';
import * as http from 'node:http';
import * as https from 'node:https';
import type { KubeConfigLike } from './readiness';
import { KubeconfigRefusedError } from './readiness/errors';
import { plainHttpRefused } from './readiness/kubeconfig';

/** An answer of the API server: the status and the parsed JSON body (undefined when not JSON). */
export interface KubeResponse {
  readonly status: number;
  readonly body: any;
  /** The body as text (a pod's log is plain text). */
  readonly text?: string | undefined;
}

/** One request. */
export interface KubeRequest {
  readonly method: 'GET' | 'DELETE';
  readonly path: string;
  readonly query?: Readonly<Record<string, string | undefined>> | undefined;
  readonly body?: unknown;
  /**
   * Abandon the request after this long.
   * @default 30000
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Largest answer read, in bytes; a larger one (a misbehaving proxy, a huge list) fails the request.
   * @default 67108864 (64 MiB)
   */
  readonly maxBodyBytes?: number | undefined;
}

/** Sends one request; only a broken connection, a timeout or an oversized answer throws, any HTTP status is returned. */
export async function kubeRequest(kubeConfig: KubeConfigLike, request: KubeRequest): Promise<KubeResponse> {
  const cluster = kubeConfig.getCurrentCluster();
  if (!cluster) throw new Error('The kubeconfig has no current cluster.');
  const url = new URL(cluster.server.replace(/\/+$/, '') + request.path);
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
  const options: https.RequestOptions = { headers: {} };
  try {
    await kubeConfig.applyToHTTPSOptions(options);
  } catch (e) {
    const refused = plainHttpRefused(kubeConfig, e);
    if (refused !== undefined) throw new KubeconfigRefusedError(`${request.method} ${request.path}`, refused);
    // Its own message may quote what an exec plugin printed, tokens included.
    throw new Error(`${request.method} ${request.path}: the kubeconfig's credentials could not be applied (${e instanceof Error ? e.name : typeof e})`);
  }
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  options.method = request.method;
  options.headers = {
    ...options.headers,
    Accept: 'application/json',
    ...(payload !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
  };
  options.signal = AbortSignal.timeout(request.timeoutMs ?? 30_000);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<KubeResponse>((resolve, reject) => {
    const req = transport.request(url, options, (res) => {
      const max = request.maxBodyBytes ?? 64 * 1024 * 1024;
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > max) {
          res.destroy();
          reject(new Error(`${request.method} ${request.path}: the answer is larger than ${max} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body, text });
      });
    });
    req.on('socket', (socket) => socket.setKeepAlive(true, 30_000));
    req.on('error', (e) => reject(new Error(`${request.method} ${request.path} failed: ${e.message}`, { cause: e })));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** The API server's own message for a failed call: `HTTP 403: jobs is forbidden: ...`. */
export function describeFailure(response: KubeResponse): string {
  // The server's words, which a proxy or a hostile API server may fill with terminal sequences.
  const message = typeof response.body?.message === 'string' ? `: ${safeText(response.body.message)}` : '';
  return `HTTP ${response.status}${message}`;
}

/** Collection paths of the kinds the providers read or delete, per namespace. */
export const COLLECTIONS = {
  pod: (ns: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/pods`,
  job: (ns: string) => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/jobs`,
  cronjob: (ns: string) => `/apis/batch/v1/namespaces/${encodeURIComponent(ns)}/cronjobs`,
  secret: (ns: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/secrets`,
  configmap: (ns: string) => `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`,
} as const;
