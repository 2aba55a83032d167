import * as path from 'path';
import { loadSiteFiles } from '../../src/pegleg/load-site';
import { siteRepo } from './helpers';

describe('reading a site\'s files as Pegleg reads them', () => {
  test('unknown YAML tags read as null, whatever they tag; the known ones keep their meaning', async () => {
    const repo = siteRepo({
      'a.yaml': 'schema: x/Y/v1\nmetadata:\n  name: a\ndata:\n  local: !foo bar\n  python: !!python/tuple [1, 2]\n  mapping: !thing\n    k: v\n  str: !!str 1\n  kept: yes\n',
    });
    const r = await loadSiteFiles([path.join(repo, 'a.yaml')]);
    expect(r.diagnostics).toEqual([]);
    expect(r.sources.map((s) => s.raw)).toEqual([{ schema: 'x/Y/v1', metadata: { name: 'a' }, data: { local: null, python: null, mapping: null, str: '1', kept: true } }]);
    expect(r.sources[0].origin).toEqual({ file: path.join(repo, 'a.yaml'), line: 1, column: 1 });
  });

  test('a PeglegManagedDocument is replaced by the document it wraps, an encrypted one with its data as text, not decrypted', async () => {
    const wrapped = (extra: string, data: string) =>
      `---\nschema: pegleg/PeglegManagedDocument/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: deckhand/Passphrase/v1/p\n  layeringDefinition: {abstract: false, layer: site}\n  storagePolicy: cleartext\ndata:\n${extra}  managedDocument:\n    schema: deckhand/Passphrase/v1\n    metadata:\n      schema: metadata/Document/v1\n      name: p\n      layeringDefinition: {abstract: false, layer: site}\n      storagePolicy: encrypted\n    data: ${data}\n`;
    const repo = siteRepo({ 'p.yaml': wrapped('', 'plain') + wrapped("  encrypted:\n    at: '2019-01-01'\n", '!!binary c2VjcmV0') });
    const r = await loadSiteFiles([path.join(repo, 'p.yaml')]);
    expect(r.diagnostics).toEqual([]);
    expect(r.sources.map((s) => (s.raw as { data: unknown }).data)).toEqual(['plain', 'secret']);
    expect(r.sources.map((s) => (s.raw as { schema: string }).schema)).toEqual(['deckhand/Passphrase/v1', 'deckhand/Passphrase/v1']);
    // Placed at the wrapped document, inside the wrapper.
    expect(r.sources[0].origin.line).toBe(9);
  });

  test('documents Pegleg fails on are errors at their place: empty, not a mapping, no schema', async () => {
    const repo = siteRepo({ 'e.yaml': '---\nschema: a/B/v1\nmetadata: {name: a}\ndata: {}\n---\n---\n- 1\n---\nmetadata: {name: b}\n' });
    const r = await loadSiteFiles([path.join(repo, 'e.yaml')]);
    expect(r.diagnostics.map((d) => `${path.basename(d.location)}: ${d.message.replace(repo + path.sep, '')}`)).toEqual([
      "e.yaml:5:1: document 2 of e.yaml is empty (an extra '---', or only comments); Pegleg fails on it (TypeError: 'NoneType' object is not subscriptable): remove it",
      'e.yaml:7:1: document 3 of e.yaml is a sequence, not a mapping with schema, metadata and data; Pegleg fails on it',
      "e.yaml:9:1: document 4 of e.yaml has no schema; Pegleg fails on it (KeyError: 'schema')",
    ]);
  });

  test('a block scalar that ends the file without a newline has no final newline, as PyYAML reads it', async () => {
    const repo = siteRepo({ 'c.yaml': 'schema: a/B/v1\nmetadata: {name: a}\ndata:\n  first: |\n    x\n  content: |\n    {\n    }', 'd.yaml': 'schema: a/B/v1\nmetadata: {name: a}\ndata:\n  content: |\n    {\n    }\n' });
    const r = await loadSiteFiles([path.join(repo, 'c.yaml'), path.join(repo, 'd.yaml')]);
    expect(r.sources.map((s) => (s.raw as { data: unknown }).data)).toEqual([{ first: 'x\n', content: '{\n}' }, { content: '{\n}\n' }]);
  });
});
