import { PyTimestamp } from '../../../src/importer/load';
import { documentInternals } from '../../../src/importer/load/document';
import { pathKey } from '../../../src/importer/load/wire-path';
import { canonical, havePyYaml, parseText, pyyamlLoadAll } from './helpers';

/** Loads `v: <text>` and returns the value of `v`, whether it was a float, and the diagnostics. */
function scalar(text: string) {
  const r = parseText(`v: ${text}\n`);
  const doc = r.documents[0];
  const value = doc ? (doc.raw as Record<string, unknown>).v : undefined;
  const float = doc ? documentInternals(doc).specials.get(pathKey(['v']))?.kind === 'float' : false;
  return { value, float, diagnostics: r.diagnostics, doc };
}

// Expected values checked against PyYAML 6 (SafeLoader); the table itself needs no Python.
const TABLE: [string, unknown][] = [
  // booleans: PyYAML's six words in three casings each, and nothing else
  ['yes', true], ['Yes', true], ['YES', true], ['no', false], ['No', false], ['NO', false],
  ['true', true], ['True', true], ['TRUE', true], ['false', false], ['False', false], ['FALSE', false],
  ['on', true], ['On', true], ['ON', true], ['off', false], ['Off', false], ['OFF', false],
  ['yEs', 'yEs'], ['tRUE', 'tRUE'], ['oN', 'oN'], ['y', 'y'], ['Y', 'Y'], ['n', 'n'], ['N', 'N'],
  // null
  ['~', null], ['null', null], ['Null', null], ['NULL', null], ['', null], ['nULL', 'nULL'],
  // ints: YAML 1.1 octal, hex, binary, underscores, base 60
  ['0755', 493], ['0o17', '0o17'], ['0x1F', 31], ['0x_1f', 31], ['0b101', 5], ['0b1_01', 5],
  ['1_000', 1000], ['-1_000', -1000], ['+12', 12], ['1:20', 80], ['-1:20', -80], ['1:20:30', 4830],
  ['190:20:30', 685230], ['12:30', 750], ['1:60', '1:60'], ['09', '09'], ['012345678', '012345678'],
  ['0', 0], ['-0', 0], ['+0', 0], ['00', 0], ['0_7', 7], ['1__0', 10], ['0x', '0x'], ['+', '+'],
  // floats need a dot (or .inf/.nan); an exponent needs a sign
  ['1e3', '1e3'], ['1E3', '1E3'], ['1.0e3', '1.0e3'], ['-.5', '-.5'], ['inf', 'inf'], ['nan', 'nan'],
  ['-.nan', '-.nan'], ['1.0.0', '1.0.0'], ['3.14.15', '3.14.15'], ['v1.2', 'v1.2'],
  ['.5', 0.5], ['+1.5', 1.5], ['1.5e-3', 0.0015], ['1_000.5', 1000.5], ['1:20.5', 80.5], ['08.5', 8.5],
  // other plain scalars stay strings
  ['<<x', '<<x'], ['a=b', 'a=b'], ['--', '--'], ['foo bar', 'foo bar'], ['2002-1-1', '2002-1-1'], ['2001-12-14X', '2001-12-14X'],
  // quoting and explicit tags
  ["'yes'", 'yes'], ['"0755"', '0755'], ["'='", '='], ['!!str 0755', '0755'], ['!!int "0x10"', 16], ['!!float 1', 1],
];

describe('PyYAML SafeLoader scalar semantics', () => {
  it.each(TABLE)('%j loads as %j', (text, expected) => {
    const { value, diagnostics } = scalar(text);
    expect(diagnostics).toEqual([]);
    expect(value).toEqual(expected);
  });

  it.each([
    ['1.0', 1],
    ['1.', 1],
    ['1.0e+3', 1000],
    ['!!float 1', 1],
  ])('%j is the float %d, which the loader remembers (600.0 is not an integer to Armada)', (text, n) => {
    const { value, float } = scalar(text);
    expect(value).toBe(n);
    expect(float).toBe(true);
  });

  it('keeps integers and non-integral floats as plain numbers without notes', () => {
    expect(scalar('600').float).toBe(false);
    expect(scalar('0.25')).toMatchObject({ value: 0.25, float: false });
  });

  it.each([
    ['.inf', Infinity],
    ['+.inf', Infinity],
    ['-.inf', -Infinity],
    ['.Inf', Infinity],
    ['.INF', Infinity],
  ])('%j is %d', (text, n) => {
    expect(scalar(text).value).toBe(n);
  });

  it.each(['.nan', '.NaN', '.NAN'])('%j is NaN', (text) => {
    expect(scalar(text).value).toBeNaN();
  });

  it.each([
    ['2001-12-14', 'datetime.date(2001, 12, 14)', '2001-12-14'],
    [
      '2001-12-14t21:59:43.10-05:00',
      'datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))',
      '2001-12-14 21:59:43.100000-05:00',
    ],
    [
      '2001-12-14 21:59:43.10 -5',
      'datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))',
      '2001-12-14 21:59:43.100000-05:00',
    ],
    ['2001-12-15T02:59:43.1Z', 'datetime.datetime(2001, 12, 15, 2, 59, 43, 100000, tzinfo=datetime.timezone.utc)', '2001-12-15 02:59:43.100000+00:00'],
    ['2001-12-14 21:59:43', 'datetime.datetime(2001, 12, 14, 21, 59, 43)', '2001-12-14 21:59:43'],
    ['2002-1-1 1:02:03', 'datetime.datetime(2002, 1, 1, 1, 2, 3)', '2002-01-01 01:02:03'],
    ['2002-01-01T00:00:00+00:00', 'datetime.datetime(2002, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)', '2002-01-01 00:00:00+00:00'],
  ])('%j is a timestamp: %s', (text, repr, str) => {
    const { value } = scalar(text);
    expect(value).toBeInstanceOf(PyTimestamp);
    expect((value as PyTimestamp).pyRepr()).toBe(repr);
    expect(String(value)).toBe(str);
    expect(JSON.stringify(value)).toBe(JSON.stringify(str));
  });

  it('gives timestamps the instant they denote', () => {
    expect((scalar('2001-12-14t21:59:43.10-05:00').value as PyTimestamp).toDate().toISOString()).toBe('2001-12-15T02:59:43.100Z');
    expect((scalar('2001-12-14').value as PyTimestamp).kind).toBe('date');
  });

  it('reports a plain = as PyYAML does (ConstructorError), at its position', () => {
    const { diagnostics, value } = scalar('=');
    expect(diagnostics).toEqual([
      {
        severity: 'error',
        location: 'test.yaml:1:1',
        field: 'v',
        code: 'yaml-construct',
        message: `could not determine a constructor for the tag 'tag:yaml.org,2002:value' (a plain '=' is YAML 1.1's "value" key; quote it: '=')`,
      },
    ]);
    expect(value).toBe('=');
  });

  it('accepts = as a key (PyYAML turns the key into a string)', () => {
    const r = parseText('{=: 1}\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.documents[0].raw).toEqual({ '=': 1 });
  });

  it.each([
    ['!!int 1e3', "invalid literal for int() with base 10: '1e3'"],
    ['2001-02-30', "cannot construct a timestamp from '2001-02-30': day is out of range for month"],
    ['2001-13-01', "cannot construct a timestamp from '2001-13-01': month must be in 1..12"],
    ['!!bool y', "cannot construct a boolean from 'y'"],
    ['!foo x', "could not determine a constructor for the tag '!foo'"],
    ['!!python/object:os.system x', "could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system'"],
  ])('%j fails to construct as in PyYAML: %s', (text, message) => {
    const { diagnostics } = scalar(text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'yaml-construct', message });
    expect(diagnostics[0].location).toMatch(/^test\.yaml:1:\d+$/);
  });

  it('loads !!binary as bytes', () => {
    expect(Buffer.from(scalar('!!binary aGVsbG8=').value as Uint8Array).toString()).toBe('hello');
  });

  it('applies merge keys and aliases like PyYAML (explicit keys win; in a list the first mapping wins)', () => {
    const r = parseText('a: &a {x: 1, y: 2}\nb: &b {x: 3, z: 4}\nc:\n  <<: [*a, *b]\n  w: 5\ne:\n  x: 9\n  <<: *a\nf: *a\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.documents[0].raw).toEqual({ a: { x: 1, y: 2 }, b: { x: 3, z: 4 }, c: { x: 1, y: 2, z: 4, w: 5 }, e: { x: 9, y: 2 }, f: { x: 1, y: 2 } });
  });

  it('refuses two << in one mapping when they disagree (PyYAML lets the last win, js-yaml the first)', () => {
    const r = parseText('a: &a {x: 1, y: 2}\nb: &b {x: 3, z: 4}\nd:\n  <<: *a\n  <<: *b\n');
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', location: 'test.yaml:5:3', code: 'duplicate-key', message: expect.stringContaining("supply 'x'") }),
    ]);
    expect(parseText('a: &a {x: 1}\nb: &b {z: 4}\nd:\n  <<: *a\n  <<: *b\n').diagnostics).toEqual([]);
  });

  it('keeps the last of duplicate keys and warns at the repeated key', () => {
    const r = parseText('---\nschema: armada/Chart/v1\nmetadata:\n  name: x\ndata:\n  release: a\n  namespace: b\n  release: c\n');
    expect((r.documents[0].raw as { data: unknown }).data).toEqual({ release: 'c', namespace: 'b' });
    expect(r.diagnostics).toEqual([
      {
        severity: 'warning',
        location: 'test.yaml:8:3',
        document: 'armada/Chart/v1 x',
        field: 'data.release',
        code: 'duplicate-key',
        message: "duplicate key 'release': this value replaces the one at line 6 (PyYAML keeps the last)",
      },
    ]);
  });

  it('treats keys the PyYAML way when finding duplicates (yes and true are the same key)', () => {
    const r = parseText('yes: 1\ntrue: 2\n');
    expect(r.documents[0].raw).toEqual({ true: 2 });
    expect(r.diagnostics.map((d) => [d.location, d.message])).toEqual([['test.yaml:2:1', "duplicate key 'true': this value replaces the one at line 1 (PyYAML keeps the last)"]]);
  });

  it.each([
    ['image: {{ .Values.image }}\n', 'test.yaml:1:9', "found unhashable key: is this an unrendered template? Quote '{{ ... }}' or render it first"],
    ['? [a, b]\n: 1\n', 'test.yaml:1:3', 'found unhashable key: a mapping or a sequence cannot be a key'],
    ['- {a: 1}: 2\n', 'test.yaml:1:3', 'found unhashable key: a mapping or a sequence cannot be a key'],
  ])('refuses a mapping or sequence as a key, as PyYAML does: %j', (text, location, message) => {
    expect(parseText(text).diagnostics).toEqual([{ severity: 'error', location, code: 'yaml-construct', message }]);
  });

  it('does not mistake nested flow sequences or quoted braces for keys', () => {
    expect(parseText('a: [[1, 2], [3]]\nv: "{{ ok }}"\n').diagnostics).toEqual([]);
  });

  it('resolves keys with the same rules as values', () => {
    expect(parseText('0755: a\n1.0: b\n~: c\non: d\n').documents[0].raw).toEqual({ '493': 'a', '1.0': 'b', null: 'c', true: 'd' });
  });

  describe('cross-checked against PyYAML safe_load_all', () => {
    const texts = [
      ...TABLE.map(([t]) => `v: ${t}\n`),
      'v: [1.0, 1., 1.0e+3, .inf, -.inf, 2001-12-14, 2001-12-14t21:59:43.10-05:00, 2002-01-01T00:00:00+00:00]\n',
      'a: &a {x: 1, y: 2}\nb: &b {x: 3, z: 4}\nc:\n  <<: [*a, *b]\n  w: 5\ne:\n  x: 9\n  <<: *a\n',
      'a: 1\na: 2\n---\n- x\n- y\n---\nplain\n---\n',
      '0755: a\n2.5: b\n~: c\non: d\n',
    ];
    const run = havePyYaml(1) ? it : it.skip;
    run('gives the same values, float-ness and dates for every table entry and a few streams', () => {
      const expected = pyyamlLoadAll(texts);
      texts.forEach((text, i) => {
        const r = parseText(text);
        const want = expected[i];
        if ('error' in want) throw new Error(`PyYAML failed on ${JSON.stringify(text)}: ${want.error}`);
        expect({ text, docs: r.documents.map(canonical) }).toEqual({ text, docs: want.docs });
      });
    });
  });
});
