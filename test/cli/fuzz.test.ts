import { cli } from '../helpers/cli';
import { corpusFiles, readShared } from '../helpers/shared';

/** Deterministic pseudo-random numbers: a failing case reproduces from its seed. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

const TOKENS = [': ', '- ', '{', '}', '[', ']', '&a ', '*a', '!!binary ', '!!python/object ', '<<: *a\n', '\t', '---\n', '...\n', '"', "'", '#', '|', '>', '%YAML 1.1\n', '? ', ',', '\u0000', '\ufeff', '~', 'yes', '0755', '1e3', '=', 'null', '\n  ', '\n      - ', 'chart_group: x\n', 'min_ready: "150%"\n'];

function mutate(text: string, r: () => number): string {
  let t = text;
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * (t.length + 1));
    const op = Math.floor(r() * 7);
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
    else t = t.replace(/sequenced: \w+/, 'sequenced: maybe').replace(/timeout: \d+/, 'timeout: -1');
  }
  return t;
}

describe('fuzz: mutated corpus files only ever get diagnostics', () => {
  const files = corpusFiles().map((f) => f.file);
  const CASES = Number(process.env.FUZZ_CASES ?? 240);
  test(`${CASES} mutations x (validate, plan, convert)`, async () => {
    const r = rng(Number(process.env.FUZZ_SEED ?? 20261202));
    const failures: string[] = [];
    for (let i = 0; i < CASES; i++) {
      const file = files[i % files.length];
      const text = mutate(readShared('corpus', file), r);
      for (const args of [['validate', '-'], ['plan', '-', '--format', 'json'], ['convert', '-', '--to', i % 2 ? 'airship-v1' : 'documents-v2']]) {
        let res;
        try {
          res = await cli(args, { stdin: text });
        } catch (e) {
          failures.push(`case ${i} (${file}) ${args[0]}: threw ${(e as Error).stack}`);
          continue;
        }
        if (res.code !== 0 && res.code !== 1) failures.push(`case ${i} (${file}) ${args[0]}: exit ${res.code}: ${res.stderr.slice(0, 400)}`);
        if (/internal error/.test(res.stderr)) failures.push(`case ${i} (${file}) ${args[0]}: ${res.stderr.slice(0, 400)}`);
        if (res.code === 1 && args[0] !== 'validate' && res.stdout !== '') failures.push(`case ${i} (${file}) ${args[0]}: partial output on failure`);
        if (res.code === 1 && !/: (error): /.test(res.stdout + res.stderr)) failures.push(`case ${i} (${file}) ${args[0]}: exit 1 without an error line`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});
