import { dataOf, doc, messages, names, policy, render } from './helpers';

const S = 'example/Thing/v1';
const parentOf = (name: string, data: unknown, labels: Record<string, unknown> = { name }) => doc(S, name, 'global', data, { labels });
const child = (name: string, layer: string, data: unknown, selector: Record<string, unknown>, actions: { method: string; path: string }[], extra = {}) =>
  doc(S, name, layer, data, { parentSelector: selector, actions, ...extra });

describe('the layering policy', () => {
  test('the first LayeringPolicy is used; another is ignored with a warning', () => {
    const r = render([policy(['global', 'site']), policy(['site', 'global'], 'second'), parentOf('p', { a: 1 }), child('c', 'site', { b: 2 }, { name: 'p' }, [{ method: 'merge', path: '.' }])]);
    expect(dataOf(r, 'c')).toEqual({ a: 1, b: 2 });
    expect(messages(r)).toEqual([
      'warning deckhand-layering site.yaml:11:1: more than one LayeringPolicy: Deckhand uses the first, deckhand/LayeringPolicy/v1 layering-policy (site.yaml:1:1), and ignores this one',
    ]);
  });

  test('no LayeringPolicy: nothing is rendered', () => {
    const r = render([parentOf('p', { a: 1 })]);
    expect(r.documents).toEqual([]);
    expect(messages(r)).toEqual([
      'error deckhand-layering <documents>: Deckhand cannot render the site: Required LayeringPolicy was not found for layering: no document has the schema deckhand/LayeringPolicy/v1',
    ]);
  });

  test('a layer missing from the layerOrder is fatal', () => {
    const r = render([policy(['global', 'site']), doc(S, 'x', 'region', {})]);
    expect(r.documents).toEqual([]);
    expect(messages(r)).toEqual([
      "error deckhand-layering site.yaml:11:1: Deckhand cannot render the site: Invalid layer 'region' for document [example/Thing/v1] x was not found in layerOrder: global, site for provided LayeringPolicy: layering-policy (at site.yaml:1:1)",
    ]);
  });

  test('layers without documents are dropped from the order (messages name the layers left)', () => {
    const r = render([policy(['global', 'type', 'site']), parentOf('p', {}, { k: 'v' }), doc(S, 'c', 'global', {}, { parentSelector: { k: 'v' }, actions: [{ method: 'merge', path: '.' }] })]);
    expect(r.documents).toEqual([]);
    expect(r.diagnostics[0]!.message).toBe(
      'Deckhand cannot render the site: The document parent [example/Thing/v1] p (at site.yaml:11:1) is invalid for document [example/Thing/v1] c. Reason: Child has parentSelector which references parent, but the child layer global must be lower than the parent layer global for layerOrder global.',
    );
  });
});

describe('parent selection', () => {
  test('the parent in the nearest higher layer wins', () => {
    const r = render([
      policy(),
      parentOf('g', { from: 'global', g: 1 }, { app: 'x' }),
      doc(S, 't', 'type', { from: 'type', t: 1 }, { labels: { app: 'x' }, parentSelector: { app: 'x' }, actions: [{ method: 'merge', path: '.' }] }),
      child('s', 'site', { s: 1 }, { app: 'x' }, [{ method: 'merge', path: '.' }]),
    ]);
    expect(dataOf(r, 's')).toEqual({ from: 'type', g: 1, t: 1, s: 1 });
  });

  test('labels must include every key of the parentSelector (values compared as Python does: 1 == True)', () => {
    const r = render([
      policy(),
      parentOf('partial', { which: 'partial' }, { a: 'x' }),
      parentOf('full', { which: 'full' }, { a: 'x', b: 1 }),
      child('c', 'site', {}, { a: 'x', b: true }, [{ method: 'merge', path: '.' }]),
    ]);
    expect(dataOf(r, 'c')).toEqual({ which: 'full' });
  });

  test('two parents in one layer are fatal', () => {
    const r = render([policy(), parentOf('p1', {}, { a: 'x' }), parentOf('p2', {}, { a: 'x' }), child('c', 'site', {}, { a: 'x' }, [{ method: 'merge', path: '.' }])]);
    expect(r.documents).toEqual([]);
    expect(messages(r)).toEqual([
      "error deckhand-layering site.yaml:31:1: Deckhand cannot render the site: Too many parent documents found for document [example/Thing/v1, site] c. Found: 2. Expected: 1 (the parentSelector {'a': 'x'} matches 2 documents in one layer)",
    ]);
  });

  test('a matching document of another schema is fatal', () => {
    const r = render([policy(), doc('example/Other/v1', 'o', 'global', {}, { labels: { a: 'x' } }), child('c', 'site', {}, { a: 'x' }, [{ method: 'merge', path: '.' }])]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'Deckhand cannot render the site: The document parent [example/Other/v1] o (at site.yaml:11:1) is invalid for document [example/Thing/v1] c. Reason: Child has parentSelector which references parent, but their `schema`s do not match.',
    ]);
    expect(r.diagnostics[0]!.location).toBe('site.yaml:21:1');
    expect(r.diagnostics[0]!.field).toBe('metadata.layeringDefinition.parentSelector');
  });

  test('a document whose parentSelector matches nothing keeps its own data', () => {
    const r = render([policy(), parentOf('p', { a: 1 }), child('c', 'site', { b: 2 }, { name: 'nobody' }, [{ method: 'merge', path: '.' }])]);
    expect(dataOf(r, 'c')).toEqual({ b: 2 });
    expect(r.diagnostics).toEqual([]);
  });
});

describe('actions', () => {
  const layered = (parentData: unknown, childData: unknown, actions: { method: string; path: string }[]) =>
    render([policy(), parentOf('p', parentData), child('c', 'site', childData, { name: 'p' }, actions)]);

  test('merge: a deep merge; lists and scalars replaced; a child null overwrites', () => {
    const r = layered({ a: { x: 1, y: [1, 2], z: 'keep' }, b: 'parent' }, { a: { x: 2, y: [3] }, b: null }, [{ method: 'merge', path: '.' }]);
    expect(dataOf(r, 'c')).toEqual({ a: { x: 2, y: [3], z: 'keep' }, b: null });
  });

  test('merge at a path missing from the parent creates it', () => {
    const r = layered({ a: 1 }, { new: { deep: { v: 1 } } }, [{ method: 'merge', path: '.new.deep' }]);
    expect(dataOf(r, 'c')).toEqual({ a: 1, new: { deep: { v: 1 } } });
  });

  test('merge at a path missing from the child is fatal', () => {
    const r = layered({ a: 1 }, { b: 1 }, [{ method: 'merge', path: '.missing' }]);
    expect(r.documents).toEqual([]);
    expect(messages(r)).toEqual([
      "error deckhand-action site.yaml:21:1: Deckhand cannot render the site: Missing action path in {'method': 'merge', 'path': '.missing'} needed for layering from either the data section of the parent [example/Thing/v1, global] p or child [example/Thing/v1, site] c document",
    ]);
  });

  test('merge of a non-mapping: the child value wins', () => {
    const r = layered({ a: [1, 2], b: { c: 1 } }, { a: 'text', b: { c: 2 } }, [{ method: 'merge', path: '.a' }]);
    expect(dataOf(r, 'c')).toEqual({ a: 'text', b: { c: 1 } });
  });

  test('replace: the child value at the path, the rest from the parent', () => {
    const r = layered({ a: { x: 1, y: 2 }, b: 1 }, { a: { z: 3 } }, [{ method: 'replace', path: '.a' }]);
    expect(dataOf(r, 'c')).toEqual({ a: { z: 3 }, b: 1 });
  });

  test('replace at a path missing from the child is fatal', () => {
    const r = layered({ a: 1 }, {}, [{ method: 'replace', path: '.a' }]);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['deckhand-action']);
  });

  test('delete removes the first node, depth first, whose value equals the value at the path', () => {
    const labels = { server: { node_selector_key: 'openstack-control-plane', node_selector_value: 'enabled' }, prometheus_mysql_exporter: { node_selector_key: 'openstack-control-plane', node_selector_value: 'enabled' } };
    const r = layered({ values: { labels } }, {}, [{ method: 'delete', path: '.values.labels.prometheus_mysql_exporter' }]);
    expect(dataOf(r, 'c')).toEqual({ values: { labels: { prometheus_mysql_exporter: labels.prometheus_mysql_exporter } } });
  });

  test('delete finds equal values anywhere in data, in lists too (1 equals 1.0 and True)', () => {
    const r = layered({ first: [true, 'x'], target: 1 }, {}, [{ method: 'delete', path: '.target' }]);
    expect(dataOf(r, 'c')).toEqual({ first: ['x'], target: 1 });
  });

  test('delete of "." empties the data; delete of a missing path is fatal', () => {
    expect(dataOf(layered({ a: 1 }, {}, [{ method: 'delete', path: '.' }]), 'c')).toEqual({});
    expect(layered({ a: 1 }, {}, [{ method: 'delete', path: '.b' }]).diagnostics.map((d) => d.code)).toEqual(['deckhand-action']);
  });

  test('actions apply in order to a copy of the parent data; paths may start with .data or $.data', () => {
    const r = layered({ a: { x: 1 }, b: 2, c: 3 }, { a: { y: 2 }, b: 20 }, [
      { method: 'delete', path: '$.data.c' },
      { method: 'merge', path: '.data.a' },
      { method: 'replace', path: 'b' },
    ]);
    expect(dataOf(r, 'c')).toEqual({ a: { x: 1, y: 2 }, b: 20 });
    expect(dataOf(r, 'p')).toEqual({ a: { x: 1 }, b: 2, c: 3 });
  });

  test("an action path of '$' is jsonpath-ng's '$.$', the root again: delete finds the whole data and removes nothing", () => {
    expect(dataOf(layered({ a: 1 }, {}, [{ method: 'delete', path: '$' }]), 'c')).toEqual({ a: 1 });
  });

  test('a child with a parent but no actions keeps its own data', () => {
    const r = render([policy(), parentOf('p', { a: 1 }), doc(S, 'c', 'site', { b: 1 }, { parentSelector: { name: 'p' } })], { validate: false });
    expect(dataOf(r, 'c')).toEqual({ b: 1 });
  });

  test('abstract documents are layered and substituted but not output', () => {
    const r = render([
      policy(),
      doc(S, 'base', 'global', { a: 1 }, { labels: { name: 'base' }, abstract: true }),
      doc(S, 'mid', 'type', { b: 2 }, { labels: { name: 'mid' }, abstract: true, parentSelector: { name: 'base' }, actions: [{ method: 'merge', path: '.' }] }),
      child('leaf', 'site', { c: 3 }, { name: 'mid' }, [{ method: 'merge', path: '.' }]),
    ]);
    expect(names(r)).toEqual(['example/Thing/v1 leaf', 'deckhand/LayeringPolicy/v1 layering-policy']);
    expect(dataOf(r, 'leaf')).toEqual({ a: 1, b: 2, c: 3 });
  });
});

describe('replacement', () => {
  test('the replaced parent drops out; the replacement is the parent of other children and the substitution source', () => {
    const r = render([
      policy(),
      doc(S, 'thing', 'global', { a: 1, b: 1 }, { labels: { name: 'thing' } }),
      doc(S, 'thing', 'site', { b: 2 }, { replacement: true, parentSelector: { name: 'thing' }, actions: [{ method: 'merge', path: '.' }] }),
      child('other', 'site', { c: 3 }, { name: 'thing' }, [{ method: 'merge', path: '.' }]),
      doc('example/User/v1', 'user', 'site', {}, { substitutions: [{ src: { schema: S, name: 'thing', path: '.b' }, dest: { path: '.b' } }] }),
    ]);
    // networkx generations [other, user], [thing (site)], [thing (global)], reversed; the replaced parent left out.
    expect(names(r)).toEqual(['example/Thing/v1 thing', 'example/User/v1 user', 'example/Thing/v1 other', 'deckhand/LayeringPolicy/v1 layering-policy']);
    expect(r.documents[0]!.raw['metadata']).toMatchObject({ layeringDefinition: { layer: 'site' } });
    expect(dataOf(r, 'thing')).toEqual({ a: 1, b: 2 });
    expect(dataOf(r, 'other')).toEqual({ a: 1, b: 2, c: 3 });
    expect(dataOf(r, 'user')).toEqual({ b: 2 });
  });

  test('a replacement without a parent is fatal', () => {
    const r = render([policy(), doc(S, 'thing', 'site', {}, { replacement: true, parentSelector: { name: 'none' }, actions: [{ method: 'merge', path: '.' }] })]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      'Deckhand cannot render the site: Replacement document [example/Thing/v1, site] thing is invalid. Reason: Document replacement requires that the document with `replacement: true` have a parent.',
    ]);
  });

  test('a replacement with another name than its parent is fatal', () => {
    const r = render([policy(), parentOf('thing', {}), doc(S, 'other', 'site', {}, { replacement: true, parentSelector: { name: 'thing' }, actions: [{ method: 'merge', path: '.' }] })]);
    expect(r.diagnostics[0]!.message).toContain('Reason: Document replacement requires that both documents have the same `schema` and `metadata.name`.');
  });

  test('a child with its parent name and schema but no replacement: true is fatal', () => {
    const r = render([policy(), parentOf('thing', {}), child('thing', 'site', {}, { name: 'thing' }, [{ method: 'merge', path: '.' }])]);
    expect(r.diagnostics[0]!.message).toContain('Reason: Non-replacement documents cannot have the same `schema` and `metadata.name` as their parent.');
  });

  test('two unrelated documents with one schema and name are fatal', () => {
    const r = render([policy(), doc(S, 'thing', 'global', {}), doc(S, 'thing', 'site', {})]);
    expect(r.diagnostics[0]!.message).toContain('Reason: More than one document with the same name and schema was found, but none has `replacement: true`.');
    expect(r.diagnostics[0]!.location).toBe('site.yaml:21:1');
  });

  test('a replacement that is itself replaced is fatal', () => {
    const r = render([
      policy(),
      doc(S, 'thing', 'global', {}, { labels: { l: 'g' } }),
      doc(S, 'thing', 'type', {}, { labels: { l: 't' }, replacement: true, parentSelector: { l: 'g' }, actions: [{ method: 'merge', path: '.' }] }),
      doc(S, 'thing', 'site', {}, { replacement: true, parentSelector: { l: 't' }, actions: [{ method: 'merge', path: '.' }] }),
    ]);
    expect(r.diagnostics[0]!.message).toContain('Reason: A replacement document cannot itself be replaced by another document.');
  });
});

describe('render order', () => {
  test("Deckhand's topological order over layering and substitution edges, then input order", () => {
    const r = render([
      policy(),
      doc('a/User/v1', 'user', 'site', {}, { substitutions: [{ src: { schema: 'a/Source/v1', name: 'src', path: '.' }, dest: { path: '.v' } }] }),
      doc('a/Alone/v1', 'alone', 'site', {}),
      doc('a/Source/v1', 'src', 'global', { s: 1 }, { labels: { name: 'src' } }),
      doc('a/Source/v1', 'src-child', 'site', {}, { parentSelector: { name: 'src' }, actions: [{ method: 'merge', path: '.' }] }),
    ]);
    // networkx: nodes user, src, src-child; generations [user, src-child], [src]; reversed.
    expect(names(r)).toEqual(['a/Source/v1 src', 'a/Source/v1 src-child', 'a/User/v1 user', 'deckhand/LayeringPolicy/v1 layering-policy', 'a/Alone/v1 alone']);
  });

  test('a dependency cycle is fatal', () => {
    const r = render([
      policy(),
      doc('a/A/v1', 'a', 'site', {}, { substitutions: [{ src: { schema: 'a/B/v1', name: 'b', path: '.' }, dest: { path: '.b' } }] }),
      doc('a/B/v1', 'b', 'site', {}, { substitutions: [{ src: { schema: 'a/A/v1', name: 'a', path: '.' }, dest: { path: '.a' } }] }),
    ]);
    expect(messages(r)).toEqual([
      'error deckhand-cycle site.yaml:11:1: Deckhand cannot render the site: Cannot determine substitution order as a dependency cycle exists for the following documents: [a/A/v1, site] a (site.yaml:11:1) -> [a/B/v1, site] b (site.yaml:21:1) -> [a/A/v1, site] a (site.yaml:11:1)',
    ]);
  });
});
