import { createHash } from 'crypto';
import { renderDocuments } from '../../src/deckhand';
import { dataOf, doc, messages, policy, render, sub, yamlSources } from './helpers';

// Each case was also rendered by Deckhand 0531c10 itself (DocumentLayering with
// fail_on_missing_sub_src=False, as Pegleg runs it): the expected values are Deckhand's.
const S = 'a/Src/v1', D = 'a/Dest/v1';
const src = (name: string, data: unknown, o: any = {}) => doc(S, name, 'global', data, o);
const dst = (name: string, data: unknown, subs: unknown[], o: any = {}) => doc(D, name, 'site', data, { substitutions: subs, ...o });
const cases: Record<string, unknown[]> = {
  dotted: [policy(), src('s', { a: { 'b-c': [1, { d: 'v' }] } }), dst('d', {}, [sub(S, 's', '.a.b-c[1].d', '.x.y-z')])],
  noLeadingDot: [policy(), src('s', { a: { b: 1 } }), dst('d', {}, [sub(S, 's', 'a.b', '.x')])],
  dollar: [policy(), src('s', { a: { b: 1 } }), dst('d', {k: 1}, [sub(S, 's', '$.a', '$.x.y')])],
  rootSrc: [policy(), src('s', { a: 1 }), dst('d', {}, [sub(S, 's', '.', '.x')])],
  rootDest: [policy(), src('s', { a: 1, b: { c: 2 } }), dst('d', { keep: 1, a: 0 }, [sub(S, 's', '.', '.')])],
  rootDestNonDict: [policy(), src('s', 'text'), dst('d', { keep: 1 }, [sub(S, 's', '.', '.')])],
  stringSource: [policy(), doc('deckhand/Passphrase/v1', 'pw', 'site', 'secret'), dst('d', {}, [sub('deckhand/Passphrase/v1', 'pw', '.whatever', '.p')])],
  padList: [policy(), src('s', { v: 'x' }), dst('d', { l: [{ a: 1 }] }, [sub(S, 's', '.v', '.l[3].n')])],
  newList: [policy(), src('s', { v: 'x' }), dst('d', {}, [sub(S, 's', '.v', '.m.l[1]')])],
  listValueAtIndex: [policy(), src('s', { v: ['first', 'second'] }), dst('d', { l: [0, 1] }, [sub(S, 's', '.v', '.l[1]')])],
  pattern: [policy(), src('s', { v: 'pw' }), dst('d', { url: 'http://u:PASSWORD@h/PASSWORD' }, [sub(S, 's', '.v', { path: '.url', pattern: 'PASSWORD' })])],
  patternNonString: [policy(), src('s', { v: 5, f: 1.5, b: true, n: null, l: [1, 'a'], m: { k: 'v' } }), dst('d', { a: 'X', b: 'X', c: 'X', e: 'X', f: 'X', g: 'X' }, [
    sub(S, 's', '.v', { path: '.a', pattern: 'X' }), sub(S, 's', '.f', { path: '.b', pattern: 'X' }), sub(S, 's', '.b', { path: '.c', pattern: 'X' }), sub(S, 's', '.n', { path: '.e', pattern: 'X' }), sub(S, 's', '.l', { path: '.f', pattern: 'X' }), sub(S, 's', '.m', { path: '.g', pattern: 'X' })])],
  srcPattern: [policy(), src('s', { v: 'host-10.0.0.1:8080' }), dst('d', {}, [sub(S, 's', '.v', '.ip', { pattern: '(\\d+\\.\\d+\\.\\d+\\.\\d+):(?P<port>\\d+)', match_group: 1 }), sub(S, 's', '.v', '.all', { pattern: '\\d+' }), sub(S, 's', '.v', '.none', { pattern: 'zzz' })])],
  recurse: [policy(), src('s', { v: 'R' }), dst('d', { a: { b: ['xTOKx', { c: 'TOK' }], d: 'TOK' }, e: 'TOK' }, [sub(S, 's', '.v', { path: '.a', pattern: 'TOK', recurse: { depth: -1 } })])],
  recurseDepth: [policy(), src('s', { v: 'R' }), dst('d', { a: { b: ['xTOKx', { c: 'TOK' }], d: 'TOK' } }, [sub(S, 's', '.v', { path: '.a', pattern: 'TOK', recurse: { depth: 2 } })])],
  recurseRegexChars: [policy(), src('s', { v: 'R' }), dst('d', { a: { b: 'a.c', d: 'abc' } }, [sub(S, 's', '.v', { path: '.a', pattern: 'a.c', recurse: { depth: -1 } })])],
  destList: [policy(), src('s', { v: 'x' }), dst('d', {}, [sub(S, 's', '.v', [{ path: '.a' }, { path: '.b.c' }])])],
  missingSourceDoc: [policy(), dst('d', { a: 1 }, [sub(S, 'nobody', '.v', '.a')])],
  missingSourcePath: [policy(), src('s', {}), dst('d', { a: 1, b: 'pre-X-post' }, [sub(S, 's', '.v', '.a'), sub(S, 's', '.v', { path: '.b', pattern: 'X' })])],
  missingSourcePathSrcPattern: [policy(), src('s', {}), dst('d', { a: 1 }, [sub(S, 's', '.v', '.a', { pattern: 'x' })])],
  encrypted: [policy(), src('s', { v: 'secret' }, { storagePolicy: 'encrypted' }), dst('d', { keep: 'calico' }, [sub(S, 's', '.v', '.a'), sub(S, 's', '.v', [{ path: '.b' }, { path: '.c' }])])],
  encryptedChain: [policy(), src('s', { v: 'secret' }, { storagePolicy: 'encrypted' }), dst('d', { keep: 'calico' }, [sub(S, 's', '.v', '.a')]), doc('a/Third/v1', 't', 'site', {}, { substitutions: [sub(D, 'd', '.a', '.z'), sub(D, 'd', '.keep', '.k')] })],
  aliasing: [policy(), src('s', { v: { inner: { k: 1 } } }), dst('d1', {}, [sub(S, 's', '.v', '.x')]), dst('d2', {}, [sub(D, 'd1', '.x', '.y'), sub(S, 's', '.v.inner.k', '.y.inner.k2')]), dst('d3', {}, [sub(S, 's', '.v', '.z')])],
  aliasDeepcopy: [policy(), src('s', { v: { inner: { k: 1 } } }), dst('d1', {}, [sub(S, 's', '.v', '.x', { deepcopy: true }), sub(S, 's', '.v.inner.k', '.x.inner.k2')]), dst('d3', {}, [sub(S, 's', '.v', '.z')])],
  patternNoMatchOnNonString: [policy(), src('s', { v: 'x' }), dst('d', { a: { b: 1 } }, [sub(S, 's', '.v', { path: '.a', pattern: 'Q' })])],
  replEscapes: [policy(), src('s', { v: 'a\\nb\\\\c$1' }), dst('d', { a: 'XX' }, [sub(S, 's', '.v', { path: '.a', pattern: 'X' })])],
  replBadEscape: [policy(), src('s', { v: 'a\\qb' }), dst('d', { a: 'X' }, [sub(S, 's', '.v', { path: '.a', pattern: 'X' })])],
  destNoDot: [policy(), src('s', { v: 'x' }), dst('d', {a: 1}, [sub(S, 's', '.v', 'a')])],
  expandThroughString: [policy(), src('s', { v: 'x' }), dst('d', { a: 'str' }, [sub(S, 's', '.v', '.a.b')])],
  expandThroughNull: [policy(), src('s', { v: 'x' }), dst('d', { a: null }, [sub(S, 's', '.v', '.a.b')])],
  nestedPartial: [policy(), src('s', { v: 'x' }), dst('d', { a: { b: 's' } }, [sub(S, 's', '.v', '.n.m.b.c')])],
  namedGroupSub: [policy(), src('s', { v: 'V' }), dst('d', { a: 'key=old;' }, [sub(S, 's', '.v', { path: '.a', pattern: '(?P<k>key)=\\w+' })])],
  dollarPattern: [policy(), src('s', { v: 'V' }), dst('d', { a: 'end\n' }, [sub(S, 's', '.v', { path: '.a', pattern: 'end$' })])],
  srcMatchGroupMissing: [policy(), src('s', { v: 'abc' }), dst('d', { a: 1 }, [sub(S, 's', '.v', '.a', { pattern: 'b', match_group: 2 })])],
  selfSub: [policy(), doc(S, 'x', 'site', { a: 1 }, { substitutions: [sub(S, 'x', '.a', '.b')] })],
  abstractSource: [policy(), src('s', { v: 1 }, { abstract: true }), dst('d', {}, [sub(S, 's', '.v', '.a')])],
};

const dataOfD = (name: string) => dataOf(render(cases[name]!), 'd', D);

describe('substitution paths', () => {
  test('dotted paths, names with "-", [n] indexes', () => expect(dataOfD('dotted')).toEqual({ x: { 'y-z': 'v' } }));
  test('a source path without a leading dot; $-rooted paths; missing destination paths are created', () => {
    expect(dataOfD('noLeadingDot')).toEqual({ x: 1 });
    expect(dataOfD('dollar')).toEqual({ k: 1, x: { y: { b: 1 } } });
  });
  test('the root as source', () => expect(dataOfD('rootSrc')).toEqual({ x: { a: 1 } }));
  test('the root as destination: a mapping is merged into the data at the top level, anything else replaces it', () => {
    expect(dataOfD('rootDest')).toEqual({ keep: 1, a: 1, b: { c: 2 } });
    expect(dataOfD('rootDestNonDict')).toBe('text');
  });
  test('a source whose data is not a mapping gives all its data, whatever the path', () => expect(dataOfD('stringSource')).toEqual({ p: 'secret' }));
  test('a missing list item is created, the list padded with {}', () => {
    expect(dataOfD('padList')).toEqual({ l: [{ a: 1 }, {}, {}, { n: 'x' }] });
    expect(dataOfD('newList')).toEqual({ m: { l: [{}, 'x'] } });
  });
  test('a list written at an index gives its first item (jsonpath-ng)', () => expect(dataOfD('listValueAtIndex')).toEqual({ l: [0, 'first'] }));
  test('a destination path without a leading dot is skipped with a warning', () => {
    const r = render(cases['destNoDot']!);
    expect(dataOf(r, 'd', D)).toEqual({ a: 1 });
    expect(messages(r)).toEqual([
      'warning deckhand-substitution site.yaml:21:1: substitution from [a/Src/v1, global] s into a failed (The provided jsonpath a does not begin with "." or "$"); Deckhand skips it',
    ]);
  });
  test('a destination below a string or null is skipped with a warning; below a new key it is created', () => {
    expect(dataOfD('expandThroughString')).toEqual({ a: 'str' });
    expect(dataOfD('expandThroughNull')).toEqual({ a: null });
    expect(dataOfD('nestedPartial')).toEqual({ a: { b: 's' }, n: { m: { b: { c: 'x' } } } });
  });
  test('destination lists: the value goes to each', () => expect(dataOfD('destList')).toEqual({ a: 'x', b: { c: 'x' } }));
});

describe('patterns', () => {
  test('a destination pattern replaces every match (re.sub)', () => expect(dataOfD('pattern')).toEqual({ url: 'http://u:pw@h/pw' }));
  test("non-strings go through Python's str()", () =>
    expect(dataOfD('patternNonString')).toEqual({ a: '5', b: '1.5', c: 'True', e: 'None', f: "[1, 'a']", g: "{'k': 'v'}" }));
  test("str() of a list quotes its strings as Python's repr() does: an escape it writes makes a bad replacement template; timestamps as datetime", () => {
    // Python: str(['z\u200bw']) is "['z\\u200bw']" (U+200B is not printable), and re.sub refuses
    // "\u" in a template: Deckhand skips the substitution. 'é' is printable, kept as is.
    // str([datetime.date(2020, 1, 2)]) is the repr; a date alone is its ISO text.
    const r = renderDocuments(yamlSources(
      [
        '---\nschema: deckhand/LayeringPolicy/v1\nmetadata: {schema: metadata/Control/v1, name: lp}\ndata: {layerOrder: [global, site]}',
        '---\nschema: a/Src/v1\nmetadata: {schema: metadata/Document/v1, name: s, storagePolicy: cleartext, layeringDefinition: {layer: global}}',
        'data: {l: ["z\\u200bw"], e: ["\\xe9"], dates: [2020-01-02], date: 2020-01-02}',
        '---\nschema: a/Dest/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: d\n  storagePolicy: cleartext\n  layeringDefinition: {layer: site}',
        '  substitutions:',
        '    - {src: {schema: a/Src/v1, name: s, path: .l}, dest: {path: .a, pattern: X}}',
        '    - {src: {schema: a/Src/v1, name: s, path: .e}, dest: {path: .e, pattern: X}}',
        '    - {src: {schema: a/Src/v1, name: s, path: .dates}, dest: {path: .b, pattern: X}}',
        '    - {src: {schema: a/Src/v1, name: s, path: .date}, dest: {path: .c, pattern: X}}',
        'data: {a: <X>, e: <X>, b: <X>, c: <X>}',
      ].join('\n'),
    ));
    expect(messages(r)).toEqual([
      'warning deckhand-substitution site.yaml:10:1: substitution from [a/Src/v1, global] s into .a failed (bad escape in the replacement (the substituted value has a backslash before a letter Python refuses)); Deckhand skips it',
    ]);
    expect(dataOf(r, 'd', D)).toEqual({ a: '<X>', e: "<['é']>", b: '<[datetime.date(2020, 1, 2)]>', c: '<2020-01-02>' });
  });
  test('a source pattern takes re.search\'s group; no match keeps the whole value', () =>
    expect(dataOfD('srcPattern')).toEqual({ ip: '10.0.0.1', all: '10', none: 'host-10.0.0.1:8080' }));
  test('a source pattern group that does not exist: skipped with a warning', () => expect(dataOfD('srcMatchGroupMissing')).toEqual({ a: 1 }));
  test('recurse: every string below the path that contains the pattern text, to the depth given', () => {
    expect(dataOfD('recurse')).toEqual({ a: { b: ['xRx', { c: 'R' }], d: 'R' }, e: 'TOK' });
    expect(dataOfD('recurseDepth')).toEqual({ a: { b: ['xRx', { c: 'TOK' }], d: 'R' } });
    // Deckhand looks for the pattern as plain text before it runs it as a regular expression.
    expect(dataOfD('recurseRegexChars')).toEqual({ a: { b: 'R', d: 'abc' } });
  });
  test('a pattern on a mapping is skipped with a warning', () => {
    const r = render(cases['patternNoMatchOnNonString']!);
    expect(dataOf(r, 'd', D)).toEqual({ a: { b: 1 } });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['deckhand-substitution']);
  });
  test("the value is a Python replacement template: escapes and group references are read, a bad escape skips the substitution", () => {
    expect(dataOfD('replEscapes')).toEqual({ a: 'a\nb\\c$1a\nb\\c$1' });
    const bad = render(cases['replBadEscape']!);
    expect(dataOf(bad, 'd', D)).toEqual({ a: 'X' });
    expect(messages(bad)).toEqual(['warning deckhand-substitution site.yaml:21:1: substitution from [a/Src/v1, global] s into .a failed (bad escape in the replacement (the substituted value has a backslash before a letter Python refuses)); Deckhand skips it']);
    // The value is a secret: not a character of it in the message.
    expect(JSON.stringify(bad.diagnostics)).not.toContain('\\\\q');
  });
  test("Python's named groups and $ (which also matches before a final newline)", () => {
    expect(dataOfD('namedGroupSub')).toEqual({ a: 'V;' });
    expect(dataOfD('dollarPattern')).toEqual({ a: 'V\n' });
  });
});

describe('missing sources (Pegleg: fail_on_missing_sub_src=False)', () => {
  test('a missing source document: skipped, with a warning at the destination', () => {
    const r = render(cases['missingSourceDoc']!);
    expect(dataOf(r, 'd', D)).toEqual({ a: 1 });
    expect(r.diagnostics.map((d) => [d.severity, d.code, d.location, d.field])).toEqual([['warning', 'deckhand-missing-source', 'site.yaml:11:1', 'metadata.substitutions[0].src']]);
  });
  test('a missing source path substitutes None: null, or "None" through a pattern', () => {
    const r = render(cases['missingSourcePath']!);
    expect(dataOf(r, 'd', D)).toEqual({ a: null, b: 'pre-None-post' });
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'Could not find source path .v in source document or the secret extracted is None. Source document: [a/Src/v1, global] s (site.yaml:11:1). Destination document: [a/Dest/v1, site] d; Deckhand substitutes None',
      'Could not find source path .v in source document or the secret extracted is None. Source document: [a/Src/v1, global] s (site.yaml:11:1). Destination document: [a/Dest/v1, site] d; Deckhand substitutes None',
    ]);
  });
  test('with a source pattern, a missing source path skips the substitution', () => expect(dataOfD('missingSourcePathSrcPattern')).toEqual({ a: 1 }));
  test('abstract documents are not sources', () => expect(dataOfD('abstractSource')).toEqual({}));
  test('failOnMissingSubstitutionSource: refused instead', () => {
    const r = render(cases['missingSourceDoc']!, { failOnMissingSubstitutionSource: true });
    expect(r.documents).toEqual([]);
    expect(r.diagnostics.map((d) => [d.severity, d.code])).toEqual([['error', 'deckhand-missing-source']]);
  });
});

describe('encrypted sources', () => {
  const sha = (s: string) => createHash('sha256').update(JSON.stringify(s)).digest('hex');
  test("the destination becomes encrypted and its substitution paths are replaced by Deckhand's hashes", () => {
    const r = render(cases['encrypted']!);
    const d = r.documents.find((x) => (x.raw['metadata'] as any).name === 'd')!;
    expect(d.raw['data']).toEqual({ keep: 'calico', a: 'secret', b: 'secret', c: 'secret' });
    expect((d.raw['metadata'] as any).storagePolicy).toBe('encrypted');
    expect((d.raw['metadata'] as any).substitutions).toEqual([
      { src: { schema: S, name: 's', path: sha('.v') }, dest: { path: sha('.a') } },
      { src: { schema: S, name: 's', path: sha('.v') }, dest: [{ path: sha('.b') }, { path: sha('.c') }] },
    ]);
    // Secret: what came from the encrypted source; the destination's own values stay cleartext.
    expect(d.secretPaths).toEqual([['a'], ['b'], ['c']]);
    expect(r.documents.find((x) => (x.raw['metadata'] as any).name === 's')!.secretPaths).toEqual([[]]);
  });
  test('encryption spreads: a document substituted from an encrypted destination is encrypted too; only the secret value is secret in it', () => {
    const r = render(cases['encryptedChain']!);
    const t = r.documents.find((x) => (x.raw['metadata'] as any).name === 't')!;
    expect((t.raw['metadata'] as any).storagePolicy).toBe('encrypted');
    expect(t.raw['data']).toEqual({ z: 'secret', k: 'calico' });
    expect(t.secretPaths).toEqual([['z']]);
  });
});

describe("Deckhand's aliasing", () => {
  test('a write into a value shared by a pattern-less substitution reaches every document sharing it, with a warning', () => {
    const r = render(cases['aliasing']!);
    // d3 renders before d2, yet shows d2's write: Deckhand's output depends on the order.
    expect(r.documents.map((d) => (d.raw['metadata'] as any).name)).toEqual(['s', 'd1', 'd3', 'd2', 'layering-policy']);
    expect(dataOf(r, 's')).toEqual({ v: { inner: { k: 1, k2: 1 } } });
    expect(dataOf(r, 'd1')).toEqual({ x: { inner: { k: 1, k2: 1 } } });
    expect(dataOf(r, 'd3')).toEqual({ z: { inner: { k: 1, k2: 1 } } });
    expect(messages(r)).toEqual([
      "warning deckhand-aliasing site.yaml:31:1: the substitution into .y.inner.k2 of [a/Dest/v1, site] d2 also writes into [a/Src/v1, global] s (site.yaml:11:1) at .v.inner: an earlier substitution without pattern gave them the same nested value (Deckhand's shallow copy), so what each renders depends on the input order",
      "warning deckhand-aliasing site.yaml:31:1: the substitution into .y.inner.k2 of [a/Dest/v1, site] d2 also writes into [a/Dest/v1, site] d1 (site.yaml:21:1) at .x.inner: an earlier substitution without pattern gave them the same nested value (Deckhand's shallow copy), so what each renders depends on the input order",
      "warning deckhand-aliasing site.yaml:31:1: the substitution into .y.inner.k2 of [a/Dest/v1, site] d2 also writes into [a/Dest/v1, site] d3 (site.yaml:41:1) at .z.inner: an earlier substitution without pattern gave them the same nested value (Deckhand's shallow copy), so what each renders depends on the input order",
    ]);
  });
  test('deepcopy: true on the source: no sharing, no warning', () => {
    const r = render(cases['aliasDeepcopy']!);
    expect(dataOf(r, 'd3')).toEqual({ z: { inner: { k: 1 } } });
    expect(dataOf(r, 'd1')).toEqual({ x: { inner: { k: 1, k2: 1 } } });
    expect(r.diagnostics).toEqual([]);
  });
});

describe('secret paths', () => {
  test('values from a Passphrase are secret where they land, through a pattern too; the Passphrase itself is secret', () => {
    const r = render([
      policy(),
      doc('deckhand/Passphrase/v1', 'pw', 'site', 'hunter2'),
      doc('armada/Chart/v1', 'chart', 'site', { values: { url: 'mysql://u:PW@h' } }, {
        substitutions: [sub('deckhand/Passphrase/v1', 'pw', '.', '.values.password'), sub('deckhand/Passphrase/v1', 'pw', '.', { path: '.values.url', pattern: 'PW' })],
      }),
      doc('armada/Chart/v1', 'copy', 'site', {}, { substitutions: [sub('armada/Chart/v1', 'chart', '.values', '.v')] }),
    ]);
    const byName = Object.fromEntries(r.documents.map((d) => [(d.raw['metadata'] as any).name, d.secretPaths]));
    expect(byName).toEqual({ pw: [[]], chart: [['values', 'password'], ['values', 'url']], copy: [['v', 'password'], ['v', 'url']], 'layering-policy': [] });
    expect(JSON.stringify(r.diagnostics)).not.toContain('hunter2');
  });
});

describe('patterns this engine cannot run as Python does', () => {
  const withPattern = (pattern: string) =>
    render([policy(), doc(S, 's', 'global', { v: 'x' }), doc(D, 'd', 'site', { a: 'aa' }, { substitutions: [sub(S, 's', '.v', { path: '.a', pattern })] })]);
  test('refused with an error naming the pattern', () => {
    const r = withPattern('(?>a)');
    expect(r.documents).toEqual([]);
    expect(messages(r)).toEqual([
      'error deckhand-unsupported site.yaml:21:1: Deckhand cannot render the site: the group (?> at offset 0 of pattern "(?>a)" cannot be run the way Python runs it',
    ]);
  });
  test('a pattern Python refuses too is skipped with a warning, as Deckhand does', () => {
    const r = withPattern('a\\q');
    expect(dataOf(r, 'd', D)).toEqual({ a: 'aa' });
    expect(r.diagnostics.map((d) => [d.severity, d.code])).toEqual([['warning', 'deckhand-substitution']]);
  });
});

test("the caller's documents are never changed (Deckhand changes its own in place)", () => {
  const docs = [...cases['encrypted']!, ...cases['aliasing']!.slice(1).map((d: any) => ({ ...d, metadata: { ...d.metadata, name: `${d.metadata.name}-2` } }))];
  const before = JSON.stringify(docs);
  render(docs);
  expect(JSON.stringify(docs)).toBe(before);
});
