/**
 * A TCP proxy on 127.0.0.1 in front of the fake API server that can go silent mid-watch: once a
 * connection has carried a watch request, it forwards the server's answer for a short while and
 * then swallows everything, keeping both sockets open, as a proxy or load balancer that lost its
 * upstream state does. Everything it opened is closed by close().
 */
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { KubeConfigLike } from '../../../src/pulumi/provider/readiness';

export class SilentProxy {
  public static async start(upstreamUrl: string, options: { silenceAfterMs: number; silentWatches: number }): Promise<SilentProxy> {
    const proxy = new SilentProxy(new URL(upstreamUrl), options);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** Bytes the server sent on connections after they went silent. */
  public swallowedBytes = 0;
  /** How many connections went silent. */
  public silenced = 0;
  private readonly sockets = new Set<net.Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly server: net.Server;

  private constructor(
    upstream: URL,
    private readonly options: { silenceAfterMs: number; silentWatches: number },
  ) {
    this.server = net.createServer((client) => {
      const server = net.connect(Number(upstream.port), upstream.hostname);
      this.sockets.add(client).add(server);
      let silent = false;
      client.on('data', (data) => {
        server.write(data);
        if (!silent && this.silenced < this.options.silentWatches && data.toString('latin1').includes('watch=true')) {
          this.silenced++;
          const timer = setTimeout(() => (silent = true), this.options.silenceAfterMs);
          this.timers.add(timer);
        }
      });
      server.on('data', (data) => {
        if (silent) this.swallowedBytes += data.length;
        else client.write(data);
      });
      const end = () => {
        client.destroy();
        server.destroy();
      };
      client.on('close', end).on('error', end);
      server.on('close', end).on('error', end);
    });
  }

  public kubeConfig(token = 'test-token'): KubeConfigLike {
    const server = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return {
      getCurrentCluster: () => ({ server }),
      applyToHTTPSOptions: async (opts) => {
        opts.headers = { ...opts.headers, Authorization: `Bearer ${token}` };
      },
    };
  }

  public async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
