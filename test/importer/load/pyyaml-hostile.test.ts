/**
 * YAML that Armada (PyYAML) reads one way and a careless loader another (issue 39): each case is
 * read here as PyYAML reads it, or refused at its file:line:column with the reason.
 */
import { parseInputs, parseYamlStream } from '../../../src/importer/load';
import { ALIAS_EXPANSION_BUDGET } from '../../../src/importer/load/aliases';

const read = (text: string) => {
  const r = parseYamlStream({ file: 'f.yaml', text });
  return { values: r.documents.map((d) => d.raw), found: r.diagnostics.map((d) => `${d.location} ${d.severity} ${d.message}`) };
};

describe('__proto__ is a plain key, as PyYAML reads it', () => {
  test.each([
    ['a merge of a flow mapping', 'data: {<<: {__proto__: {values: {image: evil}}}}\n'],
    ['a merge in block style', 'data:\n  <<: {__proto__: {values: {image: evil}}}\n'],
    ['a merge of an anchored mapping', 'base: &b {__proto__: {values: {image: evil}}}\ndata:\n  <<: *b\n'],
    ['a merge of a list', 'data:\n  <<: [{__proto__: {values: {image: evil}}}, {x: 1}]\n'],
    ['a key of its own', 'data:\n  __proto__: {values: {image: evil}}\n'],
    ['a document the yaml AST reads (it has a tag)', 'x: !!str y\ndata: {<<: {__proto__: {values: {image: evil}}}}\n'],
  ])('%s', (_name, text) => {
    const r = read(text);
    expect(r.found).toEqual([]);
    const data = (r.values[0] as { data: Record<string, unknown> }).data;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ values: { image: 'evil' } });
    expect((data as { values?: unknown }).values).toBeUndefined();
  });
});

describe('YAML 1.1 line breaks', () => {
  test('NEL (U+0085) ends a line, a comment and a plain scalar, and is LF in a scalar, as in PyYAML', () => {
    expect(read('image: ok # note\x85image2: evil/miner\n')).toEqual({ values: [{ image: 'ok', image2: 'evil/miner' }], found: [] });
    expect(read('a: b\x85c: d\n')).toEqual({ values: [{ a: 'b', c: 'd' }], found: [] });
    expect(read('a: "x\x85y"\nb: |\n  x\x85  y\n')).toEqual({ values: [{ a: 'x y', b: 'x\ny\n' }], found: [] });
    // Indented after the NEL: PyYAML refuses the second line, and so does this loader, there.
    expect(read('image: ok # note\x85    image: evil/miner\n').found).toEqual(['f.yaml:2:5 error bad indentation of a mapping entry']);
  });

  test.each([
    ['U+2028 (line separator)', '\u2028', 'L'],
    ['U+2029 (paragraph separator)', '\u2029', 'P'],
  ])('%s is refused where it is, in a comment or a scalar', (name, c, escape) => {
    const why = `${name} is a line break to PyYAML, which Armada reads documents with, and not to this loader, so the two would read this document differently; use a line break, or write it as the escape "\\${escape}" in a double-quoted string`;
    expect(read(`a: 1\nimage: ok # note${c}    image: evil/miner\n`).found).toEqual([`f.yaml:2:17 error ${why}`]);
    expect(read(`a: "x${c}y"\n`).found).toEqual([`f.yaml:1:6 error ${why}`]);
  });
});

describe('tabs PyYAML refuses', () => {
  const why = "found character '\\t' that cannot start any token: PyYAML, which Armada reads documents with, takes a tab only inside a quoted or block scalar or a comment, never as a space between tokens; use spaces";
  test.each([
    ['after a colon', 'image:\tnginx\n', '1:7'],
    ['after a colon, before a quoted scalar', 'a:\t"x"\n', '1:3'],
    ['after spaces after a colon', 'a:  \tb\n', '1:5'],
    ['in a plain scalar', 'a: x\tb\n', '1:5'],
    ['after a plain scalar', 'a: x\t\n', '1:5'],
    ['before a comment', 'a: x\t# c\n', '1:5'],
    ['after a dash', '- \tx\n', '1:3'],
    ['after a comma in a flow sequence', 'a: [x,\ty]\n', '1:7'],
    ['after a colon in a flow mapping', 'a: {b:\tc}\n', '1:7'],
    ['after the colon of an explicit key', '? a\n:\tb\n', '2:2'],
    ['on the line of a later document', 'a: 1\n---\nb: 2\nc:\t3\n', '4:3'],
    ['before a comment on a line of its own', 'a: 1\n\t# c\n', '2:1'],
    ['in a file of comments only', '# a\n\t# c\n', '2:1'],
    ['between documents', 'a: 1\n---\n\t\n---\nb: 2\n', '3:1'],
  ])('%s', (_name, text, at) => {
    expect(read(text).found).toEqual([`f.yaml:${at} error ${why}`]);
  });

  test('in a quoted scalar, a block scalar and a comment, a tab is content', () => {
    expect(read('a: "x\ty"\nb: \'x\ty\'\nc: |\n  x\ty\nd: 1 # x\ty\n')).toEqual({ values: [{ a: 'x\ty', b: 'x\ty', c: 'x\ty\n', d: 1 }], found: [] });
  });
});

describe('a sequence or a mapping as a key: PyYAML refuses it ("found unhashable key")', () => {
  test.each([
    ['an explicit key', '? [a, b]\n: x\n', '1:3'],
    ['an implicit flow key', '[a, b]: x\n', '1:1'],
    ['an implicit flow key, nested', 'k:\n  [a, b]: x\n', '2:3'],
    ['an alias to a sequence', 's: &s [a]\nm:\n  *s : x\n', '3:3'],
    ['a block sequence as an explicit key', '? - a\n  - b\n: x\n', '1:3'],
    ['in a flow mapping', 'm: {[a]: x}\n', '1:5'],
    ['an explicit key in a flow mapping', 'm: {? [a] : x}\n', '1:7'],
    ['after another entry of a flow mapping', 'k: {a: 1, [b]: 2}\n', '1:11'],
    ['a single-pair mapping in a flow sequence', 'm: [[a]: x]\n', '1:5'],
    ['in a sequence item', 'k:\n- [a, b]: x\n', '2:3'],
  ])('%s', (_name, text, at) => {
    expect(read(text).found).toEqual([`f.yaml:${at} error found unhashable key: a mapping or a sequence cannot be a key`]);
  });
});

describe('alias expansion is bounded per run, not per document', () => {
  // Each document's aliases add about 606,000 nodes: under the budget alone, over it together.
  const doc = (name: string) =>
    [`schema: armada/Chart/v1`, `metadata: {name: ${name}}`, 'data:', `  a: &a [${Array(100).fill('x').join(', ')}]`, `  b: &b [${Array(100).fill('*a').join(', ')}]`, `  c: [${Array(60).fill('*b').join(', ')}]`, ''].join('\n');

  test('one document is read; a second, in the same file or another, is refused with the limit named', () => {
    expect(parseInputs([{ file: 'one.yaml', text: doc('one') }]).diagnostics).toEqual([]);
    for (const inputs of [[{ file: 'f.yaml', text: `${doc('one')}---\n${doc('two')}` }], [{ file: 'one.yaml', text: doc('one') }, { file: 'f.yaml', text: doc('two') }]]) {
      const r = parseInputs(inputs);
      expect(r.documents.map((d) => d.name)).toEqual(['one']);
      expect(r.diagnostics.map((d) => `${d.location} ${d.document} ${d.message}`)).toEqual([
        expect.stringMatching(
          new RegExp(`^f\\.yaml:\\d+:\\d+ armada/Chart/v1 two the aliases of the documents read so far, this one included, expand to more than ${ALIAS_EXPANSION_BUDGET.toLocaleString('en-US')} nodes, the limit for all the documents of one run together \\(at \\*b\\): an alias bomb\\? Refused before it is expanded$`),
        ),
      ]);
    }
  });
});
