/**
 * A few REST calls to the stack's API server, for the harness and the tests: JSON in, JSON out,
 * with the admin token of the run's kubeconfig (or an impersonated user).
 */
import * as fs from 'node:fs';
import * as https from 'node:https';

/** How to reach the API server. */
export interface KubeEndpoint {
  readonly server: string;
  readonly ca: string;
  readonly token: string;
}

/** Reads the server, CA and token of the kubeconfig the harness wrote (JSON). */
export function endpointFromKubeconfig(file: string): KubeEndpoint {
  const kc = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { token: string } }[];
  };
  return {
    server: kc.clusters[0]!.cluster.server,
    ca: Buffer.from(kc.clusters[0]!.cluster['certificate-authority-data'], 'base64').toString(),
    token: kc.users[0]!.user.token,
  };
}

/** An answer: status and parsed body (the raw text when it is not JSON). */
export interface KubeResponse<T = any> {
  readonly status: number;
  readonly body: T;
}

/** Options of one request. */
export interface KubeRequestOptions {
  readonly body?: unknown;
  /** `Content-Type` of a body. @default 'application/json' */
  readonly contentType?: string | undefined;
  /** Impersonate this user (`Impersonate-User`). @default - the admin itself */
  readonly impersonate?: string | undefined;
  /** Groups for the impersonated user (`Impersonate-Group`). @default - none */
  readonly impersonateGroups?: readonly string[] | undefined;
}

export function kubeRequest<T = any>(ep: KubeEndpoint, method: string, path: string, options: KubeRequestOptions = {}): Promise<KubeResponse<T>> {
  const url = new URL(path, ep.server);
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string | string[]> = { authorization: `Bearer ${ep.token}`, accept: 'application/json' };
  if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  if (options.impersonate) headers['impersonate-user'] = options.impersonate;
  if (options.impersonateGroups?.length) headers['impersonate-group'] = [...options.impersonateGroups];
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, headers, ca: ep.ca, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Like {@link kubeRequest}, but rejects on a status outside 2xx with the server's message. */
export async function kubeOk<T = any>(ep: KubeEndpoint, method: string, path: string, options: KubeRequestOptions = {}): Promise<T> {
  const res = await kubeRequest<T>(ep, method, path, options);
  if (res.status < 200 || res.status >= 300) {
    const message = typeof res.body === 'object' && res.body !== null ? (res.body as { message?: string }).message : String(res.body);
    throw new Error(`${method} ${path} answered ${res.status}: ${message}`);
  }
  return res.body;
}
