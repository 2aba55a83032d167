import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Readable, Writable } from 'stream';
import { main } from '../../src/cli/main';
import { CliOutput, guard, writePieces } from '../../src/cli/io';
import { tmpdir, write } from '../helpers/cli';
import { sharedPath } from '../helpers/shared';
import { buildCliFirst, finished, spawnCli } from '../helpers/spawn-cli';

buildCliFirst();

/** A reader that takes one piece per `take()`, like a pipe whose reader is busy. */
function slowSink(highWaterMark = 16 * 1024) {
  const received: string[] = [];
  const waiting: (() => void)[] = [];
  let mostHeld = 0;
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _enc, callback) {
      received.push(chunk);
      waiting.push(callback);
    },
  });
  const out = guard(stream as unknown as NodeJS.WriteStream, 'standard output');
  const recorded: CliOutput = {
    write: (s: string) => {
      const r = out.write(s);
      mostHeld = Math.max(mostHeld, stream.writableLength);
      return r;
    },
    drained: () => out.drained(),
  };
  return {
    out: recorded,
    stream,
    received,
    take: () => waiting.shift()?.(),
    pending: () => waiting.length,
    mostHeld: () => mostHeld,
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('writePieces: the next piece only when the stream can take it', () => {
  test('waits for drained() after a full write, and writes every piece in order', async () => {
    const sink = slowSink(1);
    const made: string[] = [];
    function* pieces() {
      for (const p of ['a1', 'b2', 'c3']) {
        made.push(p);
        yield p;
      }
    }
    const done = writePieces(sink.out, pieces());
    await tick();
    // The first piece filled the buffer: the second is not even made until the reader takes it.
    expect(made).toEqual(['a1']);
    expect(sink.received).toEqual(['a1']);
    sink.take();
    await tick();
    expect(made).toEqual(['a1', 'b2']);
    sink.take();
    await tick();
    sink.take();
    await done;
    expect(sink.received).toEqual(['a1', 'b2', 'c3']);
  });

  test('an output without drained() (a recorder) is written straight through', async () => {
    const got: string[] = [];
    await writePieces({ write: (s) => (got.push(s), false) }, ['x', 'y', 'z']);
    expect(got).toEqual(['x', 'y', 'z']);
  });

  test('stops making pieces when the stream fails or closes (the reader went away)', async () => {
    const sink = slowSink(1);
    const made: string[] = [];
    function* pieces() {
      for (let i = 0; i < 100; i++) {
        made.push(String(i));
        yield `piece ${i}\n`;
      }
    }
    const done = writePieces(sink.out, pieces());
    await tick();
    sink.stream.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await done;
    expect(made).toEqual(['0']);
  });
});

describe('convert to a slow reader: the output is held back, not buffered', () => {
  const dir = tmpdir('armada-cdk-backpressure-');
  const site = write(dir, 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '400'], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  let expected = '';
  beforeAll(async () => {
    const out = path.join(dir, 'expected');
    const code = await main(['convert', site, '--to', 'airship-v1', '-o', out], { stdout: { write: () => true }, stderr: { write: () => true }, stdin: Readable.from(['']), cwd: process.cwd() });
    expect(code).toBe(0);
    expected = fs.readFileSync(path.join(out, fs.readdirSync(out)[0]), 'utf8');
  });

  test('in process: never more than one piece waits in the stream, and the bytes are those of -o DIR', async () => {
    const sink = slowSink();
    const run = main(['convert', site, '--to', 'airship-v1'], { stdout: sink.out, stderr: { write: () => true }, stdin: Readable.from(['']), cwd: process.cwd() });
    // Take pieces only while the command waits for us: it must never run ahead of the reader.
    let settled = false;
    void run.then(() => (settled = true));
    while (!settled) {
      await tick();
      expect(sink.pending()).toBeLessThanOrEqual(1);
      sink.take();
    }
    expect(await run).toBe(0);
    expect(sink.received.length).toBeGreaterThan(5);
    // One piece is about 64K characters (whole documents); the stream never held a second.
    expect(sink.mostHeld()).toBeLessThan(2 * 65536);
    expect(sink.received.join('')).toBe(expected);
  }, 60_000);

  test('a real process into a pipe read slowly: every byte arrives, exit 0', async () => {
    const child = spawnCli(['convert', site, '--to', 'airship-v1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // One chunk per turn of the reader, so that the writer meets a full pipe again and again. The
    // bytes are complete only at the stream's 'end': the process may exit while the pipe still
    // holds what it wrote, so its exit (or 'close') alone says nothing about the bytes.
    const chunks: Buffer[] = [];
    const stdout = child.stdout!;
    const bytes = new Promise<string>((resolve, reject) => {
      stdout.on('data', (c: Buffer) => {
        chunks.push(c);
        stdout.pause();
      });
      stdout.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      stdout.once('error', reject);
    });
    const reader = setInterval(() => stdout.resume(), 5);
    try {
      const [r, text] = await Promise.all([finished(child), bytes]);
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(chunks.length).toBeGreaterThan(5);
      expect(text).toBe(expected);
    } finally {
      clearInterval(reader);
    }
  }, 90_000);
});

describe('the report on stderr', () => {
  const dir = tmpdir('armada-cdk-report-pieces-');
  const site = write(dir, 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '1000'], { encoding: 'utf8', maxBuffer: 1 << 26 }));

  test('--all-warnings: thousands of lines in a few pieces of whole lines, every line as printed one by one', async () => {
    const pieces: string[] = [];
    const code = await main(['convert', site, '--to', 'airship-v1', '--all-warnings'], {
      stdout: { write: () => true },
      stderr: { write: (s: string) => pieces.push(s) },
      stdin: Readable.from(['']),
      cwd: process.cwd(),
    });
    expect(code).toBe(0);
    const lines = pieces.join('').split('\n');
    expect(lines.pop()).toBe('');
    const summary = /^0 errors, (\d+) warnings$/.exec(lines[lines.length - 1]);
    expect(summary).not.toBeNull();
    const warnings = Number(summary![1]);
    expect(warnings).toBeGreaterThan(1000);
    expect(pieces.length).toBeGreaterThan(1);
    expect(lines).toHaveLength(warnings + 1);
    for (const l of lines.slice(0, -1)) expect(l).toMatch(/^[^\n]+site\.yaml:\d+:\d+: warning: /);
    // About 64K characters a piece, each ending at a line's end.
    expect(pieces.length).toBeLessThanOrEqual(Math.ceil(pieces.join('').length / 65536) + 1);
    for (const p of pieces) expect(p.endsWith('\n')).toBe(true);
  }, 60_000);
});
