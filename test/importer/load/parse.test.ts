import { classifyDocuments, parseInputs } from '../../../src/importer/load';
import { parseText } from './helpers';

const chart = (name: string, body = '  release: r\n') => `---\nschema: armada/Chart/v1\nmetadata:\n  name: ${name}\ndata:\n${body}`;

describe('parsing streams', () => {
  it('reports malformed YAML at the parser position and still loads the other documents', () => {
    const text = chart('a') + chart('b', '  release: b\n namespace: x\n') + chart('c');
    const r = parseText(text, 'site.yaml');
    expect(r.diagnostics).toEqual([{ severity: 'error', location: 'site.yaml:13:2', code: 'yaml-syntax', message: 'bad indentation of a mapping entry' }]);
    expect(r.documents.map((d) => [d.name, d.index, d.startLine])).toEqual([
      ['a', 0, 1],
      ['c', 1, 14],
    ]);
    // positions of documents after the broken one are unaffected
    expect(r.documents[1].locate(['data', 'release'])).toEqual({ line: 19, column: 3 });
  });

  it.each([
    ['an unclosed flow sequence', 'a: [1, 2\n', 'unexpected end of the stream within a flow collection'],
    ['an unclosed quote', "a: 'abc\n", 'unexpected end of the stream within a single quoted scalar'],
    ['a tab in indentation', 'a:\n\tb: 1\n', 'tab characters must not be used in indentation'],
    ['a value after a value', 'a: b: c\n', 'bad indentation of a mapping entry'],
    ['an undefined alias', 'a: *nope\n', 'unidentified alias "nope"'],
  ])('reports %s', (_, text, message) => {
    const r = parseText(`${text}---\nok: 1\n`);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ severity: 'error', code: 'yaml-syntax', message });
    expect(r.diagnostics[0].location).toMatch(/^test\.yaml:[12]:\d+$/);
    expect(r.documents.map((d) => d.raw)).toEqual([{ ok: 1 }]);
  });

  it('refuses content after `...` that does not start with `---`, as PyYAML does', () => {
    const r = parseText('a: 1\n...\nb: 2\n---\nc: 3\n');
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        location: 'test.yaml:3:1',
        code: 'yaml-syntax',
        message: "expected '<document start>', but found '<block mapping start>': after '...' a new document must start with '---'",
      },
    ]);
    expect(r.documents.map((d) => d.raw)).toEqual([{ a: 1 }, { c: 3 }]);
  });

  it('accepts `...` document ends, repeated ones, directives and a leading comment block', () => {
    const r = parseText('# header\n# more\n%YAML 1.1\n---\na: 1\n...\n...\n---\nb: 2\n...\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.documents.map((d) => [d.raw, d.startLine])).toEqual([
      [{ a: 1 }, 4],
      [{ b: 2 }, 8],
    ]);
  });

  it('reads an implicit first document and CRLF line ends', () => {
    const r = parseText('# c\r\na: 1\r\n---\r\nb: 2\r\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.documents.map((d) => [d.raw, d.startLine])).toEqual([
      [{ a: 1 }, 2],
      [{ b: 2 }, 3],
    ]);
    expect(r.documents[1].locate(['b'])).toEqual({ line: 4, column: 1 });
  });

  it('ignores a byte order mark', () => {
    expect(parseText('\ufeff---\na: 1\n').documents.map((d) => d.raw)).toEqual([{ a: 1 }]);
  });

  it('rejects control characters anywhere, comments included, like PyYAML', () => {
    const r = parseText('a: 1\n# \u0001 comment\nb: 2\n');
    expect(r.diagnostics).toEqual([
      { severity: 'error', location: 'test.yaml:2:3', code: 'yaml-syntax', message: 'unacceptable character #x0001: special characters are not allowed' },
    ]);
  });

  it('says a stream of comments contains no YAML documents (a warning: Armada accepts it)', () => {
    expect(parseText('# just\n# comments\n', 'c.yaml').diagnostics).toEqual([
      { severity: 'warning', location: 'c.yaml', code: 'no-documents', message: 'c.yaml contains no YAML documents' },
    ]);
    expect(parseText('', 'e.yaml').diagnostics.map((d) => d.message)).toEqual(['e.yaml contains no YAML documents']);
  });

  it('reports instead of crashing on input nested too deep for the parser', () => {
    const r = parseText(`a: ${'['.repeat(20000)}${']'.repeat(20000)}\n---\nb: 1\n`);
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'error', location: 'test.yaml:1:1', code: 'yaml-depth', message: expect.stringMatching(/^this document nests too deeply to be loaded /) })]);
    expect(r.documents.map((d) => d.raw)).toEqual([{ b: 1 }]);
  });

  it('concatenates several inputs, each document keeping its own file and index', () => {
    const r = parseInputs([
      { file: 'a.yaml', text: chart('x') },
      { file: 'b.yaml', text: chart('y') + chart('z') },
    ]);
    expect(r.documents.map((d) => `${d.file}#${d.index} ${d.label}`)).toEqual(['a.yaml#0 armada/Chart/v1 x', 'b.yaml#0 armada/Chart/v1 y', 'b.yaml#1 armada/Chart/v1 z']);
    expect(r.documents[2].location(['data', 'release'])).toBe('b.yaml:12:3');
  });

  it('locates keys in flow mappings, through merge keys, and the last of duplicate keys', () => {
    const r = parseText('base: &b\n  x: 1\n  deep: {y: 2}\nc:\n  <<: *b\n  z: 3\nd: {p: 1, q: [a, {r: 2}]}\ne: 1\ne: 2\n');
    const d = r.documents[0];
    expect(d.locate(['c', 'x'])).toEqual({ line: 2, column: 3 });
    expect(d.locate(['c', 'deep', 'y'])).toEqual({ line: 3, column: 10 });
    expect(d.locate(['c', 'z'])).toEqual({ line: 6, column: 3 });
    expect(d.locate(['d', 'q', 1, 'r'])).toEqual({ line: 7, column: 19 });
    expect(d.locate(['e'])).toEqual({ line: 9, column: 1 });
  });
});

describe('merge keys written as explicit keys', () => {
  const doc = (m: string) => `base: &a {k: a}\nm:\n${m}\n`;
  it.each([
    ['block', doc('  ? <<\n  : *a'), 'test.yaml:3:5'],
    ['flow', doc('  {? << : *a}').replace('m:\n  ', 'm: '), 'test.yaml:2:7'],
  ])('are an error (PyYAML merges them, js-yaml keeps a key named "<<"): %s', (_, text, location) => {
    const r = parseText(text);
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        location,
        code: 'yaml-construct',
        message: "a merge key written as an explicit key ('? <<'): PyYAML merges it, this loader would keep a key named \"<<\"; write it as '<<: *anchor'",
      },
    ]);
  });

  it.each([
    ['an implicit merge key', doc('  <<: *a'), { base: { k: 'a' }, m: { k: 'a' } }],
    ['a quoted explicit key', doc('  ? "<<"\n  : 1'), { base: { k: 'a' }, m: { '<<': 1 } }],
  ])('%s is no error', (_, text, value) => {
    const r = parseText(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.documents.map((d) => d.raw)).toEqual([value]);
  });
});

describe('classifying documents', () => {
  const classify = (text: string) => classifyDocuments(parseText(text, 'f.yaml').documents);

  it('keeps Armada documents, passes the others through, and says which are not mappings', () => {
    const c = classify(
      chart('a') +
        '---\nschema: deckhand/Passphrase/v1\nmetadata:\n  name: pw\ndata: secret\n' +
        '---\nschema: armada/ChartGroup/v2\nmetadata:\n  name: g\ndata:\n  chart_group: [a]\n' +
        '--- 42\n--- [1, 2]\n---\n',
    );
    expect(c.armada.map((d) => d.label)).toEqual(['armada/Chart/v1 a', 'armada/ChartGroup/v2 g']);
    expect(c.other.map((d) => d.label)).toEqual(['deckhand/Passphrase/v1 pw']);
    expect(c.diagnostics).toEqual([
      { severity: 'error', location: 'f.yaml:18:5', code: 'not-a-mapping', message: 'document 4 is a scalar (42), not a mapping with schema, metadata and data' },
      { severity: 'error', location: 'f.yaml:19:5', code: 'not-a-mapping', message: 'document 5 is a sequence ([1, 2]), not a mapping with schema, metadata and data' },
      {
        severity: 'error',
        location: 'f.yaml:20:1',
        code: 'empty-document',
        message: `document 6 is empty (an extra '---', or only comments); Armada fails on it ("None is not a valid override statement"): remove it`,
      },
    ]);
  });

  it('requires a string metadata.name and a data in Armada documents', () => {
    const c = classify('schema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\ndata: {}\n---\nschema: armada/Manifest/v1\nmetadata:\n  name: 7\ndata: {}\n---\nschema: armada/ChartGroup/v1\nmetadata:\n  name: g\n');
    expect(c.armada).toEqual([]);
    expect(c.diagnostics).toEqual([
      {
        severity: 'error',
        location: 'f.yaml:2:1',
        document: 'armada/Chart/v1',
        field: 'metadata.name',
        code: 'missing-name',
        message: 'armada/Chart/v1 document has no metadata.name: documents refer to each other by name',
      },
      {
        severity: 'error',
        location: 'f.yaml:8:3',
        document: 'armada/Manifest/v1',
        field: 'metadata.name',
        code: 'missing-name',
        message: 'metadata.name must be a string, not 7: documents refer to each other by name',
      },
      { severity: 'error', location: 'f.yaml:11:1', document: 'armada/ChartGroup/v1 g', field: 'data', code: 'missing-data', message: "armada/ChartGroup/v1 document has no data; Armada's schema check rejects it too (\"None is not of type 'object'\")" },
    ]);
  });

  it('warns about documents Armada would ignore though they look meant for it', () => {
    const c = classify('schema: armada/chart/v1\nmetadata:\n  name: a\ndata: {}\n---\nschema: armada/Chart/v3\nmetadata:\n  name: b\ndata: {}\n---\narmada:\n  release_prefix: x\n');
    expect(c.armada).toEqual([]);
    expect(c.other).toHaveLength(3);
    expect(c.diagnostics.map((d) => [d.location, d.code, d.message])).toEqual([
      ['f.yaml:1:1', 'ignored-document', "'armada/chart/v1' is not one of the six schemas Armada recognises, so Armada ignores this document: did you mean 'armada/Chart/v1'?"],
      ['f.yaml:6:1', 'ignored-document', "'armada/Chart/v3' is not one of the six schemas Armada recognises, so Armada ignores this document: did you mean 'armada/Chart/v1'?"],
      ['f.yaml:11:1', 'ignored-document', "document 3 has no schema string, so Armada ignores it: it looks like the pre-2017 'armada:' format, which no current Armada reads"],
    ]);
  });
});
