import { createHash } from 'crypto';
import { createWriteStream, promises as fs } from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import { pipeline } from 'stream/promises';
import { Transform } from 'stream';
import * as tls from 'tls';
import { ChartSourceError, redact, trimDetail } from './errors';

/** How to reach the server. */
export interface DownloadOptions {
  /** `http://[user:pass@]host:port` (a bare `host:port` is read as http). */
  readonly proxyServer?: string | undefined;
  /** PEM text of extra trusted authorities. */
  readonly ca?: string | undefined;
  readonly insecure: boolean;
  /** Inactivity limit in milliseconds, per connection phase. */
  readonly timeoutMs: number;
  /** Limit on the whole download (every redirect included), in milliseconds. */
  readonly totalTimeoutMs: number;
  /** Largest body accepted, in bytes. */
  readonly maxBytes: number;
  readonly maxRedirects?: number | undefined;
}

/** What was downloaded. */
export interface DownloadResult {
  /** The URL that finally answered 2xx, after redirects. */
  readonly finalUrl: string;
  readonly bytes: number;
  /** Hex SHA-256 of the body. */
  readonly sha256: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH/;

/** GETs `location` into `dest` (created or truncated), following redirects. */
export async function download(location: string, dest: string, options: DownloadOptions): Promise<DownloadResult> {
  // A server trickling a byte at a time never trips the inactivity limit; this bounds the whole.
  const total = new AbortController();
  const timer = setTimeout(() => total.abort(), options.totalTimeoutMs);
  try {
    return await downloadWithin(location, dest, options, total.signal);
  } catch (e) {
    if (total.signal.aborted) {
      throw new ChartSourceError('download', `GET: not finished after ${options.totalTimeoutMs / 1000} s (downloadTimeout)`, undefined, { cause: e });
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

async function downloadWithin(location: string, dest: string, options: DownloadOptions, signal: AbortSignal): Promise<DownloadResult> {
  let current = parseUrl(location, 'location');
  const start = current.href;
  const proxy = options.proxyServer ? parseProxy(options.proxyServer) : undefined;
  const max = options.maxRedirects ?? 10;
  for (let hop = 0; ; hop++) {
    // The caller prefixes the location, so only a redirect target is worth repeating.
    const label = `GET${current.href === start ? '' : ` ${redact(current.href)} (redirected)`}${proxy ? ` via proxy ${proxy.host}` : ''}`;
    const res = await request(current, proxy, options, label, signal);
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) && res.headers.location) {
      res.resume();
      if (hop >= max) throw new ChartSourceError('download', `GET: more than ${max} redirects (last to ${redact(res.headers.location)})`);
      current = new URL(res.headers.location, current);
      if (current.protocol !== 'http:' && current.protocol !== 'https:') {
        throw new ChartSourceError('download', `GET: redirected to ${redact(current.href)}, which is not http(s)`);
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      const body = await readSome(res, 500);
      throw new ChartSourceError(
        'download',
        `${label} failed: HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}${body ? `: ${body}` : ''}`,
        body || undefined,
      );
    }
    const tooLarge = () => new ChartSourceError('download', `${label}: the body is larger than ${options.maxBytes} bytes (maxDownloadBytes)`);
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      res.destroy();
      throw tooLarge();
    }
    const hash = createHash('sha256');
    let bytes = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        if (bytes > options.maxBytes) return cb(tooLarge());
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(res, tap, createWriteStream(dest), { signal });
    } catch (e) {
      throw wrap(e, `${label}: download interrupted`, proxy);
    }
    return { finalUrl: current.href, bytes, sha256: hash.digest('hex') };
  }
}

function parseUrl(text: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new ChartSourceError('invalid-option', `tar source ${what} "${redact(text)}" is not a URL; expected http(s)://host/path/chart.tgz`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ChartSourceError('invalid-option', `tar source ${what} "${redact(text)}" uses ${u.protocol.slice(0, -1)}; only http and https are supported`);
  }
  return u;
}

function parseProxy(text: string): URL {
  let u: URL;
  try {
    // Armada passes proxy_server to requests, which also reads a bare host:port as http.
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ChartSourceError('invalid-option', `proxyServer "${redact(text)}" is not a URL; expected http://host:port`);
  }
  if (u.protocol !== 'http:') {
    throw new ChartSourceError('invalid-option', `proxyServer "${redact(text)}" uses ${u.protocol.slice(0, -1)}; only http:// proxies are supported (https targets go through them with CONNECT)`);
  }
  return u;
}

function proxyHeaders(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const creds = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(creds).toString('base64')}` };
}

/**
 * The URL's `user:password@` as the Basic `Authorization` header, what Node makes of it for a
 * direct request and curl for every request. Through a proxy the request is built by hand, and the
 * credentials must not ride in the request target, which the proxy logs.
 */
function userinfoHeaders(url: URL): Record<string, string> {
  if (!url.username && !url.password) return {};
  const creds = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(creds).toString('base64')}` };
}

/** The absolute-form request target a plain-http proxy takes: the URL without its credentials (or fragment). */
function absoluteTarget(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}${url.search}`;
}

function tlsOptions(options: DownloadOptions): tls.ConnectionOptions {
  return {
    rejectUnauthorized: !options.insecure,
    // Node's `ca` replaces the built-in list; keep the public roots so caFile only adds trust.
    ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}),
  };
}

// identity: a .tgz is already compressed, and a server that gzips it again would hand tar a double layer.
const HEADERS = { 'user-agent': 'armada-cdk', accept: '*/*', 'accept-encoding': 'identity' };

function request(url: URL, proxy: URL | undefined, options: DownloadOptions, target: string, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const fail = (e: unknown) => reject(wrap(e, target, proxy));
    const onResponse = (res: http.IncomingMessage) => resolve(res);
    const arm = (req: http.ClientRequest) => {
      const abort = () => req.destroy(new Error('aborted'));
      if (signal.aborted) abort();
      signal.addEventListener('abort', abort, { once: true });
      req.on('close', () => signal.removeEventListener('abort', abort));
      req.setTimeout(options.timeoutMs, () => req.destroy(new TimeoutError(options.timeoutMs)));
      req.on('error', fail);
      req.end();
    };
    // agent: false so no keep-alive socket outlives the download and holds the process open.
    if (!proxy) {
      const mod = url.protocol === 'https:' ? https : http;
      arm(mod.request(url, { method: 'GET', headers: HEADERS, agent: false, ...(url.protocol === 'https:' ? tlsOptions(options) : {}) }, onResponse));
      return;
    }
    const proxyPort = Number(proxy.port || 80);
    if (url.protocol === 'http:') {
      // A plain-http proxy takes the absolute URL as the request target, without the credentials.
      arm(
        http.request(
          {
            host: bare(proxy.hostname),
            port: proxyPort,
            method: 'GET',
            path: absoluteTarget(url),
            headers: { ...HEADERS, host: url.host, ...userinfoHeaders(url), ...proxyHeaders(proxy) },
            agent: false,
          },
          onResponse,
        ),
      );
      return;
    }
    // URL keeps the brackets of an IPv6 hostname, which is what CONNECT's authority form wants.
    const authority = `${url.hostname}:${url.port || 443}`;
    const connect = http.request({
      host: bare(proxy.hostname),
      port: proxyPort,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...proxyHeaders(proxy) },
      agent: false,
    });
    connect.setTimeout(options.timeoutMs, () => connect.destroy(new TimeoutError(options.timeoutMs)));
    const abortConnect = () => connect.destroy(new Error('aborted'));
    signal.addEventListener('abort', abortConnect, { once: true });
    connect.on('close', () => signal.removeEventListener('abort', abortConnect));
    connect.on('error', fail);
    connect.on('connect', (res: http.IncomingMessage, socket: net.Socket) => {
      connect.setTimeout(0);
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(new ChartSourceError('download', `${target}: the proxy refused CONNECT ${authority}: HTTP ${res.statusCode}${res.statusMessage ? ` ${res.statusMessage}` : ''}`));
        return;
      }
      const host = bare(url.hostname);
      const secure = tls.connect({ socket, ...(net.isIP(host) ? {} : { servername: host }), ...tlsOptions(options) });
      secure.setTimeout(options.timeoutMs, () => secure.destroy(new TimeoutError(options.timeoutMs)));
      secure.once('error', fail);
      secure.once('secureConnect', () => {
        secure.setTimeout(0);
        secure.removeListener('error', fail);
        // The TLS socket is already open, so the request is written over it as plain HTTP/1.1.
        arm(
          http.request(
            {
              host,
              port: Number(url.port || 443),
              method: 'GET',
              path: `${url.pathname}${url.search}`,
              headers: { ...HEADERS, host: url.host, ...userinfoHeaders(url) },
              createConnection: () => secure,
            },
            onResponse,
          ),
        );
      });
    });
    connect.end();
  });
}

class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no response for ${ms / 1000} s`);
  }
}

function wrap(e: unknown, target: string, proxy: URL | undefined): ChartSourceError {
  if (e instanceof ChartSourceError) return e;
  const err = e as NodeJS.ErrnoException;
  const code = err.code ?? '';
  let message = `${target} failed: ${err.message}`;
  if (TLS_CODES.test(code) || TLS_CODES.test(err.message ?? '')) {
    message +=
      '. TLS verification is on: pass caFile with the authority that signed the server certificate, ' +
      'or insecure: true to skip verification (what Armada does when its `certs` option is not set)';
  } else if (proxy && (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
    // With a proxy the only connection this process opens is the one to the proxy.
    message += ` (the proxy ${proxy.host} cannot be reached)`;
  }
  return new ChartSourceError('download', message, undefined, { cause: e });
}

async function readSome(res: http.IncomingMessage, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of res) {
      if (n < max) chunks.push(chunk as Buffer);
      n += (chunk as Buffer).length;
      if (n >= max) break;
    }
  } catch {
    // The status line is the useful part; a broken body must not hide it.
  } finally {
    res.destroy();
  }
  return trimDetail(Buffer.concat(chunks).toString('utf8').replace(/<[^>]*>/g, ' '), max).replace(/\s+/g, ' ');
}

/** Removes a partial download; failures here would only mask the real error. */
export async function discard(file: string): Promise<void> {
  await fs.rm(file, { force: true }).catch(() => undefined);
}

/** `[::1]` → `::1`: URL keeps IPv6 brackets, sockets and SNI do not want them. */
function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '');
}
