import { PatternError, pySearchGroup, pySub, translatePattern } from '../../src/deckhand/python-regex';

describe('Python patterns in JavaScript', () => {
  test.each([
    ['(?P<port>\\d+)', 'a:8080', 'port', '8080'],
    ['(?P<x>a)(?P=x)', 'xaa', 0, 'aa'],
    ['b\\Z', 'ab', 0, 'b'],
    ['\\Aa', 'ab', 0, 'a'],
    ['x{,2}y', 'xxy', 0, 'xxy'],
    ['[]a]+', 'a]a', 0, 'a]a'],
    ['(?i)ABC', 'xabc', 0, 'abc'],
    ['a(?#comment)b', 'ab', 0, 'ab'],
  ])('re.search(%j, %j).group(%j) is %j', (pattern, text, group, want) => {
    expect(pySearchGroup(pattern, text, group)).toBe(want);
  });

  test("$ matches at the end and before a final newline, \\Z only at the end", () => {
    expect(pySub('x$', 'Y', 'x\n')).toBe('Y\n');
    expect(pySub('x\\Z', 'Y', 'x\n')).toBe('x\n');
  });

  test('a group that took no part is None; a group that does not exist raises', () => {
    expect(pySearchGroup('(a)|b', 'b', 1)).toBeNull();
    expect(() => pySearchGroup('a', 'a', 1)).toThrow('no such group');
  });

  test('re.sub reads the replacement as Python does: escapes, \\1, \\g<name>; $ is literal', () => {
    expect(pySub('(a)(?P<b>b)', '[\\2\\1\\g<b>\\g<1>$1\\n]', 'ab')).toBe('[baba$1\n]');
    expect(() => pySub('a', '\\q', 'a')).toThrow('bad escape in the replacement');
    expect(pySub('a', '\\-', 'a')).toBe('\\-');
  });

  test('what JavaScript cannot run the same way is refused, with the pattern named', () => {
    for (const p of ['(?x)a b', '(?>a)', 'a++', '(?(1)a|b)', '\\U0001F600', '(?i:a)']) {
      expect(() => translatePattern(p)).toThrow(PatternError);
    }
    expect(() => translatePattern('(?>a)')).toThrow('the group (?> at offset 0 of pattern "(?>a)" cannot be run the way Python runs it');
  });
});
