/**
 * A chart as `helm package` lays it out (`<name>-<version>.tgz`, every file under `<name>/`), made
 * byte-identical on every run: files only (as Helm writes them), sorted by name, mode 0644, owner
 * 0, mtime 0, a POSIX ustar archive (a PAX header for a name longer than ustar holds), and gzip
 * with no time and a fixed OS byte. The bytes come from the zlib Node ships (the same on Node.js
 * 20, 22 and 24: a test pins them); the chart's version (see packageChart) depends on the files
 * alone.
 */
import { gzipSync } from 'zlib';
import type { ChartFile } from './helmignore';

const BLOCK = 512;

/** The `.tgz` of `files` (names relative to the chart) under the top directory `top`. */
export function chartArchive(top: string, files: readonly ChartFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    const name = `${top}/${f.name}`;
    const split = ustarName(name);
    if (split === undefined) {
      // A PAX record `<len> path=<name>\n`, its length counting itself.
      const body = `path=${name}\n`;
      let len = Buffer.byteLength(body) + 2;
      while (Buffer.byteLength(`${len} ${body}`) !== len) len = Buffer.byteLength(`${len} ${body}`);
      const record = Buffer.from(`${len} ${body}`);
      parts.push(header({ name: 'PaxHeader', prefix: '', size: record.length, type: 'x' }), pad(record));
      parts.push(header({ name: Buffer.from(name).subarray(0, 100).toString('latin1'), prefix: '', size: f.data.length, type: '0', latin1: true }), pad(f.data));
    } else {
      parts.push(header({ ...split, size: f.data.length, type: '0' }), pad(f.data));
    }
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  const gz = gzipSync(Buffer.concat(parts), { level: 9 });
  // RFC 1952: MTIME (bytes 4-7) is already 0; OS (byte 9) is the build platform's: fix it to Unix.
  gz[9] = 3;
  return gz;
}

/** `name` as ustar's name (100 bytes) and prefix (155 bytes), or undefined when it does not fit. */
function ustarName(name: string): { name: string; prefix: string } | undefined {
  const bytes = Buffer.byteLength(name);
  if (bytes <= 100) return { name, prefix: '' };
  for (let i = name.indexOf('/'); i > 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest !== '') return { name: rest, prefix };
  }
  return undefined;
}

function header(h: { name: string; prefix: string; size: number; type: string; latin1?: boolean }): Buffer {
  const b = Buffer.alloc(BLOCK);
  const put = (text: string, offset: number, length: number, encoding: BufferEncoding = 'utf8') => {
    b.write(text, offset, length, encoding);
  };
  const octal = (n: number, length: number) => n.toString(8).padStart(length - 1, '0') + '\0';
  put(h.name, 0, 100, h.latin1 ? 'latin1' : 'utf8');
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(h.size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  put('        ', 148, 8);
  put(h.type, 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  put(h.prefix, 345, 155);
  let sum = 0;
  for (const byte of b) sum += byte;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
  return b;
}

function pad(data: Buffer): Buffer {
  const rest = data.length % BLOCK;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(BLOCK - rest)]);
}
