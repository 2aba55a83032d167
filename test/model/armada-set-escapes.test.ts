/**
 * Issue 45, class 3: `--set` values go through Armada's JSON round trip
 * (armada/handlers/override.py, Override.array_to_dict): the path becomes a tree with None at its
 * end, json.dumps writes it, every "null" of that text is replaced by "VALUE", and json.loads
 * reads it back. So a value is the body of a JSON string: its escapes are decoded, and a bare
 * quote or a backslash that starts no escape breaks the text (or, worse, reads as other JSON).
 */
import { spawnSync } from 'child_process';
import { applySets, OverridableDocument, pyJsonString, setValue } from '../../src/importer/overrides';
import { havePythonModule } from '../helpers/python';

const chart = (): OverridableDocument[] => [{ schema: 'armada/Chart/v1', name: 'c', data: { values: { list: ['a'] } } }];

function set(expr: string): { messages: string[]; data: Record<string, unknown> } {
  const docs = chart();
  const messages = applySets(docs, [expr]).map((d) => `${d.severity}: ${d.message}`);
  return { messages, data: docs[0].data };
}

describe('--set values with JSON escapes (override.py Override.array_to_dict: json.loads of the value between quotes)', () => {
  test.each([
    ['line1\\nline2', 'line1\nline2'],
    ['C:\\\\temp', 'C:\\temp'],
    ['say \\"hi\\"', 'say "hi"'],
    ['caf\\u00e9', 'café'],
    ['\\ud83d\\ude00', '😀'],
    ['a\\/b\\tc', 'a/b\tc'],
    ['no escapes at all', 'no escapes at all'],
  ])('%j is accepted and sets %j, as json.loads decodes it', (value, expected) => {
    const r = set(`chart:c:values.x=${value}`);
    expect(r.messages).toEqual([]);
    expect((r.data.values as Record<string, unknown>).x).toBe(expected);
  });

  test('a decoded value set onto a list is comma-split after decoding (Override.update)', () => {
    expect(set('chart:c:values.list=a\\u002cb, c').data.values).toEqual({ list: ['a', 'b', 'c'] });
  });

  test.each([
    ['a\\x', '"\\\\x", which is no JSON escape: Armada reads a --set value as the body of a JSON string, and json.loads fails on it ("Invalid \\escape")'],
    ['\\u12g4', '"\\\\u12g4", which is no JSON escape: Armada reads a --set value as the body of a JSON string, and json.loads fails on it ("Invalid \\escape")'],
    ['trailing\\', '"\\\\" at its end, which is no JSON escape: Armada reads a --set value as the body of a JSON string, and json.loads fails on it ("Unterminated string")'],
  ])('%j is refused: json.loads fails on it', (value, what) => {
    const r = set(`chart:c:values.x=${value}`);
    expect(r.messages).toEqual([
      `error: ${JSON.stringify(`chart:c:values.x=${value}`)}: the value has ${what}; the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, so write \\\\ for a backslash`,
    ]);
    expect(r.data).toEqual(chart()[0].data);
  });

  test('a bare quote that leaves broken JSON: Armada fails (JSONDecodeError)', () => {
    expect(set('chart:c:values.x=say "hi"').messages).toEqual([
      'error: "chart:c:values.x=say \\"hi\\"": the value has a double quote that is not escaped: Armada writes the value between double quotes into a JSON text as it is, so the quote ends the string and json.loads fails (JSONDecodeError); write \\" for a double quote',
    ]);
  });

  test('a bare quote that reads as other JSON: Armada would set other keys; refused, saying what Armada would merge', () => {
    const r = set('chart:c:values.x=1", "release": "hijacked');
    expect(r.messages).toEqual([
      'error: "chart:c:values.x=1\\", \\"release\\": \\"hijacked": the value has a double quote that is not escaped: Armada writes the value between double quotes into a JSON text as it is, so the quote ends the string, which here reads as other JSON: Armada would merge {"values":{"x":"1","release":"hijacked"}} into the document instead of setting one string; write \\" for a double quote',
    ]);
    expect(r.data).toEqual(chart()[0].data);
  });

  test('a lone surrogate escape: refused, it cannot be written as UTF-8 and Helm would refuse it', () => {
    expect(set('chart:c:values.x=\\ud800').messages[0]).toMatch(/: the value decodes to a lone UTF-16 surrogate \(\\uD800\), which is no character: Armada's json.loads keeps it/);
  });

  test('path segments: a quote or a backslash round-trips through json.dumps as in Armada; "null" and empty segments are refused, saying why', () => {
    const r = set('chart:c:values.a"b\\c=v');
    expect(r.messages).toEqual([]);
    expect((r.data.values as Record<string, unknown>)['a"b\\c']).toBe('v');
    expect(set('chart:c:values.nullable=v').messages).toEqual([
      'error: "chart:c:values.nullable=v": the path segment "nullable" contains "null" (as Python\'s json.dumps writes it): Armada replaces every "null" of its JSON text with the value, so the text no longer reads as JSON and json.loads fails (JSONDecodeError)',
    ]);
    expect(set('chart:c:values..x=v').messages).toEqual([
      'error: "chart:c:values..x=v": the path has an empty segment ("a..b", or a "." at an end); Armada would set a key "" there, which no Armada field and hardly any chart value has, so armada-cdk takes it for a typo',
    ]);
  });

  test('pyJsonString writes strings as Python\'s json.dumps does (ensure_ascii)', () => {
    expect(pyJsonString('a"\\\n\u00e9\u007f😀')).toBe('"a\\"\\\\\\n\\u00e9\\u007f\\ud83d\\ude00"');
  });
});

const CASES = [
  'plain',
  'line1\\nline2',
  'C:\\\\temp',
  'say \\"hi\\"',
  'caf\\u00e9',
  '\\ud83d\\ude00',
  'a\\x',
  'trailing\\',
  'say "hi"',
  '1", "release": "hijacked',
  '\\u12g4',
];

describe("--set values cross-checked against Python's json (Armada's round trip, run by python3)", () => {
  const python = havePythonModule('yaml', 1, '--set JSON round trip');
  (python ? test : test.skip)('every case: accepted with the string Python gets, or refused where Python fails or gets other data', () => {
    const script = [
      'import json, sys',
      'out = []',
      'for v in json.loads(sys.stdin.read()):',
      '    text = json.dumps({"values": {"x": None}}).replace("null", \'"{}"\'.format(v))',
      '    try:',
      '        out.append(json.loads(text))',
      '    except ValueError as e:',
      '        out.append("fails")',
      'print(json.dumps(out))',
    ].join('\n');
    const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(CASES), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const armada = JSON.parse(run.stdout) as unknown[];
    const ours = CASES.map((v) => setValue(['values', 'x'], v));
    CASES.forEach((v, i) => {
      const theirs = armada[i];
      const mine = ours[i];
      if (typeof mine === 'string') expect([v, theirs]).toEqual([v, { values: { x: mine } }]);
      else if (theirs === 'fails') expect([v, mine.problem]).toEqual([v, expect.stringMatching(/json\.loads fails/)]);
      else expect([v, mine.problem]).toEqual([v, expect.stringContaining(`Armada would merge ${JSON.stringify(theirs)}`)]);
    });
  });
});
