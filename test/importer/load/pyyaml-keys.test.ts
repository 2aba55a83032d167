/**
 * Keys and anchors as PyYAML reads them: what it refuses is an error here, what it folds into one
 * key is reported, and integers beyond 2^53 keep every digit. Each verdict is checked against
 * PyYAML itself where python3 has it.
 */
import { spawnSync } from 'child_process';
import { goFloat32Key } from '../../../src/model/go-float32-key';
import { canonical, havePyYaml, parseText, pyyamlLoadAll } from './helpers';

const HELP_ONE_KEY = (k: string) =>
  `Armada keeps both and writes both into the values it gives Helm, which makes every key a string (sigs.k8s.io/yaml) and so sees one key "${k}" with one of the two values, which one not defined (Go's map order, which can change from one run to the next); this loader would keep only the last; keep one of the two keys`;

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
  ['"1": a\n1: b\n', 'loads', [`test.yaml:2:1: the keys "1" (line 1, column 1) and 1 are two keys to PyYAML (the str '1' and the int 1): ${HELP_ONE_KEY('1')}`]],
  ['a: 1&b=2\nc: 3&b=2\n', 'loads', []],
  // PyYAML loads a null key; Helm, which Armada gives the values to, cannot read one.
  ['schema: armada/Chart/v1\ndata:\n  values:\n    ~: a\n    b: {null: c}\n', 'loads', [
    `test.yaml:4:5: PyYAML reads the key ~ as None: Armada writes it into the values it gives Helm as a null key, which Helm cannot read (sigs.k8s.io/yaml: "unsupported map key of type"), so the release fails; quote the key ('~') or remove it`,
    `test.yaml:5:9: PyYAML reads the key null as None: Armada writes it into the values it gives Helm as a null key, which Helm cannot read (sigs.k8s.io/yaml: "unsupported map key of type"), so the release fails; quote the key ('null') or remove it`,
  ]],
  ['schema: armada/Chart/v1\ndata:\n  values:\n    "~": a\n  other: {~: x}\n', 'loads', []],
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

// Keys the loader names by one string although PyYAML makes two dict keys of them (a str and
// something else): [text, the error here].
const TWO_KEYS: [string, string][] = [
  ['1: a\n"1": b\n', `test.yaml:2:1: the keys 1 (line 1, column 1) and "1" are two keys to PyYAML (the int 1 and the str '1'): ${HELP_ONE_KEY('1')}`],
  ["v: {true: a, 'true': b}\n", `test.yaml:1:14: the keys true (line 1, column 5) and 'true' are two keys to PyYAML (the bool True and the str 'true'): ${HELP_ONE_KEY('true')}`],
  ['0x10: a\n"16": b\n', `test.yaml:2:1: the keys 0x10 (line 1, column 1) and "16" are two keys to PyYAML (the int 16 and the str '16'): ${HELP_ONE_KEY('16')}`],
  ['"2001-01-01": a\n2001-01-01: b\n', `test.yaml:2:1: the keys "2001-01-01" (line 1, column 1) and 2001-01-01 are two keys to PyYAML (the str '2001-01-01' and the datetime.date 2001-01-01): ${HELP_ONE_KEY('2001-01-01')}`],
  ['1.5: a\n"1.5": b\n', `test.yaml:2:1: the keys 1.5 (line 1, column 1) and "1.5" are two keys to PyYAML (the float 1.5 and the str '1.5'): ${HELP_ONE_KEY('1.5')}`],
  [
    '1.0: a\n"1.0": b\n',
    `test.yaml:2:1: the keys 1.0 (line 1, column 1) and "1.0" are two keys to PyYAML (the float 1.0 and the str '1.0'): Armada keeps both and writes both into the values it gives Helm, which makes every key a string (sigs.k8s.io/yaml writes a float key as a 32-bit float with Go's %g) and so sees two keys, "1" and "1.0"; this loader would keep only the last; keep one of the two keys`,
  ],
  [
    '~: a\n"null": b\n',
    `test.yaml:2:1: the keys ~ (line 1, column 1) and "null" are two keys to PyYAML (None and the str 'null'): Armada keeps both and writes both into the values it gives Helm, which cannot read a null key (sigs.k8s.io/yaml: "unsupported map key of type") and fails the release; this loader would keep only the last; keep one of the two keys`,
  ],
  ['{!!str 1: a, 1: b}\n', `test.yaml:1:14: the keys !!str 1 (line 1, column 8) and 1 are two keys to PyYAML (the str '1' and the int 1): ${HELP_ONE_KEY('1')}`],
];

describe('keys that are one string here and two keys to PyYAML', () => {
  test.each(TWO_KEYS)('%j', (text, expected) => {
    const r = parseText(text);
    expect(r.diagnostics.map((d) => [d.severity, d.code, `${d.location}: ${d.message}`])).toEqual([['error', 'duplicate-key', expected]]);
  });

  test('a key written twice as the same Python key is still a warning: PyYAML keeps the last', () => {
    expect(parseText('0x10: a\n16: b\n"x": 1\nx: 2\n').diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['warning', "duplicate key '16': this value replaces the one at line 1 (PyYAML keeps the last)"],
      ['warning', "duplicate key 'x': this value replaces the one at line 3 (PyYAML keeps the last)"],
    ]);
  });

  test('a document too large for the AST is read the same way, line by line', () => {
    const text = `values:\n  1: a\n  "1": b\n  big: ${'x'.repeat(1024 * 1024)}\n`;
    expect(parseText(text).diagnostics.map((d) => `${d.location}: ${d.message}`)).toEqual([
      `test.yaml:3:3: the keys 1 (line 2, column 3) and "1" are two keys to PyYAML (the int 1 and the str '1'): ${HELP_ONE_KEY('1')}`,
    ]);
  });

  test.each([
    [1, '1'],
    [1.5, '1.5'],
    [0.1, '0.1'],
    [3.141592653589793, '3.1415927'],
    [123456, '123456'],
    [1234567, '1.234567e+06'],
    [1e20, '1e+20'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5, '-2.5'],
    [Infinity, '.inf'],
    [NaN, '.nan'],
  ])("Helm's name for the float key %p is %p (Go's FormatFloat(x, 'g', -1, 32))", (x, expected) => {
    expect(goFloat32Key(x)).toBe(expected);
  });

  const run = havePyYaml() ? test : test.skip;
  run('PyYAML keeps both keys of each, and safe_dump writes both for Helm', () => {
    const script = 'import sys, json, yaml\nfor t in json.load(sys.stdin):\n    d = yaml.safe_load(t)\n    d = d.get("v", d)\n    print(len(d), len(yaml.safe_load(yaml.safe_dump(d))))\n';
    const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(TWO_KEYS.map(([t]) => t)), encoding: 'utf8' });
    expect(r.stdout.trim().split('\n')).toEqual(TWO_KEYS.map(() => '2 2'));
  });
});
