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
