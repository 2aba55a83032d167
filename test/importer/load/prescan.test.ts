/**
 * The cheap tests that decide whether a document's keys are looked at in its AST are hand-written
 * scanners; each must give exactly the answer of its pattern, both of the line-anchored form first
 * written and of the form kept as the definition (the line break before a line instead of `^`,
 * tested after a '\n'). Compared on the corpus, on texts built at the scanners' edges, and on
 * generated short and long texts full of the characters they look for, with every kind of line
 * break.
 */
import { MAYBE_COLLECTION_KEY, mayHaveCollectionKeys, mayHaveNonStringKey, NON_STRING_KEY } from '../../../src/importer/load/prescan';
import { mayHaveKeyProblems } from '../../../src/importer/load/pyyaml-keys';
import { corpusFiles, readShared } from '../../helpers/shared';
import { rng } from '../../helpers/random';

// The patterns as first written, with `^` in multiline mode.
const COLLECTION_KEY_REFERENCE = /[[{][ \t]*[[{]|^[ \t-]*\?(?:[ \t]|$)|^[ \t-]*[[{].*[\]}][ \t]*:(?:[ \t]|$)|(?:^[ \t-]*|[{,][ \t]*)\*[^ \t,\]}]+[ \t]*:(?:[ \t]|$)/m;
const NON_STRING_KEY_REFERENCE = /(?:^|[{,?-])[ \t]*(?:[yYnN]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|[-+.]?[0-9][0-9a-fA-F_.:xob+-]*)[ \t]*:(?:[ \t]|$)/m;
const hasRepeatedAnchor = (t: string) => {
  const names = [...t.matchAll(/&([^\s[\]{},]+)/g)].map((m) => m[1]);
  return new Set(names).size < names.length;
};

/** The texts on which a scanner and a pattern disagree (empty when they agree on all). */
function disagreements(texts: readonly string[]): { text: string; scanner: string; pattern: boolean }[] {
  const out: { text: string; scanner: string; pattern: boolean }[] = [];
  for (const text of texts) {
    const collection = COLLECTION_KEY_REFERENCE.test(text);
    const key = NON_STRING_KEY_REFERENCE.test(text);
    if (MAYBE_COLLECTION_KEY.test('\n' + text) !== collection) out.push({ text, scanner: 'MAYBE_COLLECTION_KEY', pattern: collection });
    if (NON_STRING_KEY.test('\n' + text) !== key) out.push({ text, scanner: 'NON_STRING_KEY', pattern: key });
    if (mayHaveCollectionKeys(text) !== collection) out.push({ text, scanner: 'mayHaveCollectionKeys', pattern: collection });
    if (mayHaveNonStringKey(text) !== key) out.push({ text, scanner: 'mayHaveNonStringKey', pattern: key });
    const keyProblems = hasRepeatedAnchor(text) || key;
    if (mayHaveKeyProblems(text) !== keyProblems) out.push({ text, scanner: 'mayHaveKeyProblems', pattern: keyProblems });
  }
  return out;
}

const BREAKS = ['\n', '\r', '\r\n', '\u2028', '\u2029'];

describe('non-string key scanner, at its edges', () => {
  test.each([
    // the colon at the end of the text, before each line break, before a blank, before other text
    ['1:', true],
    ['1:\n', true],
    ['1:\r', true],
    ['1:\u2028', true],
    ['1:\u2029', true],
    ['1:\t', true],
    ['1:x', false],
    ['1:,', false],
    ['a:', false],
    [':', false],
    [' : x', false],
    // numbers with an inner `:` and `-`; a `-` is also a separator before a key
    ['1:2: x', true],
    ['1:2:x', false],
    ['12:30:00 : x', true],
    ['a-1: x', true],
    ['a_1: x', false],
    ['key_12: x', false],
    ['a+1: x', false],
    ['a-+1: x', true],
    ['a--1: x', true],
    ['a-.5: x', true],
    ['a.-5: x', true],
    ['a-x1: x', false],
    ['x1-: x', false],
    ['0x1F\t:\tx', true],
    ['1e3-b_: x', true],
    ['-1:', true],
    ['+: x', false],
    ['-: x', false],
    ['.5.: x', true],
    ['e1: x', false],
    // words: the whole run of letters, after a line start or a separator
    ['on: x', true],
    ['xon: x', false],
    ['onx: x', false],
    ['- on: x', true],
    ['-on: x', true],
    ['{on: 1}', true],
    ['a,null: 1', true],
    ['a, Null : 1', true],
    ['? ~: 1', true],
    ['~: 1', true],
    ['a~: 1', false],
    ['a ~: 1', false],
    ['Yes: 1', true],
    ['yES: 1', false],
    ['NO: 1', true],
    ['nO: 1', false],
    ['oN: x', false],
    ['n: x', true],
    ['an: x', false],
    ['FALSE: x', true],
    ['False: x', true],
    ['fAlse: x', false],
    ['offf: x', false],
    ['nulll: x', false],
    ['yes\t \t: x', true],
    ['\u20281: x', true],
    ['\u2029 y: x', true],
    // CRLF text
    ['name: x\r\nno: y', true],
    ['name: x\r\nnope: y\r\n', false],
    ['name: x\r\n  - 8080:\r\n', true],
  ])('%j -> %s', (text, expected) => {
    expect(mayHaveNonStringKey(text)).toBe(expected);
    expect(disagreements([text])).toEqual([]);
  });
});

describe('collection key scanner, at its edges', () => {
  test.each([
    // `? ` at the start of the text, after a line break and after dashes and blanks
    ['? x', true],
    ['?', true],
    ['?x', false],
    ['?\t', true],
    ['-  ? x', true],
    ['- -? x', true],
    ['\t- ?', true],
    ['a ? x', false],
    ['a- ? x', false],
    ...BREAKS.map((b) => [`a${b}? x`, true] as const),
    ...BREAKS.map((b) => [`a: 1${b}?${b}`, true] as const),
    // a flow collection opening with another, blanks and tabs between
    ['{{ x }}', true],
    ['[\t[', true],
    ['{ \t {', true],
    ['[ \t x [', false],
    ['a: [1, [2]]', false],
    ['[', false],
    ['[ ', false],
    // a flow collection before a block `:`
    ['[a]: b', true],
    ['[]:', true],
    ['{}\t:\tb', true],
    ['- {a: 1}: b', true],
    ['\t-\t[a] : b', true],
    ['[a]:b', false],
    ['[a],: b', false],
    ['x [a]: b', false],
    ['a [b]: c', false],
    ['[a]\n: b', false],
    ['[a] x: b', false],
    ['{a] x]: b', true],
    ...BREAKS.map((b) => [`a: 1${b}  [a]: b${b}`, true] as const),
    ...BREAKS.map((b) => [`[a${b}]: b`, false] as const),
    // an alias used as a key, at a line start or after `{` or `,`
    ['*a : 1', true],
    ['*a: 1', true],
    ['*a:', true],
    ['*a:x', false],
    ['*a:,', false],
    ['*: 1', false],
    ['* : 1', false],
    ['- *a: 1', true],
    ['-*a: 1', true],
    ['{*a: 1}', true],
    ['{ *a : 1}', true],
    ['{a: 1, *b : 2}', true],
    ['{a: 1,\t*b: 2}', true],
    ['x *a: 1', false],
    ['x*a: 1', false],
    ['*a,b: 1', false],
    ['*a]: 1', false],
    ['*a\nb: 1', true],
    ['*a:\nb', true],
    ['**: x', true],
    ['* *a: x', false],
    ['{**a*: x', true],
    ['*a b: 1', false],
    ['*a\t\t: 1', true],
    ['*a :x', false],
    ...BREAKS.map((b) => [`k: v${b}*a : 1`, true] as const),
    // CRLF text
    ['a: 1\r\n? b\r\n: c\r\n', true],
    ['a: 1\r\n[b]: c\r\n', true],
    ['a: [1]\r\nb: {c: d}\r\n', false],
  ] as [string, boolean][])('%j -> %s', (text, expected) => {
    expect(mayHaveCollectionKeys(text)).toBe(expected);
    expect(disagreements([text])).toEqual([]);
  });
});

describe('prescans agree with the patterns', () => {
  test.each(corpusFiles().map((f) => f.file))('corpus %s', (name) => {
    expect(disagreements([readShared('corpus', name)])).toEqual([]);
  });

  const PIECES = ['  ', ' ', '\t', '-', '- ', '?', '? ', ':', ': ', '[', ']', '{', '}', ',', '*a', '*', '&a', 'on', 'y', 'no', 'Off', 'NULL', '~', '12', '-1', '.5', '+', '.', '_', 'e', '0x1F', '1:2', 'key', 'a b', '\n', '\r', '\r\n', '\u2028', '\u2029', '#'];

  test('50,000 generated short texts, both answers', () => {
    const r = rng(20261203);
    const texts: string[] = [];
    for (let i = 0; i < 50_000; i++) {
      let t = '';
      for (let j = 0, n = 1 + Math.floor(r() * 12); j < n; j++) t += PIECES[Math.floor(r() * PIECES.length)];
      texts.push(t);
    }
    expect(disagreements(texts)).toEqual([]);
    expectBothAnswers(texts, 1_000);
  });

  // Lines of 1 to 80 characters cut from the pieces, the breaks between them mostly '\n'.
  const LINE_PIECES = ['  ', ' ', '\t', '- ', '-', 'name', 'key_1', 'value', ': ', ':', ', ', ',', '[', ']', '{', '}', '?', '? ', '*ref', '*', 'on', 'No', '~', '12', '1:2', '-3', '+.5', '0x1F', 'a-1', 'true', 'e', '#'];
  const LINE_BREAKS = ['\n', '\n', '\n', '\n', ...BREAKS];

  test('5,000 generated texts of up to 30 lines, both answers', () => {
    const r = rng(20261204);
    const pick = (a: readonly string[]) => a[Math.floor(r() * a.length)];
    const texts: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      let t = '';
      for (let l = 0, n = 1 + Math.floor(r() * 30); l < n; l++) {
        const width = 1 + Math.floor(r() * 80);
        let line = '';
        while (line.length < width) line += pick(LINE_PIECES);
        t += (l ? pick(LINE_BREAKS) : '') + line.slice(0, width);
      }
      texts.push(t);
    }
    expect(disagreements(texts)).toEqual([]);
    expectBothAnswers(texts, 500);
  });
});

/** Each answer of each pattern was given on more than `min` of the texts. */
function expectBothAnswers(texts: readonly string[], min: number): void {
  const seen = { collection: [0, 0], key: [0, 0] };
  for (const t of texts) {
    seen.collection[Number(COLLECTION_KEY_REFERENCE.test(t))]++;
    seen.key[Number(NON_STRING_KEY_REFERENCE.test(t))]++;
  }
  expect(Math.min(...seen.collection, ...seen.key)).toBeGreaterThan(min);
}
