import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Readable } from 'stream';
import { main } from '../../src/cli/main';
import { TARGETS } from '../../src/cli/commands/convert';
import { tmpdir, write } from '../helpers/cli';
import { sharedPath } from '../helpers/shared';

/** Every write of one in-process run, in order, by stream. */
async function recorded(args: string[]) {
  const writes: ['out' | 'err', string][] = [];
  const code = await main(args, {
    stdout: { write: (s: string) => writes.push(['out', s]) },
    stderr: { write: (s: string) => writes.push(['err', s]) },
    stdin: Readable.from(['']),
    cwd: process.cwd(),
  });
  return { code, writes };
}

// convert writes stdout as the YAML writer makes it, so nothing of it is held; these pin what
// that must not change: the bytes, and that the report is whole before the first of them.
describe('convert to stdout: written as it is made, after the whole report', () => {
  const dir = tmpdir('armada-cdk-stream-');
  const site = write(dir, 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '120'], { encoding: 'utf8', maxBuffer: 1 << 26 }));

  test.each(TARGETS.filter((t) => t !== 'keleustes-v1alpha1'))('%s: several pieces, every stderr line first, the same bytes as -o DIR', async (to) => {
    const { code, writes } = await recorded(['convert', site, '--to', to]);
    expect(code).toBe(0);
    const firstOut = writes.findIndex(([s]) => s === 'out');
    const lastErr = writes.map(([s]) => s).lastIndexOf('err');
    expect(lastErr).toBeLessThan(firstOut);
    const pieces = writes.slice(firstOut).map(([, text]) => text);
    expect(pieces.length).toBeGreaterThan(1);
    const out = path.join(dir, to);
    // flux-v2's -o writes a GitOps directory; its one-file form is --single-file.
    expect((await recorded(['convert', site, '--to', to, '-o', out, ...(to === 'flux-v2' ? ['--single-file'] : [])])).code).toBe(0);
    expect(pieces.join('')).toBe(fs.readFileSync(path.join(out, fs.readdirSync(out)[0]), 'utf8'));
  });

  test('a conversion that ends with an error writes its report and nothing on stdout', async () => {
    // keleustes-v1alpha1 refuses this site (its groups span namespaces) after reporting every finding.
    const { code, writes } = await recorded(['convert', site, '--to', 'keleustes-v1alpha1']);
    expect(code).toBe(1);
    expect(writes.filter(([s]) => s === 'out')).toEqual([]);
    expect(writes.map(([, t]) => t).join('')).toMatch(/\d+ errors?, \d+ warnings?/);
  });
});
