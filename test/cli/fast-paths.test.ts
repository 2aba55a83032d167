/**
 * The CLI's fast paths (positions from the block index instead of the yaml AST, diagnostics
 * located only when printed, no override copies when there are no overrides) must not change a
 * byte of what it prints: the same output,
 * the same diagnostics with the same text and file:line:column, the same exit code, on the
 * corpus, on bad input (mutated corpus files) and on the generated site.
 */
import { execFileSync } from 'child_process';
import { TARGETS } from '../../src/cli/commands/convert';
import { useBlockIndex } from '../../src/importer/load/positions';
import { deferLocating } from '../../src/model/diagnostic-order';
import { cli, tmpdir, write } from '../helpers/cli';
import { corpusFiles, readShared, sharedPath } from '../helpers/shared';
import { rng } from '../helpers/random';

const COMMANDS: string[][] = [['validate'], ['plan'], ...TARGETS.map((t) => ['convert', '--to', t])];

// Every warning on its own line, so that every position is compared; like warnings grouped (the
// path that locates only what it prints); errors only; and JSON.
const REPORTS = [['--all-warnings'], [], ['--quiet'], ['--format', 'json']];

async function runAll(file: string, fast: boolean, extra: string[] = []) {
  const was = useBlockIndex(fast);
  const wasDeferring = deferLocating(fast);
  try {
    const out: { args: string; code: number; stdout: string; stderr: string }[] = [];
    for (const [cmd, ...rest] of COMMANDS) {
      for (const report of REPORTS) {
        const args = [cmd, file, ...rest, ...report, ...extra];
        out.push({ args: args.join(' '), ...(await cli(args)) });
      }
    }
    return out;
  } finally {
    useBlockIndex(was);
    deferLocating(wasDeferring);
  }
}

/** Breaks a manifest the way users do: wrong types, typos, missing keys, bad indentation. */
function breakIt(text: string, r: () => number): string {
  const edits: ((t: string) => string)[] = [
    (t) => t.replace(/sequenced: \w+/, 'sequenced: maybe'),
    (t) => t.replace(/timeout: \d+/, 'timeout: -1'),
    (t) => t.replace(/release: /, 'relase: '),
    (t) => t.replace(/chart_name: \S+\n/, ''),
    (t) => t.replace(/type: \w+/, 'type: deployments'),
    (t) => t.replace(/\n( +)(\w+):/, '\n$1  $2:'),
    (t) => t.replace(/location: \S+/, 'location: [a, b]'),
    (t) => t.replace(/values:/, 'values: 12\n  old_values:'),
    (t) => t.replace(/- (\S+)\n/, '- $1\n  - { broken: [flow }\n'),
  ];
  let t = text;
  for (let i = 0, n = 1 + Math.floor(r() * 3); i < n; i++) t = edits[Math.floor(r() * edits.length)](t);
  return t;
}

describe('fast paths print exactly what the slow paths print', () => {
  const dir = tmpdir();
  const files = corpusFiles().map((f) => f.file);

  test.each(files)('corpus %s', async (name) => {
    const f = write(dir, name, readShared('corpus', name));
    expect(await runAll(f, true)).toEqual(await runAll(f, false));
  });

  test('bad input: broken corpus files', async () => {
    const r = rng(20261203);
    let errors = 0;
    for (let i = 0; i < 60; i++) {
      const name = files[i % files.length];
      const f = write(dir, `bad-${i}.yaml`, breakIt(readShared('corpus', name), r));
      const fast = await runAll(f, true);
      expect([name, fast]).toEqual([name, await runAll(f, false)]);
      errors += fast.filter((x) => x.code === 1).length;
    }
    expect(errors).toBeGreaterThan(0);
  }, 120_000);

  test('the generated site: thousands of warnings, every one placed alike', async () => {
    const f = write(dir, 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '60'], { encoding: 'utf8' }));
    const fast = await runAll(f, true);
    expect(fast).toEqual(await runAll(f, false));
    const warnings = fast.map((x) => (x.stderr.match(/: warning: /g) ?? []).length);
    expect(Math.max(...warnings)).toBeGreaterThan(1000);
  }, 120_000);

  test('a site in three files: every report file by file in the order given, then by line; fast and slow alike', async () => {
    const docs = execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '20'], { encoding: 'utf8' }).split(/^(?=---$)/m);
    const charts = docs.filter((d) => /^schema: armada\/Chart\//m.test(d));
    const rest = write(dir, 'split-rest.yaml', docs.filter((d) => !charts.includes(d)).join(''));
    const odd = write(dir, 'split-odd.yaml', charts.filter((_, i) => i % 2 === 1).join(''));
    const even = write(dir, 'split-even.yaml', charts.filter((_, i) => i % 2 === 0).join(''));
    for (const files of [[rest, odd, even], [even, rest, odd]]) {
      const args = ['convert', ...files, '--to', 'flux-v2', '--all-warnings'];
      const fast = await cli(args);
      const slow = await (async () => {
        const was = deferLocating(false);
        try {
          return await cli(args);
        } finally {
          deferLocating(was);
        }
      })();
      expect(fast).toEqual(slow);
      const places = fast.stderr
        .split('\n')
        .map((l) => /^(.*):(\d+):(\d+): /.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [files.indexOf(m[1]), Number(m[2]), Number(m[3])]);
      expect(places.length).toBeGreaterThan(50);
      const inOrder = places.every((p, i) => i === 0 || p[0] > places[i - 1][0] || (p[0] === places[i - 1][0] && (p[1] > places[i - 1][1] || (p[1] === places[i - 1][1] && p[2] >= places[i - 1][2]))));
      expect(inOrder).toBe(true);
      expect(new Set(places.map((p) => p[0])).size).toBeGreaterThanOrEqual(2);
    }
  }, 60_000);

  test('no override copies: the same as an override run that changes nothing', async () => {
    const f = write(dir, 'simple.yaml', readShared('corpus', 'armada__examples__simple.yaml'));
    // Armada ignores override documents of other schemas: the override path runs and changes nothing.
    const ignored = write(dir, 'ignored.yaml', 'schema: deckhand/Thing/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: x\ndata: {}\n');
    const plain = await runAll(f, true);
    const overridden = await runAll(f, true, ['--values', ignored]);
    expect(overridden.map((x) => ({ ...x, args: x.args.replace(` --values ${ignored}`, '') }))).toEqual(plain);
  });
});
