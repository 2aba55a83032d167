/**
 * A stand-in Kubernetes API server on 127.0.0.1 that plays scripted LIST answers and watch streams
 * (`?watch=true`, newline-delimited JSON events, chunked) per collection path, and records every
 * request so tests can check what was asked (selector, resourceVersion, auth).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeConfigLike, KubeObject } from '../../../src/pulumi/provider/readiness';

/** A LIST answer: a collection, or an error status. */
export type ListReply =
  | { readonly items: readonly KubeObject[]; readonly resourceVersion: string }
  | { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> | undefined };

/** One step of a watch stream. */
export type WatchStep =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; readonly object: unknown }
  | { readonly delayMs: number };

/**
 * A watch answer: an error status, or events followed by how the stream ends: `close` ends the
 * chunked response cleanly, `drop` cuts the connection mid-stream, `hang` keeps it open until the
 * client goes away.
 */
export type WatchReply =
  | { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> | undefined }
  | { readonly steps: readonly WatchStep[]; readonly end: 'close' | 'drop' | 'hang' };

export interface RecordedRequest {
  readonly path: string;
  readonly query: URLSearchParams;
  readonly watch: boolean;
  readonly headers: http.IncomingHttpHeaders;
  readonly at: number;
}

interface Script {
  lists: ListReply[];
  watches: WatchReply[];
}

export class FakeApiServer {
  /** Starts a server on an ephemeral port of 127.0.0.1. */
  public static async start(): Promise<FakeApiServer> {
    const fake = new FakeApiServer();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  public readonly requests: RecordedRequest[] = [];
  private readonly scripts = new Map<string, Script>();
  private readonly server = http.createServer((req, res) => void this.handle(req, res));

  private constructor() {}

  public get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /**
   * Scripts a collection: each LIST or watch request takes the next reply of its queue, and the
   * last reply repeats. Unscripted: an empty list, and watches that hang.
   */
  public script(path: string, script: { lists?: ListReply[] | undefined; watches?: WatchReply[] | undefined }): void {
    this.scripts.set(path, { lists: [...(script.lists ?? [])], watches: [...(script.watches ?? [])] });
  }

  public lists(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path && !r.watch);
  }

  public watches(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path && r.watch);
  }

  /** A KubeConfig-shaped client config for this server, sending `token` as a bearer token. */
  public kubeConfig(token = 'test-token'): KubeConfigLike {
    const server = this.url;
    return {
      getCurrentCluster: () => ({ server }),
      applyToHTTPSOptions: async (opts) => {
        opts.headers = { ...opts.headers, Authorization: `Bearer ${token}` };
      },
    };
  }

  public async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const watch = url.searchParams.get('watch') === 'true';
    this.requests.push({ path: url.pathname, query: url.searchParams, watch, headers: req.headers, at: Date.now() });
    const script = this.scripts.get(url.pathname) ?? { lists: [], watches: [] };
    if (watch) await this.serveWatch(next(script.watches) ?? { steps: [], end: 'hang' }, res);
    else serveList(next(script.lists) ?? { items: [], resourceVersion: '1' }, url.pathname, res);
  }

  private async serveWatch(reply: WatchReply, res: http.ServerResponse): Promise<void> {
    if ('status' in reply) return sendStatus(res, reply.status, reply.body, reply.headers);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.flushHeaders();
    for (const step of reply.steps) {
      if (res.destroyed) return;
      if ('delayMs' in step) {
        await new Promise((resolve) => setTimeout(resolve, step.delayMs));
        continue;
      }
      await new Promise<void>((resolve) => res.write(`${JSON.stringify(step)}\n`, () => resolve()));
    }
    if (reply.end === 'close') res.end();
    else if (reply.end === 'drop') res.socket?.destroy();
    // hang: leave the stream open; the client aborts it, or close() cuts it.
  }
}

function next<T>(queue: T[]): T | undefined {
  return queue.length > 1 ? queue.shift() : queue[0];
}

function serveList(reply: ListReply, path: string, res: http.ServerResponse): void {
  if ('status' in reply) return sendStatus(res, reply.status, reply.body, reply.headers);
  const kind = `${path.split('/').pop()}`;
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ kind: `${kind}List`, apiVersion: 'v1', metadata: { resourceVersion: reply.resourceVersion }, items: reply.items }));
}

function sendStatus(res: http.ServerResponse, code: number, body?: unknown, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(code, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body ?? status(code, `fake failure ${code}`)));
}

/** A `Status` object, as the API server sends with errors and in watch ERROR events. */
export function status(code: number, message: string, reason?: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, ...(reason ? { reason } : {}), code };
}

