/**
 * The differences the differential test against PyYAML found (pyyaml-differential.test.ts), kept
 * as a table so that they stay fixed whatever the generator makes. Expected values are PyYAML 6's
 * (SafeLoader), in the typed form of pyyaml-typed.ts; the table needs no Python, and is
 * cross-checked against it where python3 is there.
 */
import { canonical, havePyYaml, parseText } from './helpers';
import { pyyamlTypedLoadAll } from './pyyaml-typed';

/** Documents PyYAML reads, and what it reads. */
const READ: [string, unknown[]][] = [
  // properties on implicit block keys: js-yaml refused these ("bad indentation", "duplication of an anchor")
  ['&a key: v\n', [{ key: 'v' }]],
  ['!!str 1: x\n', [{ '1': 'x' }]],
  ['!!null : x\n', [{ null: 'x' }]],
  ['&a a: 1\n&b b: 2\nc: *a\n', [{ a: 1, b: 2, c: 'a' }]],
  ['a:\n  &b k: v\nc: *b\n', [{ a: { k: 'v' }, c: 'k' }]],
  ['a:\n  !!int "1": v\n  !!str 2: w\n', [{ a: { '1': 'v', '2': 'w' } }]],
  ['- &a k: v\n  x: *a\n', [[{ k: 'v', x: 'k' }]]],
  ['&m\n&k k: v\n', [{ k: 'v' }]],
  ['a: &x\n  &b k: v\nb: *x\n', [{ a: { k: 'v' }, b: { k: 'v' } }]],
  ['&a !!str 1.0: !!float 1\nb: *a\n', [{ '1.0': { $float: '1.0' }, b: '1.0' }]],
  ['&a on: 1\n', [{ true: 1 }]],
  // the non-specific tag '!': PyYAML resolves the node as if it were plain, whatever its style
  ['x: ! "0x10"\ny: ! ~\nz: &q ! 1\nw: *q\n', [{ x: 16, y: null, z: 1, w: 1 }]],
  ["a: ! 'yes'\n", [{ a: true }]],
  // !!binary is Python's base64.decodebytes: characters outside the alphabet are skipped
  ['a: !!binary ~\n', [{ a: { $bytes: "b''" } }]],
  ['a: !!binary\n', [{ a: { $bytes: "b''" } }]],
  ['a: !!binary 0x10\n', [{ a: { $bytes: "b'\\xd3\\x1dt'" } }]],
  ['a: !!binary aGVsbG8=garbage\n', [{ a: { $bytes: "b'hello'" } }]],
  // js-yaml read on after an empty item, and made x an item of the inner sequence
  ['- &a\n  -\n- x\n', [[[null], 'x']]],
  ['b:\n- # note\n  -\n- {}\n', [{ b: [[null], {}] }]],
];

/** Documents PyYAML reads where the loader refuses on purpose, or PyYAML refuses: the loader's error and its position. */
const REFUSED: [string, string, RegExp][] = [
  // PyYAML refuses these too
  ['<<: 2001-12-14\n', 'test.yaml:1:5', /^expected a mapping or list of mappings for merging, but found scalar/],
  ['a: &a [2001-12-14]\nb:\n  <<: *a\n', 'test.yaml:1:8', /^expected a mapping or list of mappings for merging, but found scalar/],
  ['a: &a {x: 1}\nb:\n  <<: [*a, 1.5]\n', 'test.yaml:3:16', /^cannot merge mappings/],
  ['!!bool "2": x\n', 'test.yaml:1:8', /^cannot construct a boolean from '2'/],
  ['!!int x: 1\n', 'test.yaml:1:7', /^invalid literal for int\(\) with base 10: 'x'/],
  ['a: 2001-02-30\na: 1\n', 'test.yaml:1:4', /^cannot construct a timestamp from '2001-02-30': day is out of range for month/],
  ['a: !!binary YQ\n', 'test.yaml:1:1', /^failed to decode base64 data: Incorrect padding/],
  ['a: !!binary Y\n', 'test.yaml:1:1', /^failed to decode base64 data: Invalid base64-encoded string/],
  ['--- &a k: v\n', 'test.yaml:1:9', /./],
  // PyYAML reads these, into values this loader cannot carry faithfully, or that are one Python key
  ['a: !!set {x, y}\n', 'test.yaml:1:1', /^'!!set': PyYAML builds a Python set here/],
  ['a: !!omap [x: 1]\n', 'test.yaml:1:1', /^'!!omap': PyYAML builds a list of tuples here/],
  ['a: !!pairs [x: 1, x: 2]\n', 'test.yaml:1:1', /^'!!pairs': PyYAML builds a list of tuples here/],
  ['? !!binary aGVsbG8=\n: x\n', 'test.yaml:1:12', /^a !!binary key: PyYAML reads it as a bytes key/],
  ['!!float 1: x\n1: y\n', 'test.yaml:2:1', /are one key in Python/],
  ['a: &a {1.0: x}\nb:\n  <<: *a\n  1: y\n', 'test.yaml:4:3', /are one key in Python/],
  ['a: &a {0x1: [08.5]}\nb:\n  1.0: x\n  <<: *a\n', 'test.yaml:3:3', /are one key in Python/],
  // two keys to PyYAML in a mapping written as a merge's value: both reach the merging mapping
  ['a:\n  <<: {"1": 0_7, 0x1: []}\n', 'test.yaml:2:18', /^the keys "1" \(line 2, column 8\) and 0x1 are two keys to PyYAML/],
  ['a:\n  <<: [{x: 1}, {"1": 2, 1: 3}]\n', 'test.yaml:2:25', /^the keys "1" \(line 2, column 17\) and 1 are two keys to PyYAML/],
];

describe('the differences found against PyYAML, fixed', () => {
  it.each(READ)('reads %j as PyYAML does', (text, expected) => {
    const r = parseText(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.documents.map(canonical)).toEqual(expected);
  });

  it.each(REFUSED)('refuses %j at %s', (text, location, message) => {
    const errors = parseText(text).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0].location).toBe(location);
    expect(errors[0].message).toMatch(message);
  });

  it('a refused key after 50,000 others in one mapping: found, at its place', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}\n`).join('');
    const errors = parseText(`${keys}!!int x: 1\n`).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.location, d.message])).toEqual([['test.yaml:50001:7', "invalid literal for int() with base 10: 'x'"]]);
  });

  it('places later findings in a document with properties on keys where they are written', () => {
    expect(parseText('&a key: v\nkey: w\n').diagnostics.map((d) => [d.location, d.severity, d.code])).toEqual([['test.yaml:2:1', 'warning', 'duplicate-key']]);
    expect(parseText('&a k: v\nd: 2001-02-30\n').diagnostics.map((d) => [d.location, d.field, d.code])).toEqual([['test.yaml:2:1', 'd', 'yaml-construct']]);
    const chart = 'schema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: c\ndata:\n  values:\n    &a x: 1\n    ~: 2\n';
    expect(parseText(chart).diagnostics.map((d) => [d.location, d.document, d.field])).toEqual([['test.yaml:8:5', 'armada/Chart/v1 c', 'data.values["~"]']]);
  });

  describe('cross-checked against PyYAML safe_load_all', () => {
    const run = havePyYaml(1) ? it : it.skip;
    run('gives the values of the table, and refuses where the table says PyYAML does', () => {
      const texts = [...READ.map(([t]) => t), ...REFUSED.map(([t]) => t)];
      const py = pyyamlTypedLoadAll(texts);
      READ.forEach(([text, expected], i) => expect({ text, py: py[i] }).toEqual({ text, py: { docs: expected } }));
      const pyRefuses = REFUSED.slice(0, 9).map((_, i) => 'error' in py[READ.length + i]);
      expect(pyRefuses).toEqual(REFUSED.slice(0, 9).map(() => true));
      const pyReads = REFUSED.slice(9).map((_, i) => 'docs' in py[READ.length + 9 + i]);
      expect(pyReads).toEqual(REFUSED.slice(9).map(() => true));
    });
  });
});
