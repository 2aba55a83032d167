/**
 * PyYAML forgets a simple key whose ':' comes more than 1,024 characters (code points) after the
 * key's first token, and then refuses the stream; js-yaml reads such keys. Each verdict is checked
 * against PyYAML itself where python3 has it.
 */
import { havePyYaml, parseText, pyyamlLoadAll } from './helpers';
import { mayHaveLongKey } from '../../../src/importer/load/pyyaml-keys';

const a = (n: number, c = 'a') => c.repeat(n);
const refused = (chars: number) =>
  `this key runs ${chars.toLocaleString('en-US')} characters up to its ':', and PyYAML, which Armada reads documents with, looks for a simple key's ':' within 1,024 ("mapping values are not allowed here", or "could not find expected ':'"): Armada cannot read this file; write it as an explicit key ('? ' and the key, then ': ' and the value on the next line) or shorten it`;

// [name, text, the errors here]
const CASES: [string, string, string[]][] = [
  ['a plain key of 1,024 characters', `${a(1024)}: v\n`, []],
  ['a plain key of 1,025 characters', `${a(1025)}: v\n`, [`test.yaml:1:1: ${refused(1025)}`]],
  ['the second key of a nested mapping', `x:\n  b: 1\n  ${a(1025)}: v\n`, [`test.yaml:3:3: ${refused(1025)}`]],
  ['a key in a sequence item', `- ${a(1030)}: v\n`, [`test.yaml:1:3: ${refused(1030)}`]],
  ['a quoted key of 1,024 characters, quotes included', `"${a(1022)}": v\n`, []],
  ['a quoted key of 1,025 characters, quotes included', `'${a(1023)}': v\n`, [`test.yaml:1:1: ${refused(1025)}`]],
  ['blanks before the colon count', `${a(1020)}     : v\n`, [`test.yaml:1:1: ${refused(1025)}`]],
  ['a flow mapping key', `{${a(1025)}: v}\n`, [`test.yaml:1:2: ${refused(1025)}`]],
  ['a pair in a flow sequence', `[${a(1025)}: v]\n`, [`test.yaml:1:2: ${refused(1025)}`]],
  ['an anchored flow key counts from its anchor', `{&x ${a(1022)}: v}\n`, [`test.yaml:1:2: ${refused(1025)}`]],
  ['an anchored flow key of 1,024 with its anchor', `{&x ${a(1021)}: v}\n`, []],
  ['characters, not bytes: 1,024 two-byte characters', `${a(1024, 'é')}: v\n`, []],
  ['characters, not UTF-16 units: 1,024 emoji', `${a(1024, '\u{1F600}')}: v\n`, []],
  ['1,025 emoji', `${a(1025, '\u{1F600}')}: v\n`, [`test.yaml:1:1: ${refused(1025)}`]],
  ['an explicit key may be any length', `? ${a(5000)}\n: v\n`, []],
  ['a long line in a block scalar is no key', `a: |\n  ${a(2000)}: v\n`, []],
];

describe('simple keys longer than PyYAML reads', () => {
  test.each(CASES)('%s', (_name, text, expected) => {
    expect(parseText(text).diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.location}: ${d.message}`)).toEqual(expected);
  });

  test('reported with the document and its code, and the other documents still load', () => {
    const r = parseText(`schema: armada/Chart/v1\nmetadata: {name: c}\ndata:\n  values:\n    ${a(1100)}: 1\n---\nb: 1\n`);
    expect(r.diagnostics).toEqual([{ severity: 'error', location: 'test.yaml:5:5', document: 'armada/Chart/v1 c', code: 'yaml-syntax', message: refused(1100) }]);
    expect(r.documents).toHaveLength(2);
  });

  test('the cheap test: only a line longer than 1,025 characters can hold one', () => {
    expect(mayHaveLongKey(`a: 1\n${a(1025)}\n`)).toBe(false);
    expect(mayHaveLongKey(`a: 1\n${a(1026)}\n`)).toBe(true);
    expect(mayHaveLongKey(`${a(1026)}`)).toBe(true);
  });

  const run = havePyYaml() ? test : test.skip;
  run('PyYAML agrees: what is an error here is refused there, the rest loads', () => {
    const py = pyyamlLoadAll(CASES.map(([, t]) => t));
    CASES.forEach(([name, , expected], i) => {
      expect([name, 'error' in py[i]]).toEqual([name, expected.length > 0]);
    });
  });
});
