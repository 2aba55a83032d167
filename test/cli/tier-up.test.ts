/**
 * The command's standard input, counted for V8's later optimization (src/cli/tier-up.ts): every
 * byte passes unchanged, and a failure or an early stop of the reader ends both streams. Whether
 * the setting is made (a process-wide V8 flag) is checked in child processes, by the start-up
 * test; here the inputs stay below the size that makes it.
 */
import { PassThrough, Readable } from 'stream';
import { readInputs } from '../../src/importer/load/read';
import { countingForTierUp, inputBytes, TIER_UP_INPUT_BYTES, tierUpFactor, tierUpFlags } from '../../src/cli/tier-up';
import { tmpdir, write } from '../helpers/cli';

describe('standard input counted for the tier-up setting', () => {
  test('the text read through the counter is the text written, multi-byte characters split across chunks included', async () => {
    const text = Array.from({ length: 3000 }, (_, i) => `- key_${i}: "é ✓ 𝄞 ${i}"\n`).join('');
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.length).toBeLessThan(TIER_UP_INPUT_BYTES);
    // chunks of 7 bytes cut through the 2-, 3- and 4-byte characters
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    const r = await readInputs(['-'], countingForTierUp(Readable.from(chunks)));
    expect(r.diagnostics).toEqual([]);
    expect(r.inputs).toEqual([{ file: '<stdin>', text }]);
  });

  test("an error of standard input reaches the reader, which reports it", async () => {
    const source = new PassThrough();
    const counted = countingForTierUp(source);
    const read = readInputs(['-'], counted);
    source.write('a: 1\n');
    source.destroy(new Error('EIO: i/o error, read'));
    const r = await read;
    expect(r.inputs).toEqual([]);
    expect(r.diagnostics).toEqual([{ severity: 'error', location: '<stdin>', code: 'read-error', message: 'cannot read <stdin>: EIO: i/o error, read' }]);
  });

  test('the reader stopping at its size limit ends standard input as well: an endless producer does not keep the process', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 1024;
        this.push(Buffer.alloc(1024, 0x61));
      },
    });
    const r = await readInputs(['-'], countingForTierUp(endless), { maxBytes: 64 * 1024 });
    expect(r.diagnostics.map((d) => d.message)).toEqual(['<stdin> is larger than 65536 bytes; reading stopped there']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(endless.destroyed).toBe(true);
    const after = produced;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(produced).toBe(after);
  });

  test('the input size counts regular files given as arguments, not the other arguments', () => {
    const dir = tmpdir('armada-cdk-tier-up-');
    const a = write(dir, 'a.yaml', 'x'.repeat(1000));
    const b = write(dir, 'b.yaml', 'y'.repeat(500));
    expect(inputBytes(['convert', a, '--to', 'airship-v1', b, '-o', dir])).toBe(1500);
    expect(inputBytes(['validate', `${dir}/missing.yaml`])).toBe(0);
  });
});

describe('how much later V8 optimizes, by the size of the input', () => {
  test('four times V8 threshold from 256 KiB, then four times more for every 3 MiB, up to 32 times', () => {
    const MiB = 1024 * 1024;
    const sizes = [0, TIER_UP_INPUT_BYTES - 1, TIER_UP_INPUT_BYTES, 3 * MiB, 3.75 * MiB - 1, 3.75 * MiB, 6 * MiB, 12.3e6, 24 * MiB, 25 * MiB, 1024 * MiB];
    expect(sizes.map(tierUpFactor)).toEqual([1, 1, 4, 4, 4, 5, 8, 15, 32, 32, 32]);
  });

  test("the flags of V8's threshold for the V8 that runs: V8 12 (Node.js 22) has no --interrupt-budget", () => {
    expect(tierUpFlags(4, '11.3.244.8-node.33')).toEqual(['--interrupt-budget=270336']);
    expect(tierUpFlags(16, '11.3.244.8-node.33')).toEqual(['--interrupt-budget=1081344']);
    for (const v of ['12.4.254.21-node.33', '13.6.233.17-node.63', '14.6.202.34-node.40']) {
      expect(tierUpFlags(4, v)).toEqual(['--invocation-count-for-maglev=1600', '--invocation-count-for-turbofan=12000']);
    }
  });

  test('standard input raises the setting once 256 KiB have come and again as more does, only upwards, before the reader has the text', async () => {
    // The module object the source requires (an import's namespace copy cannot be spied on); the
    // real setting would change this test process's V8.
    const set = jest.spyOn(require('v8') as typeof import('v8'), 'setFlagsFromString').mockImplementation(() => undefined);
    try {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const chunks = Array.from({ length: 200 }, () => chunk);
      const r = await readInputs(['-'], countingForTierUp(Readable.from(chunks)));
      const flagsWhenRead = set.mock.calls.map((c) => c[0]);
      expect(r.inputs[0].text.length).toBe(200 * 64 * 1024);
      // 4x at 256 KiB, 5x at 3.75 MiB, ..., 16x at 12 MiB (200 chunks are 12.5 MiB)
      expect(flagsWhenRead).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].flatMap((f) => tierUpFlags(f)));
      expect(flagsWhenRead.slice(0, 2)).toEqual(Number(process.versions.v8.split('.')[0]) < 12 ? ['--interrupt-budget=270336', '--interrupt-budget=337920'] : ['--invocation-count-for-maglev=1600', '--invocation-count-for-turbofan=12000']);
    } finally {
      set.mockRestore();
    }
  });
});
