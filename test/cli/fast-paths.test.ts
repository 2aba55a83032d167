/**
 * The order of a report across files, and a run without overrides printing what a run with
 * overrides that change nothing prints: the same output, the same diagnostics with the same text
 * and file:line:column, the same exit code.
 */
import { execFileSync } from 'child_process';
import { TARGETS } from '../../src/cli/commands/convert';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared, sharedPath } from '../helpers/shared';

const COMMANDS: string[][] = [['validate'], ['plan'], ...TARGETS.map((t) => ['convert', '--to', t])];

// Every warning on its own line, so that every position is compared; like warnings grouped;
// errors only; and JSON.
const REPORTS = [['--all-warnings'], [], ['--quiet'], ['--format', 'json']];

async function runAll(file: string, extra: string[] = []) {
  const out: { args: string; code: number; stdout: string; stderr: string }[] = [];
  for (const [cmd, ...rest] of COMMANDS) {
    for (const report of REPORTS) {
      const args = [cmd, file, ...rest, ...report, ...extra];
      out.push({ args: args.join(' '), ...(await cli(args)) });
    }
  }
  return out;
}

describe('reports', () => {
  const dir = tmpdir();

  test('a site in three files: every report file by file in the order given, then by line', async () => {
    const docs = execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '20'], { encoding: 'utf8' }).split(/^(?=---$)/m);
    const charts = docs.filter((d) => /^schema: armada\/Chart\//m.test(d));
    const rest = write(dir, 'split-rest.yaml', docs.filter((d) => !charts.includes(d)).join(''));
    const odd = write(dir, 'split-odd.yaml', charts.filter((_, i) => i % 2 === 1).join(''));
    const even = write(dir, 'split-even.yaml', charts.filter((_, i) => i % 2 === 0).join(''));
    for (const files of [[rest, odd, even], [even, rest, odd]]) {
      const args = ['convert', ...files, '--to', 'flux-v2', '--all-warnings'];
      const r = await cli(args);
      const places = r.stderr
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
    const plain = await runAll(f);
    const overridden = await runAll(f, ['--values', ignored]);
    // The helmfile's hooks run `armada-cdk wait` on the same inputs, --values among them: that
    // argument is the one difference.
    const hookArg = (out: string) => out.split('\n').filter((l, i, all) => !/^ *- "--values"$/.test(l) && !(l.trim() === `- ${ignored}` && /^ *- "--values"$/.test(all[i - 1]))).join('\n');
    expect(overridden.map((x) => ({ ...x, args: x.args.replace(` --values ${ignored}`, ''), stdout: hookArg(x.stdout) }))).toEqual(plain);
  });
});
