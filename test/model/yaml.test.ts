import { execFileSync } from 'child_process';
import * as YAML from 'yaml';
import { toYamlDocument, toYamlStream } from '../../src/model/wire/yaml';
import { parseDocuments } from '../helpers/documents';
import { havePythonModule } from '../helpers/python';
import { corpusFiles, readShared } from '../helpers/shared';
import { lcg as rng } from '../helpers/random';

/** A deterministic pseudo-random generator, so that failures reproduce. */
const PIECES = ['yes', 'no', 'on', 'off', 'y', 'n', '~', 'null', '0755', '0x1f', '1:20', '1_000', '1e3', '.5', '-1', '+1', '.inf', '.NaN', '2001-12-14', '=', '<<', '', ' ', 'a: b', 'a #b', '#c', '- x', '[x]', '{x}', '*a', '&a', '!t', '|', '>', '%d', '@x', '`x`', "'q'", '"q"', 'é', '😀', '\t', '\n', '\n\n', ' lead', 'trail ', 'x\r\ny', '\u0001', '\u007f', '\u009b', '\u0085', '\u2028', '\u2029', '\ufeff', '\ufffe', 'http://x:80/y', 'k=v', 'a/b.c', 'TRUE', 'False'];

function randomValue(r: () => number, depth = 0): unknown {
  const x = r();
  if (depth > 3 || x < 0.45) {
    const y = r();
    if (y < 0.1) return null;
    if (y < 0.2) return r() < 0.5;
    if (y < 0.3) return Math.floor(r() * 1e6) * (r() < 0.5 ? -1 : 1);
    if (y < 0.35) return r() * 1e3;
    let s = '';
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
    return s;
  }
  if (x < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(r() * 4);
  for (let i = 0; i < n; i++) o[String(randomValue(r, 9))] = randomValue(r, depth + 1);
  return o;
}


describe('the CLI YAML writer', () => {
  test('quotes every string a YAML 1.1 or 1.2 reader would read as something else', () => {
    for (const s of ['yes', 'No', 'ON', 'y', 'n', '~', 'null', '0755', '0o17', '0x1F', '0b11', '1:20', '1_000', '1e3', '12', '3.0', '.5', '-.inf', '.nan', '2001-12-14', '=', '<<', '', 'a: b', '- a', '#x', ' x']) {
      expect([s, toYamlDocument({ v: s })]).toEqual([s, `v: ${JSON.stringify(s)}\n`]);
    }
    expect(toYamlDocument({ url: 'https://opendev.org/openstack/openstack-helm', p: '/opt/charts', r: 'refs/changes/61/924261/3' })).toBe(
      'url: https://opendev.org/openstack/openstack-helm\np: /opt/charts\nr: refs/changes/61/924261/3\n',
    );
  });

  test('escapes what PyYAML refuses or reads as a line break, in values, keys and multi-line text', () => {
    // DEL, a C1 control, NEL, the YAML 1.1 line and paragraph separators, U+FFFE/U+FFFF.
    for (const c of ['\u007f', '\u009b', '\u0085', '\u2028', '\u2029', '\ufffe', '\uffff']) {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      expect(toYamlDocument({ v: `a${c}b` })).toBe(`v: "a\\u${hex}b"\n`);
      expect(toYamlDocument({ [`k${c}`]: 1 })).toBe(`"k\\u${hex}": 1\n`);
      expect(toYamlDocument({ v: `a\n${c}b\n` })).toBe(`v: "a\\n\\u${hex}b\\n"\n`);
    }
    // A lone surrogate is JSON-escaped; a pair is a character like any other.
    expect(toYamlDocument({ v: 'a\n\ud800b' })).toBe('v: "a\\n\\ud800b"\n');
    expect(toYamlDocument({ v: 'a\n😀' })).toBe('v: |-\n  a\n  😀\n');
    if (!havePythonModule('yaml', 1, 'PyYAML reading escaped characters')) return;
    const values = ['\u007f', '\u009b', '\u0080', '\u0085', '\u2028', '\u2029', '\ufeff', '\ufffe', '\uffff'].flatMap((c) => [{ [`k${c}`]: `a${c}b` }, { v: `a\n${c}b\n` }]);
    const py = execFileSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(list(yaml.safe_load_all(sys.stdin.read()))))'], { input: toYamlStream(values), encoding: 'utf8' });
    expect(JSON.parse(py)).toEqual(values);
  });

  test('block layout: nested maps, lists of maps, empty collections, literal blocks', () => {
    expect(toYamlDocument({ a: { b: [1, { c: 'x', d: [] }, []], e: {} }, s: 'line 1\nline 2\n' })).toBe(
      ['a:', '  b:', '    - 1', '    - c: x', '      d: []', '    - []', '  e: {}', 's: |', '  line 1', '  line 2', ''].join('\n'),
    );
  });

  test('a key longer than 1024 characters is an explicit key (`? key` / `: value`), which PyYAML and a YAML 1.1 reader read back', () => {
    const k = 'k'.repeat(1500);
    const q = 'a b'.repeat(600); // quoted, so longer still as written
    expect(toYamlDocument({ [k]: 'v', short: 1 })).toBe(`? ${k}\n: v\nshort: 1\n`);
    expect(toYamlDocument({ list: [{ [k]: { c: 3 }, b: 2 }] })).toBe(`list:\n  - ? ${k}\n    :\n      c: 3\n    b: 2\n`);
    expect(toYamlDocument({ [k.slice(0, 1000)]: 1 })).toBe(`${k.slice(0, 1000)}: 1\n`);
    const doc = { top: { [k]: 'v', [q]: { nested: [1, { [k]: ['x', { [q]: 'y\nz' }] }] }, short: 1 }, list: [{ [k]: 1, b: 2 }, { a: 1, [q]: { c: 3 } }] };
    const text = toYamlDocument(doc);
    expect(YAML.parse(text, { version: '1.1' })).toEqual(doc);
    if (!havePythonModule('yaml', 1, 'PyYAML reading long keys')) return;
    const py = execFileSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))'], { input: text, encoding: 'utf8' });
    expect(JSON.parse(py)).toEqual(doc);
  });

  test('round trip through a YAML 1.1 reader and through PyYAML on random data', () => {
    const r = rng(42);
    const samples = Array.from({ length: 400 }, () => ({ data: randomValue(r) }));
    const text = toYamlStream(samples);
    const back = YAML.parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS());
    expect(back).toEqual(samples);
    if (!havePythonModule('yaml', 1, 'PyYAML round trip')) return;
    const py = execFileSync('python3', ['-c', 'import json,sys,yaml; print(json.dumps(list(yaml.safe_load_all(sys.stdin.read()))))'], { input: text, encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(JSON.parse(py)).toEqual(samples);
  });

  test('round trip of every corpus document', () => {
    const docs = corpusFiles().flatMap(({ file }) => parseDocuments(readShared('corpus', file), file).map((d) => ({ schema: d.schema, data: d.data })));
    const back = YAML.parseAllDocuments(toYamlStream(docs), { version: '1.1' }).map((d) => d.toJS());
    expect(back).toEqual(docs);
  });
});
