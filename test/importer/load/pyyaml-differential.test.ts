/**
 * Differential test of the loader against PyYAML, which Armada reads every manifest with:
 * thousands of generated documents (seeded: a failure names the seed that replays it), each read
 * by both, alone and as the values of an Armada chart (so that both the block-style fast path and
 * the full parser are exercised). Both must accept or refuse alike, and what both accept must
 * hold the same values with the same Python types.
 */
import { rng } from '../../helpers/random';
import { havePyYaml } from './helpers';
import { disagreement } from './pyyaml-differential';
import { pyyamlTypedLoadAll } from './pyyaml-typed';
import { asChartValues, YamlGenerator } from './yaml-generator';

const STREAMS = 2000;
const FIRST_SEED = 1000;

/** The texts of one seed: a stream, and a document as a chart's values. */
function textsOf(seed: number): string[] {
  return [new YamlGenerator(rng(seed)).stream(), asChartValues(new YamlGenerator(rng(seed + 500_000)).document())];
}

/**
 * YAML 1.1's line breaks (NEL, U+2028, U+2029), tabs and merge keys, put into a generated text:
 * where PyYAML and js-yaml part ways (issue 39). Each insertion lands at a random offset, so it
 * falls in comments, scalars, keys, indentation and flow collections alike.
 */
const LINE_BREAKS = ['\x85', '\u2028', '\u2029'];
const TABS = ['\t', ' \t', '\t ', ':\t', '\t# c'];
const MERGES = ['\n<<: {m: 1}\n', '\nmerged: {<<: {__proto__: {image: evil}}, k: v}\n', '\nbase: &base {a: 1, b: 2}\nuse:\n  <<: *base\n  b: 3\n', '\n<<: [{x: 1}, {x: 2}]\n', '\nm:\n  <<: {__proto__: {v: 1}}\n'];
function withYaml11Breaks(text: string, random: () => number): string {
  let t = text;
  for (let i = 0, n = 1 + Math.floor(random() * 3); i < n; i++) {
    const kind = random();
    const list = kind < 0.4 ? LINE_BREAKS : kind < 0.75 ? TABS : MERGES;
    const insert = list[Math.floor(random() * list.length)];
    // A merge goes at the end of a line, the others anywhere.
    let at = Math.floor(random() * (t.length + 1));
    if (list === MERGES) at = Math.max(0, t.indexOf('\n', at) < 0 ? t.length : t.indexOf('\n', at));
    t = t.slice(0, at) + insert + t.slice(at);
  }
  return t;
}

describe('the loader against PyYAML on generated documents with YAML 1.1 line breaks, tabs and merge keys', () => {
  const run = havePyYaml(1) ? it : it.skip;
  const COUNT = 1500;
  run(`reads ${COUNT * 2} generated texts as PyYAML does, or refuses them`, () => {
    const seeds = Array.from({ length: COUNT }, (_, i) => 900_000 + i);
    const texts = seeds.flatMap((seed) => {
      const r = rng(seed);
      return [withYaml11Breaks(new YamlGenerator(r).stream(), r), asChartValues(withYaml11Breaks(new YamlGenerator(r).document(), r))];
    });
    const expected = pyyamlTypedLoadAll(texts);
    const failures: string[] = [];
    // A line break put anywhere makes shapes js-yaml refuses where PyYAML is lenient (a flow
    // collection continued at column 0, properties on a key of a following line): refused with
    // file:line:column, never read differently, so a refusal passes here; a silent difference does not.
    let refused = 0;
    texts.forEach((text, i) => {
      const d = disagreement(text, expected[i]);
      if (d && / the loader (reports a syntax error|refuses it): test\.yaml:\d+:\d+ /.test(d)) refused++;
      else if (d) failures.push(`seed ${seeds[Math.floor(i / 2)]} (${i % 2 === 0 ? 'stream' : 'chart values'}): ${JSON.stringify(text)}\n  ${d}`);
    });
    expect(failures.slice(0, 5)).toEqual([]);
    expect(refused).toBeLessThan(texts.length * 0.05);
    // Both sides had work to do: some texts are read, some refused, and every kind was inserted.
    const read = expected.filter((r) => 'docs' in r).length;
    expect(read).toBeGreaterThan(texts.length * 0.08);
    expect(read).toBeLessThan(texts.length * 0.9);
    for (const c of [...LINE_BREAKS, '\t', '<<']) expect(texts.some((t) => t.includes(c))).toBe(true);
  });
});

describe('the loader against PyYAML on generated documents', () => {
  const run = havePyYaml(1) ? it : it.skip;
  run(`reads ${STREAMS * 2} generated texts as PyYAML does`, () => {
    const seeds = Array.from({ length: STREAMS }, (_, i) => FIRST_SEED + i);
    const texts = seeds.flatMap(textsOf);
    const expected = pyyamlTypedLoadAll(texts);
    const failures: string[] = [];
    texts.forEach((text, i) => {
      const d = disagreement(text, expected[i]);
      if (d) failures.push(`seed ${seeds[Math.floor(i / 2)]} (${i % 2 === 0 ? 'stream' : 'chart values'}): ${JSON.stringify(text)}\n  ${d}`);
    });
    expect(failures.slice(0, 5)).toEqual([]);
    // Both sides must have had work to do: most texts are read, some are refused.
    const read = expected.filter((r) => 'docs' in r).length;
    expect(read).toBeGreaterThan(texts.length * 0.4);
    expect(read).toBeLessThan(texts.length * 0.9);
  });
});
