/**
 * Just enough of the Kubernetes API for the gate: LIST and WATCH of one collection, over Node's
 * http/https with the KubeConfig's TLS and auth applied, so a plain HTTP server can stand in for
 * the API server in tests.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { CredentialError, IdleConnectionError, KubeconfigRefusedError, KubernetesApiError, ResponseTooLargeError, TransportError } from './errors';
import { KubeConfigLike, plainHttpRefused } from './kubeconfig';
import type { KubeObject } from './objects';
import { setLongTimeout } from './timers';

/** A LIST answer: the items and the collection's resourceVersion to watch from. */
export interface ListResult {
  readonly items: readonly KubeObject[];
  readonly resourceVersion?: string | undefined;
}

/** One watch event: `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR` (whose object is a Status). */
export interface WatchEvent {
  readonly type: string;
  readonly object: KubeObject & { readonly code?: number | undefined; readonly reason?: string | undefined; readonly message?: string | undefined };
}

/** How a watch returned: the caller asked it to stop, or the server ended the stream cleanly. */
export type WatchEnd = 'stopped' | 'ended';

/** Query parameters; undefined values are left out. */
export type Query = Readonly<Record<string, string | undefined>>;

/** Error bodies are only read for their message; cap them so a misbehaving proxy cannot exhaust memory. */
const MAX_ERROR_BODY = 64 * 1024;
/** TCP keep-alive probes start after this much silence, so a peer that vanished is noticed. */
const KEEP_ALIVE_DELAY_MS = 30_000;

/** Limits of one client. */
export interface KubeApiClientLimits {
  /** A request that receives nothing for this long is abandoned ({@link IdleConnectionError}). */
  readonly idleMs: number;
  /** Largest LIST body accepted, in bytes. */
  readonly maxListBytes: number;
  /** Largest single watch event (one line of the stream) accepted, in bytes. */
  readonly maxEventBytes: number;
}

/** LIST and WATCH against the cluster of a KubeConfig; every request re-applies its auth. */
export class KubeApiClient {
  constructor(
    private readonly kubeConfig: KubeConfigLike,
    private readonly limits: KubeApiClientLimits,
  ) {}

  /** GET a collection. Throws {@link KubernetesApiError} for an error status, {@link TransportError} for a broken connection. */
  public async list(path: string, query: Query, signal: AbortSignal): Promise<ListResult> {
    const { res, idle } = await this.get(path, query, signal);
    let body: string | undefined;
    try {
      body = await readBody(res, signal, this.limits.maxListBytes, idle);
    } finally {
      idle.stop();
    }
    if (body === undefined) {
      throw new ResponseTooLargeError(
        `The LIST answer of ${path} is larger than ${this.limits.maxListBytes} bytes (maxListBytes); narrow the wait's labels or raise the limit`,
      );
    }
    let parsed: { items?: KubeObject[] | null | undefined; metadata?: { resourceVersion?: string | undefined } };
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      throw new TransportError(`Unreadable LIST response from ${path}`, { cause: e });
    }
    return { items: parsed.items ?? [], resourceVersion: parsed.metadata?.resourceVersion };
  }

  /**
   * Streams a watch, calling `onEvent` for each newline-delimited event; `onEvent` returns true to
   * stop, or throws to abandon the stream with its error. A stream silent past the idle limit
   * rejects with {@link IdleConnectionError}; one that lasts `maxMs` ends as if the server closed it.
   */
  public async watch(path: string, query: Query, signal: AbortSignal, maxMs: number, onEvent: (event: WatchEvent) => boolean): Promise<WatchEnd> {
    const { res, idle } = await this.get(path, { ...query, watch: 'true' }, signal);
    let expired = false;
    const cancelMax = setLongTimeout(() => {
      expired = true;
      res.destroy();
    }, maxMs);
    const tooLarge = () => new ResponseTooLargeError(`A watch event of ${path} is larger than ${this.limits.maxEventBytes} bytes (maxWatchEventBytes)`);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const deliver = (line: string): boolean => {
      if (line.trim() === '') return false;
      let event: WatchEvent;
      try {
        event = JSON.parse(line);
      } catch (e) {
        throw new TransportError(`Unreadable watch event from ${path}`, { cause: e });
      }
      try {
        return onEvent(event);
      } catch (e) {
        throw new CallbackFailure(e);
      }
    };
    try {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        idle.touch();
        let from = 0;
        let newline: number;
        while ((newline = chunk.indexOf(10, from)) >= 0) {
          if (pendingBytes + newline - from > this.limits.maxEventBytes) throw tooLarge();
          pending.push(chunk.subarray(from, newline));
          const line = Buffer.concat(pending).toString('utf8');
          pending = [];
          pendingBytes = 0;
          from = newline + 1;
          if (deliver(line)) return 'stopped';
        }
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
        if (pendingBytes > this.limits.maxEventBytes) throw tooLarge();
      }
      if (expired) return 'ended';
      if (deliver(Buffer.concat(pending).toString('utf8'))) return 'stopped';
      return 'ended';
    } catch (e) {
      if (e instanceof CallbackFailure) throw e.error;
      if (signal.aborted) throw signal.reason;
      if (e instanceof TransportError || e instanceof ResponseTooLargeError) throw e;
      if (idle.fired) throw idle.error(`Watch of ${path}`);
      if (expired) return 'ended';
      throw new TransportError(`Watch of ${path} broke: ${messageOf(e)}`, { cause: e });
    } finally {
      cancelMax();
      idle.stop();
      res.destroy();
    }
  }

  private async get(path: string, query: Query, signal: AbortSignal): Promise<{ res: http.IncomingMessage; idle: IdleWatchdog }> {
    signal.throwIfAborted();
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('The kubeconfig has no current cluster.');
    const url = new URL(cluster.server.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);

    const options: https.RequestOptions = { headers: {} };
    try {
      await this.kubeConfig.applyToHTTPSOptions(options);
    } catch (e) {
      // A plain-HTTP server client-node refuses: a fault of the kubeconfig, not retried.
      const refused = plainHttpRefused(this.kubeConfig, e);
      if (refused !== undefined) throw new KubeconfigRefusedError(`GET ${path}`, refused);
      // An exec plugin or token refresh that fails once may work on the next attempt. Its own
      // message can quote what the plugin printed, so only the kind of failure is kept.
      throw new CredentialError(`The kubeconfig's credentials could not be applied (${e instanceof Error ? e.name : typeof e})`, { cause: e });
    }
    options.method = 'GET';
    options.headers = { ...options.headers, Accept: 'application/json' };
    options.signal = signal;
    const transport = url.protocol === 'https:' ? https : http;

    const idle = new IdleWatchdog(this.limits.idleMs);
    try {
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = transport.request(url, options, resolve);
        idle.onFire(() => req.destroy(idle.error(`GET ${path}`)));
        req.on('socket', (socket) => socket.setKeepAlive(true, KEEP_ALIVE_DELAY_MS));
        req.on('error', (e) => {
          if (signal.aborted) reject(signal.reason);
          else if (e instanceof IdleConnectionError) reject(e);
          else reject(new TransportError(`GET ${path} failed: ${messageOf(e)}`, { cause: e }));
        });
        req.end();
      });
      idle.touch();
      idle.onFire(() => res.destroy(idle.error(`GET ${path}`)));
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) return { res, idle };
      throw await apiError(res, path, signal, idle);
    } catch (e) {
      idle.stop();
      throw e;
    }
  }
}

/** Fires when a request has received nothing for `idleMs`; every received chunk restarts it. */
class IdleWatchdog {
  public fired = false;
  private last = Date.now();
  private action: () => void = () => undefined;
  private cancel: () => void;

  constructor(private readonly idleMs: number) {
    this.cancel = this.arm(idleMs);
  }

  public onFire(action: () => void): void {
    this.action = action;
  }

  public touch(): void {
    this.last = Date.now();
  }

  public stop(): void {
    this.cancel();
  }

  public error(what: string): IdleConnectionError {
    return new IdleConnectionError(`${what}: nothing received for ${this.idleMs / 1000} s (the connection is silent; a proxy may have stopped forwarding it)`);
  }

  /** One timer per idle period, checked against the last activity, rather than one reset per chunk. */
  private arm(ms: number): () => void {
    return setLongTimeout(() => {
      const silent = Date.now() - this.last;
      if (silent >= this.idleMs) {
        this.fired = true;
        this.action();
      } else {
        this.cancel = this.arm(this.idleMs - silent);
      }
    }, ms);
  }
}

async function apiError(res: http.IncomingMessage, path: string, signal: AbortSignal, idle: IdleWatchdog): Promise<Error> {
  const status = res.statusCode ?? 0;
  let body = '';
  try {
    body = (await readBody(res, signal, MAX_ERROR_BODY, idle)) ?? '';
  } catch {
    // The status alone still says what went wrong; only a cancellation wins over it.
    if (signal.aborted) return signal.reason;
  }
  let message = body.trim().slice(0, 2000) || res.statusMessage || '';
  let reason: string | undefined;
  try {
    const s = JSON.parse(body) as { message?: string | undefined; reason?: string | undefined };
    message = s.message ?? message;
    reason = s.reason;
  } catch {
    // not a Status object: keep the raw text
  }
  return new KubernetesApiError(`GET ${path}: HTTP ${status}${message ? `: ${message}` : ''}`, status, reason, retryAfter(res.headers['retry-after']));
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfter(header: string | undefined, now = Date.now()): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The body as text, or undefined when it is longer than `limit` bytes (the response is then destroyed). */
async function readBody(res: http.IncomingMessage, signal: AbortSignal, limit: number, idle: IdleWatchdog): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      idle.touch();
      bytes += chunk.length;
      if (bytes > limit) {
        res.destroy();
        return undefined;
      }
      chunks.push(chunk);
    }
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    if (idle.fired) throw idle.error('Response');
    throw new TransportError(`Response broke: ${messageOf(e)}`, { cause: e });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Carries an error of the event callback through the stream handling untouched. */
class CallbackFailure {
  constructor(public readonly error: unknown) {}
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
