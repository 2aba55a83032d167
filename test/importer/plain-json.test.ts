/**
 * Chart values read from YAML with no alias and no value JSON lacks are vouched for by the loader
 * and not walked again for non-JSON values; anything else still is. The findings must be the same
 * either way: every case here is checked against a run where nothing is vouched for.
 */
import * as fs from 'fs';
import * as path from 'path';
import { resolveInputs } from '../../src/importer/resolve';
import { parseYamlStream } from '../../src/importer/load/parse';
import * as values from '../../src/model/values';
import { tmpdir } from '../helpers/cli';
import { readShared } from '../helpers/shared';

const SIMPLE = readShared('corpus', 'armada__examples__simple.yaml');

async function findings(text: string) {
  const dir = tmpdir('armada-cdk-plain-json-');
  try {
    const file = path.join(dir, 'site.yaml');
    fs.writeFileSync(file, text);
    const r = await resolveInputs([file], { skipChartSchemas: true });
    return r.diagnostics.map((d) => `${d.severity} ${d.location} ${d.field ?? ''} ${d.message}`.replace(dir, 'DIR'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let vouched = 0;

/** The same run with the loader's word ignored: every values tree is walked. */
async function walkedFindings(text: string) {
  const spy = jest.spyOn(values, 'assumeJsonTree').mockImplementation(() => undefined);
  try {
    return await findings(text);
  } finally {
    vouched = spy.mock.calls.length;
    spy.mockRestore();
  }
}

const withValues = (yaml: string) => SIMPLE.replace('  values: {}', `  values:\n${yaml}`);

describe('which documents the loader vouches for', () => {
  const plain = (text: string) => parseYamlStream({ file: 'f.yaml', text }).documents.map((d) => d.plainJson);
  test('plain YAML: yes; an alias, a timestamp, a whole-number float, .inf, a big integer, binary: no', () => {
    expect(plain('a: 1\nb: [x, {c: 2.5}]\n')).toEqual([true]);
    expect(plain('a: &x {b: 1}\nc: *x\n')).toEqual([false]);
    expect(plain('a: 2020-01-01\n')).toEqual([false]);
    expect(plain('a: 1.0\n')).toEqual([false]);
    expect(plain('a: .inf\n')).toEqual([false]);
    expect(plain('a: 123456789012345678901234567890\n')).toEqual([false]);
    expect(plain('a: !!binary aGVsbG8=\n')).toEqual([false]);
  });
});

describe('findings are the same with and without the loader vouching for the values', () => {
  test.each([
    ['plain values', '    a: 1\n    b: [x, {c: 2.5}]\n'],
    ['an infinite float', '    a: .inf\n    b: -.inf\n    c: .nan\n'],
    ['a whole-number float and a timestamp', '    a: 1.0\n    b: 2020-01-01\n'],
    ['an integer past 2^53', '    a: 123456789012345678901234567890\n'],
    ['binary', '    a: !!binary aGVsbG8=\n'],
    ['shared nodes', '    a: &x {b: 1}\n    c: *x\n    d: *x\n'],
  ])('%s', async (what, yaml) => {
    const text = withValues(yaml);
    expect(await findings(text)).toEqual(await walkedFindings(text));
    // the second chart keeps its plain `values: {}`, vouched for whatever the first one holds
    expect(vouched).toBe(what === 'plain values' ? 2 : 1);
  });

  test('an infinite float in values is still reported', async () => {
    expect((await findings(withValues('    a: .inf\n'))).filter((f) => f.includes('NaN or Infinity'))).toEqual([expect.stringMatching(/^error DIR\/site\.yaml:\d+:\d+ .*values.*received Infinity; JSON has no NaN or Infinity/)]);
  });
});

describe('assumeJsonTree', () => {
  test('a vouched-for tree is not walked; a copy of it is', () => {
    const reads: string[] = [];
    // a tree no loader would build (getters), to see whether it is walked
    const tree = Object.defineProperty({}, 'a', { enumerable: true, get: () => (reads.push('a'), undefined) });
    values.assumeJsonTree(tree);
    expect(values.findValueProblems(tree)).toEqual([]);
    expect(reads).toEqual([]);
    const copy = { ...tree };
    expect(values.findValueProblems(copy).map((p) => p.path)).toEqual([['a']]);
  });
});
