import * as fs from 'fs';
import * as path from 'path';
import { renderDocuments } from '../../src/deckhand';
import { readRendered, readSite, SITES_DIR } from './site-helper';

// Every site of the shared test data: Deckhand's own output (rendered.yaml) or its refusal (result.json).
const sites = fs.readdirSync(SITES_DIR).filter((s) => fs.existsSync(path.join(SITES_DIR, s, 'order.txt')));

/** `schema layer name` of a document. */
function label(doc: any): string {
  return `${doc.schema} ${doc.metadata?.layeringDefinition?.layer ?? ''} ${doc.metadata?.name}`;
}

describe.each(sites)('%s', (site) => {
  const result = JSON.parse(fs.readFileSync(path.join(SITES_DIR, site, 'result.json'), 'utf8'));
  const { documents, loadErrors } = readSite(site);

  test('reads as Pegleg read it', () => {
    expect(loadErrors).toEqual([]);
    expect(documents.length).toBe(result.n_docs_in);
  });

  if (result.status === 'ok') {
    test("renders exactly Deckhand's rendered.yaml: same documents, order, metadata and data", () => {
      const rendered = renderDocuments(documents);
      expect(rendered.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const want = readRendered(site);
      expect(rendered.documents.map((d) => label(d.raw))).toEqual(want.map(label));
      rendered.documents.forEach((d, i) => {
        // Values, not text: rendered.yaml is written with sorted keys.
        expect({ at: label(d.raw), doc: d.raw }).toEqual({ at: label(want[i]), doc: want[i] });
      });
      expect(rendered.documents.length).toBe(result.n_docs_out);
    });
  } else {
    test("is refused with Deckhand's reason", () => {
      const rendered = renderDocuments(documents);
      expect(rendered.documents).toEqual([]);
      const errors = rendered.diagnostics.filter((d) => d.severity === 'error');
      // Deckhand's error names each duplicate as [schema, layer] name.
      const named = [...String(result.error).matchAll(/'schema': '([^']+)', 'name': '([^']+)', 'layer': '([^']+)'/g)].map((m) => `[${m[1]}, ${m[3]}] ${m[2]}`);
      expect(named.length).toBeGreaterThan(0);
      expect(errors.map((e) => /Duplicate document exists: (\[[^\]]+\] \S+)/.exec(e.message)?.[1])).toEqual(named);
      for (const e of errors) expect(e.location).toMatch(/^site\/dev\/.*\.yaml:\d+:1$/);
    });
  }
});
