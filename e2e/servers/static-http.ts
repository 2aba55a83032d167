/** A minimal HTTP server on 127.0.0.1 for the suite's chart sources. */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';

/** A listening server and its base URL (ending in `/`). */
export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1. */
export function listen(handler: http.RequestListener): Promise<StaticServer> {
  const server = http.createServer(handler);
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Serves the files of `root` (GET and HEAD only; nothing outside `root`; no directory listings). */
export function serveFiles(root: string): http.RequestListener {
  const base = path.resolve(root);
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.resolve(base, '.' + urlPath);
    if (!file.startsWith(base + path.sep)) {
      res.writeHead(404).end();
      return;
    }
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) {
        res.writeHead(404).end();
        return;
      }
      const type = file.endsWith('.yaml') ? 'application/x-yaml' : file.endsWith('.tgz') ? 'application/gzip' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'content-length': st.size });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(file).pipe(res);
    });
  };
}
