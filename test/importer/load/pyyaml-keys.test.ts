/**
 * Keys and anchors as PyYAML reads them: what it refuses is an error here, what it folds into one
 * key is reported, and integers beyond 2^53 keep every digit. Each verdict is checked against
 * PyYAML itself where python3 has it.
 */
import { canonical, havePyYaml, parseText, pyyamlLoadAll } from './helpers';

const errors = (text: string) => parseText(text).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.location}: ${d.message}`);

// [text, what PyYAML does (an exception name, or "loads"), the errors here]
const CASES: [string, string, string[]][] = [
  ['a: &x 1\nb: &x 2\n', 'ComposerError', ["test.yaml:2:4: found duplicate anchor 'x'; first occurrence at line 1, column 4: PyYAML refuses an anchor defined twice in one document; give the second another name"]],
  ['a: &x 1\n---\nb: &x 2\n', 'loads', []],
  ['a: &m {k: 1}\n*m : 2\n', 'ConstructorError', ['test.yaml:2:1: found unhashable key: a mapping or a sequence cannot be a key']],
  ['a: &s [1]\nb: {*s : 2}\n', 'ConstructorError', ['test.yaml:2:5: found unhashable key: a mapping or a sequence cannot be a key']],
  ['a: &v 1\n*v : 2\n', 'loads', []],
  ['1: a\n1.0: b\n', 'loads', ['test.yaml:2:1: the keys 1 and 1.0 are one key in Python (equal values hash alike), so PyYAML keeps only the key 1 with the last value; quote them to keep them apart as strings, or remove one']],
  ['0x1: a\ntrue: b\n', 'loads', ['test.yaml:2:1: the keys 0x1 and true are one key in Python (equal values hash alike), so PyYAML keeps only the key 0x1 with the last value; quote them to keep them apart as strings, or remove one']],
  ['"1": a\n1: b\n', 'loads', []],
  ['a: 1&b=2\nc: 3&b=2\n', 'loads', []],
];

describe('PyYAML keys and anchors', () => {
  test.each(CASES)('%j', (text, _pyyaml, expected) => {
    expect(errors(text)).toEqual(expected);
  });

  test('integers beyond 2^53 keep every digit, in every YAML 1.1 base', () => {
    const r = parseText('a: 9007199254740993\nb: -0x20000000000001\nc: 0400000000000000001\nd: 0b100000000000000000000000000000000000000000000000000001\ne: 190:20:30:10:20:30:40:50:10\nf: 9007199254740991\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.documents[0].raw).toEqual({
      a: 9007199254740993n,
      b: -9007199254740993n,
      c: 9007199254740993n,
      d: 9007199254740993n,
      e: [190n, 20n, 30n, 10n, 20n, 30n, 40n, 50n, 10n].reduce((acc, x) => acc * 60n + x, 0n),
      f: 9007199254740991,
    });
  });

  const run = havePyYaml() ? test : test.skip;
  run('PyYAML agrees: what it refuses is an error here, what it loads is not refused', () => {
    const py = pyyamlLoadAll(CASES.map(([t]) => t));
    CASES.forEach(([text, verdict], i) => {
      const got = py[i];
      expect([text, 'error' in got ? got.error.split(':')[0] : 'loads']).toEqual([text, verdict]);
    });
  });

  run('PyYAML agrees on the digits of big integers', () => {
    const text = 'a: 9007199254740993\nb: -0x20000000000001\nc: 0400000000000000001\ne: 190:20:30:10:20:30:40:50:10\n';
    const [py] = pyyamlLoadAll([text]);
    expect('docs' in py ? py.docs : py).toEqual([canonical(parseText(text).documents[0])]);
  });
});
