/**
 * The cheap tests that decide whether a document's keys are looked at in its AST must say yes
 * wherever the line-anchored patterns they replaced said yes (they are written with the line
 * break before a line instead of `^`, which is faster): compared on the corpus and on generated
 * lines full of the characters they look for, with every kind of line break.
 */
import { mayHaveCollectionKeys } from '../../../src/importer/load/parse';
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

const PIECES = [' ', '\t', '-', '- ', '?', '? ', ':', ': ', '[', ']', '{', '}', ',', '*a', '&a', 'on', 'y', 'no', '~', '12', '-1', '.5', '0x1F', 'key', 'a b', '\n', '\r', '\r\n', '\u2028', '\u2029', '#'];

describe('prescans agree with the line-anchored patterns', () => {
  test.each(corpusFiles().map((f) => f.file))('corpus %s', (name) => {
    const text = readShared('corpus', name);
    expect(mayHaveCollectionKeys(text)).toBe(COLLECTION_KEY_REFERENCE.test(text));
    expect(mayHaveKeyProblems(text)).toBe(hasRepeatedAnchor(text) || NON_STRING_KEY_REFERENCE.test(text));
  });

  test('20,000 generated texts, both answers', () => {
    const r = rng(20261203);
    const seen = { collection: [0, 0], key: [0, 0] };
    for (let i = 0; i < 20_000; i++) {
      let t = '';
      for (let j = 0, n = 1 + Math.floor(r() * 12); j < n; j++) t += PIECES[Math.floor(r() * PIECES.length)];
      const collection = COLLECTION_KEY_REFERENCE.test(t);
      const key = hasRepeatedAnchor(t) || NON_STRING_KEY_REFERENCE.test(t);
      expect([t, mayHaveCollectionKeys(t)]).toEqual([t, collection]);
      expect([t, mayHaveKeyProblems(t)]).toEqual([t, key]);
      seen.collection[Number(collection)]++;
      seen.key[Number(key)]++;
    }
    // both answers were exercised, often
    expect(Math.min(...seen.collection, ...seen.key)).toBeGreaterThan(500);
  });
});
