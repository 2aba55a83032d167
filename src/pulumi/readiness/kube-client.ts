/**
 * Just enough of the Kubernetes API for the gate: LIST and WATCH of one collection, over Node's
 * http/https with the KubeConfig's TLS and auth applied, so a plain HTTP server can stand in for
 * the API server in tests.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { KubernetesApiError, TransportError } from './errors';
import type { KubeConfigLike } from './kubeconfig';
import type { KubeObject } from './objects';

/** A LIST answer: the items and the collection's resourceVersion to watch from. */
export interface ListResult {
  readonly items: readonly KubeObject[];
  readonly resourceVersion?: string;
}

/** One watch event: `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR` (whose object is a Status). */
export interface WatchEvent {
  readonly type: string;
  readonly object: KubeObject & { readonly code?: number; readonly reason?: string; readonly message?: string };
}

/** How a watch returned: the caller asked it to stop, or the server ended the stream cleanly. */
export type WatchEnd = 'stopped' | 'ended';

/** Query parameters; undefined values are left out. */
export type Query = Readonly<Record<string, string | undefined>>;

/** Error bodies are only read for their message; cap them so a misbehaving proxy cannot exhaust memory. */
const MAX_ERROR_BODY = 64 * 1024;

/** LIST and WATCH against the cluster of a KubeConfig; every request re-applies its auth. */
export class KubeApiClient {
  constructor(private readonly kubeConfig: KubeConfigLike) {}

  /** GET a collection. Throws {@link KubernetesApiError} for an error status, {@link TransportError} for a broken connection. */
  public async list(path: string, query: Query, signal: AbortSignal): Promise<ListResult> {
    const res = await this.get(path, query, signal);
    const body = await readBody(res, signal, Infinity);
    let parsed: { items?: KubeObject[] | null; metadata?: { resourceVersion?: string } };
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      throw new TransportError(`Unreadable LIST response from ${path}`, { cause: e });
    }
    return { items: parsed.items ?? [], resourceVersion: parsed.metadata?.resourceVersion };
  }

  /**
   * Streams a watch, calling `onEvent` for each newline-delimited event; `onEvent` returns true to
   * stop, or throws to abandon the stream with its error.
   */
  public async watch(path: string, query: Query, signal: AbortSignal, onEvent: (event: WatchEvent) => boolean): Promise<WatchEnd> {
    const res = await this.get(path, { ...query, watch: 'true' }, signal);
    res.setEncoding('utf8');
    let buffered = '';
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
      for await (const chunk of res as AsyncIterable<string>) {
        buffered += chunk;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (deliver(line)) return 'stopped';
        }
      }
      if (deliver(buffered)) return 'stopped';
      return 'ended';
    } catch (e) {
      if (e instanceof CallbackFailure) throw e.error;
      if (signal.aborted) throw signal.reason;
      if (e instanceof TransportError) throw e;
      throw new TransportError(`Watch of ${path} broke: ${messageOf(e)}`, { cause: e });
    } finally {
      res.destroy();
    }
  }

  private async get(path: string, query: Query, signal: AbortSignal): Promise<http.IncomingMessage> {
    signal.throwIfAborted();
    const cluster = this.kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('The kubeconfig has no current cluster.');
    const url = new URL(cluster.server.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);

    const options: https.RequestOptions = { headers: {} };
    await this.kubeConfig.applyToHTTPSOptions(options);
    options.method = 'GET';
    options.headers = { ...options.headers, Accept: 'application/json' };
    options.signal = signal;
    const transport = url.protocol === 'https:' ? https : http;

    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = transport.request(url, options, resolve);
      req.on('error', (e) => {
        reject(signal.aborted ? signal.reason : new TransportError(`GET ${path} failed: ${messageOf(e)}`, { cause: e }));
      });
      req.end();
    });
    const status = res.statusCode ?? 0;
    if (status >= 200 && status < 300) return res;
    throw await apiError(res, path, signal);
  }
}

async function apiError(res: http.IncomingMessage, path: string, signal: AbortSignal): Promise<Error> {
  const status = res.statusCode ?? 0;
  let body = '';
  try {
    body = await readBody(res, signal, MAX_ERROR_BODY);
  } catch {
    // The status alone still says what went wrong; only a cancellation wins over it.
    if (signal.aborted) return signal.reason;
  }
  let message = body.trim() || res.statusMessage || '';
  let reason: string | undefined;
  try {
    const s = JSON.parse(body) as { message?: string; reason?: string };
    message = s.message ?? message;
    reason = s.reason;
  } catch {
    // not a Status object: keep the raw text
  }
  return new KubernetesApiError(`GET ${path}: HTTP ${status}${message ? `: ${message}` : ''}`, status, reason);
}

async function readBody(res: http.IncomingMessage, signal: AbortSignal, limit: number): Promise<string> {
  res.setEncoding('utf8');
  let body = '';
  try {
    for await (const chunk of res as AsyncIterable<string>) {
      body += chunk;
      if (body.length > limit) {
        res.destroy();
        break;
      }
    }
  } catch (e) {
    if (signal.aborted) throw signal.reason;
    throw new TransportError(`Response broke: ${messageOf(e)}`, { cause: e });
  }
  return body;
}

/** Carries an error of the event callback through the stream handling untouched. */
class CallbackFailure {
  constructor(public readonly error: unknown) {}
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
