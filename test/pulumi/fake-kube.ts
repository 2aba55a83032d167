/**
 * A minimal stand-in Kubernetes API on 127.0.0.1 for the dynamic providers' calls: objects kept in
 * memory per collection path, GET of a collection (with an equality label selector) or of an
 * object, and DELETE, which can leave the object terminating for a few reads as foreground
 * deletion does. Every request is recorded.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeConfigLike } from '../../src/pulumi/provider/readiness';

export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body?: any;
  readonly authorization?: string | undefined;
}

export class FakeKube {
  public static async start(): Promise<FakeKube> {
    const f = new FakeKube();
    await new Promise<void>((r) => f.server.listen(0, '127.0.0.1', r));
    return f;
  }

  public readonly requests: Recorded[] = [];
  /** collection path -> name -> object */
  private readonly objects = new Map<string, Map<string, any>>();
  /** object path -> GETs that still see it after its DELETE */
  private readonly terminating = new Map<string, number>();
  /** object or collection path -> status to answer with */
  private readonly failures = new Map<string, number>();
  /** object path -> plain text answered to a GET */
  private readonly texts = new Map<string, string>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  public get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  public kubeConfig(): KubeConfigLike {
    const server = this.url;
    return {
      getCurrentCluster: () => ({ server }),
      applyToHTTPSOptions: async (o) => {
        o.headers = { ...(o.headers as Record<string, string>), Authorization: 'Bearer test-token' };
      },
    };
  }

  /** Adds objects to a collection (`/apis/batch/v1/namespaces/ns/jobs`). */
  public add(collection: string, ...objects: any[]): void {
    const m = this.objects.get(collection) ?? new Map();
    for (const o of objects) m.set(o.metadata.name, o);
    this.objects.set(collection, m);
  }

  /** Names left in a collection. */
  public names(collection: string): string[] {
    return [...(this.objects.get(collection)?.keys() ?? [])];
  }

  /** Deleted objects stay visible for `reads` GETs. */
  public lingerAfterDelete(objectPath: string, reads: number): void {
    this.terminating.set(objectPath, -reads);
  }

  /** A plain-text answer to GETs of `path` (a pod's log). */
  public addText(path: string, text: string): void {
    this.texts.set(path, text);
  }

  public fail(path: string, status: number): void {
    this.failures.set(path, status);
  }

  public deletes(): string[] {
    return this.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
  }

  public close(): Promise<void> {
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    // Clients keep connections alive; without this the server (and the jest worker) lingers.
    this.server.closeAllConnections();
    return closed;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      this.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body: text ? JSON.parse(text) : undefined, authorization: req.headers.authorization });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const failure = this.failures.get(url.pathname);
      const plain = this.texts.get(url.pathname);
      if (!failure && req.method === 'GET' && plain !== undefined) {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        return void res.end(plain);
      }
      if (failure) return send(failure, { kind: 'Status', message: `scripted failure of ${url.pathname}`, code: failure });
      const collection = this.objects.get(url.pathname);
      if (req.method === 'GET' && collection !== undefined) {
        const selector = url.searchParams.get('labelSelector');
        const wanted = selector ? selector.split(',').map((kv) => kv.split('=')) : [];
        const items = [...collection.values()].filter((o) => wanted.every(([k, v]) => o.metadata.labels?.[k] === v));
        return send(200, { kind: 'List', metadata: { resourceVersion: '1' }, items });
      }
      const slash = url.pathname.lastIndexOf('/');
      const parent = this.objects.get(url.pathname.slice(0, slash));
      const name = decodeURIComponent(url.pathname.slice(slash + 1));
      const obj = parent?.get(name);
      if (req.method === 'GET') {
        if (obj) return send(200, obj);
        const linger = this.terminating.get(url.pathname);
        if (linger !== undefined && linger > 0) {
          this.terminating.set(url.pathname, linger - 1);
          return send(200, { metadata: { name, deletionTimestamp: 'now' } });
        }
        if (parent === undefined && /\/(pods|jobs|cronjobs|secrets|configmaps)$/.test(url.pathname)) return send(200, { kind: 'List', items: [] });
        return send(404, { kind: 'Status', message: `${name} not found`, code: 404 });
      }
      if (req.method === 'DELETE') {
        if (!obj) return send(404, { kind: 'Status', message: `${name} not found`, code: 404 });
        parent!.delete(name);
        const linger = this.terminating.get(url.pathname);
        if (linger !== undefined && linger < 0) this.terminating.set(url.pathname, -linger);
        return send(200, { kind: 'Status', status: 'Success' });
      }
      send(405, { message: 'method not allowed' });
    });
  }
}

export function named(name: string, labels: Record<string, string> = {}, extra: Record<string, unknown> = {}): any {
  return { metadata: { name, labels, ...extra } };
}
