import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cli, tmpdir } from '../helpers/cli';
import { corpusFiles, readShared } from '../helpers/shared';
import { rng } from '../helpers/random';

/** Deterministic pseudo-random numbers: a failing case reproduces from its seed. */
const TOKENS = [': ', '- ', '{', '}', '[', ']', '&a ', '*a', '!!binary ', '!!python/object ', '<<: *a\n', '\t', '---\n', '...\n', '"', "'", '#', '|', '>', '%YAML 1.1\n', '? ', ',', '\u0000', '\ufeff', '~', 'yes', '0755', '1e3', '=', 'null', '\n  ', '\n      - ', 'chart_group: x\n', 'min_ready: "150%"\n',
  // aliases: recursive ones, and a small bomb
  '&r [1, *r]', '&m {k: *m}', '*r', '<<: *r\n', 'b0: &b0 [x, x, x, x, x, x, x, x]\nb1: &b1 [*b0, *b0, *b0, *b0, *b0, *b0, *b0, *b0]\nb2: &b2 [*b1, *b1, *b1, *b1, *b1, *b1, *b1, *b1]\nb3: &b3 [*b2, *b2, *b2, *b2, *b2, *b2, *b2, *b2]\nb4: &b4 [*b3, *b3, *b3, *b3, *b3, *b3, *b3, *b3]\nb5: &b5 [*b4, *b4, *b4, *b4, *b4, *b4, *b4, *b4]\nb6: &b6 [*b5, *b5, *b5, *b5, *b5, *b5, *b5, *b5]\nb7: [*b6, *b6, *b6, *b6, *b6, *b6, *b6, *b6]\n',
  // keys JavaScript treats specially
  '__proto__: ', '__proto__:\n  polluted: 1\n', 'constructor: ', 'constructor:\n  prototype:\n    polluted: 1\n', 'prototype: ', 'toString: ', '"__proto__": {polluted: 1}', '\r'];

const BLOCKS: string[][] = [
  ['__proto__:', '  polluted: 1', 'constructor:', '  prototype:', '    polluted: 1', 'prototype: 1', 'toString: x'],
  ['base: &v', '  a: 1', '  self: *v'],
  ['list: &l [1, 2, *l]'],
  ['b0: &b0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `b${i + 1}: &b${i + 1} [${Array(10).fill(`*b${i}`).join(', ')}]`)],
  ['shared: &s {a: [1, 2, 3], b: {c: d}}', 'one: *s', 'two: {<<: *s, e: f}', '"__proto__": *s'],
];

function mutate(text: string, r: () => number): string {
  let t = text;
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * (t.length + 1));
    const op = Math.floor(r() * 8);
    if (op === 0) t = t.slice(0, at) + TOKENS[Math.floor(r() * TOKENS.length)] + t.slice(at);
    else if (op === 1) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 40));
    else if (op === 2) {
      const lines = t.split('\n');
      const k = Math.floor(r() * lines.length);
      lines.splice(k, 0, lines[Math.floor(r() * lines.length)]);
      t = lines.join('\n');
    } else if (op === 3) t = t.slice(0, at);
    else if (op === 4) {
      const lines = t.split('\n');
      const k = Math.floor(r() * lines.length);
      lines[k] = (r() < 0.5 ? '  ' : '') + lines[k].replace(/^ {2}/, r() < 0.5 ? '' : '    ');
      t = lines.join('\n');
    } else if (op === 5) t = t.slice(0, at) + String.fromCharCode(Math.floor(r() * 0x3000)) + t.slice(at + 1);
    else if (op === 6) t = t.replace(/sequenced: \w+/, 'sequenced: maybe').replace(/timeout: \d+/, 'timeout: -1');
    else {
      // A well-formed block under some values: (aliases, special keys), so that it gets past the parser.
      const block = BLOCKS[Math.floor(r() * BLOCKS.length)];
      const k = Math.floor(r() * 4);
      let seen = 0;
      t = t.replace(/^( *)values:.*$/gm, (line, indent: string) => (seen++ === k ? `${indent}values:\n${block.map((l) => `${indent}  ${l}`).join('\n')}` : line));
    }
  }
  return t;
}

/** Inputs that are not regular files: added as a second input, or as a -f values file. */
function specialFiles(): string[] {
  const dir = tmpdir('armada-cdk-fuzz-');
  const fifo = path.join(dir, 'fifo.yaml');
  execFileSync('mkfifo', [fifo]);
  const link = path.join(dir, 'zero.yaml');
  fs.symlinkSync('/dev/zero', link);
  const loop = path.join(dir, 'loop.yaml');
  fs.symlinkSync(loop, loop);
  return ['/dev/zero', '/dev/urandom', '/dev/null', fifo, link, loop, dir];
}

/** Extra arguments now and then: a special file as input or values file, a --set through __proto__. */
function extraArgs(r: () => number, specials: readonly string[]): string[] {
  const x = r();
  const special = specials[Math.floor(r() * specials.length)];
  if (x < 0.1) return [special];
  if (x < 0.2) return ['-f', special];
  if (x < 0.25) return ['--set', 'chart:blog-1:values.__proto__.polluted=1'];
  if (x < 0.3) return ['--set', 'chart:keystone:values.constructor.prototype.polluted=1'];
  return [];
}

describe('fuzz: mutated corpus files only ever get diagnostics', () => {
  const files = corpusFiles().map((f) => f.file);
  const specials = specialFiles();
  const CASES = Number(process.env.FUZZ_CASES ?? 240);
  test(`${CASES} mutations x (validate, plan, convert)`, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261202));
    const failures: string[] = [];
    let aliasCases = 0;
    for (let i = 0; i < CASES; i++) {
      const file = files[i % files.length];
      const text = mutate(readShared('corpus', file), r);
      const extra = extraArgs(r, specials);
      for (const base of [['validate', '-'], ['plan', '-', '--format', 'json'], ['convert', '-', '--to', i % 2 ? 'airship-v1' : 'documents-v2']]) {
        const args = [...base, ...extra];
        let res;
        try {
          res = await cli(args, { stdin: text });
        } catch (e) {
          failures.push(`case ${i} (${file}) ${args[0]}: threw ${(e as Error).stack}`);
          continue;
        }
        if (/recursive alias|an alias bomb/.test(res.stdout + res.stderr)) aliasCases++;
        if (res.code !== 0 && res.code !== 1) failures.push(`case ${i} (${file}) ${args[0]}: exit ${res.code}: ${res.stderr.slice(0, 400)}`);
        if (/internal error/.test(res.stderr)) failures.push(`case ${i} (${file}) ${args[0]}: ${res.stderr.slice(0, 400)}`);
        if (res.code === 1 && args[0] !== 'validate' && res.stdout !== '') failures.push(`case ${i} (${file}) ${args[0]}: partial output on failure`);
        if (res.code === 1 && !/: (error): /.test(res.stdout + res.stderr)) failures.push(`case ${i} (${file}) ${args[0]}: exit 1 without an error line`);
        if (Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')) {
          failures.push(`case ${i} (${file}) ${args.join(' ')}: Object.prototype polluted`);
          delete (Object.prototype as Record<string, unknown>).polluted;
        }
      }
    }
    expect(failures).toEqual([]);
    // The alias mutations did reach the alias checks (not only the parser's syntax errors).
    expect(aliasCases).toBeGreaterThan(0);
  }, 300_000);
});
