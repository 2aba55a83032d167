/**
 * Issue 45, class 5: a `--values` document without `data`. Armada never checks override documents
 * against its schemas (Override.update_manifests validates the site's documents only) and merges
 * `ovr.get('data', {})` (armada/handlers/override.py, Override.update_document): no data merges
 * nothing, while `data: null` reaches Override.update, which calls .items() on it and fails.
 */
import { cli, tmpdir, write } from '../helpers/cli';
import { ONE_CHART_SITE } from '../helpers/one-chart-site';

const dir = tmpdir('armada-cdk-values-docs-');

const SITE = ONE_CHART_SITE;

const site = write(dir, 'site.yaml', SITE);
const lines = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).split('\n').filter((l) => / (error|warning): /.test(l));

describe('--values documents without data (override.py Override.update_document: ovr.get("data", {}))', () => {
  test('no data key: Armada merges nothing; accepted, with a warning that says so, and the other override documents still apply', async () => {
    const values = write(dir, 'no-data.yaml', '---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: c}\n---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: c}\ndata: {release: d}\n');
    const r = await cli(['validate', site, '--values', values]);
    expect(lines(r)).toEqual([`${values}:2:1: warning: armada/Chart/v1 c: this override document has no data; Armada reads it as {} (ovr.get('data', {})) and merges nothing`]);
    expect(r.code).toBe(0);
    const d = await cli(['convert', site, '--values', values, '--to', 'documents-v1']);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain('  release: d\n');
  });

  test('data: null: Armada fails when it merges it; refused with that message, at the data key', async () => {
    const values = write(dir, 'null-data.yaml', '---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: c}\ndata: null\n');
    const r = await cli(['validate', site, '--values', values]);
    expect(lines(r)).toEqual([
      `${values}:4:1: error: armada/Chart/v1 c: data: the override data is null; Armada fails on it when it merges it (Override.update: 'NoneType' object has no attribute 'items'): leave data out, or give a mapping`,
    ]);
    expect(r.code).toBe(1);
  });

  test('a data-less override document that matches no document is ignored by Armada, as any other', async () => {
    const values = write(dir, 'unmatched.yaml', '---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: other}\n');
    const r = await cli(['validate', site, '--values', values]);
    expect(lines(r)).toEqual([`${values}:2:1: warning: armada/Chart/v1 other: this override document matches no document of the same schema and name; Armada ignores it`]);
    expect(r.code).toBe(0);
  });

  test('a site document without data is still refused: Armada\'s schema check rejects it', async () => {
    const broken = write(dir, 'broken.yaml', SITE.replace('data: {chart_group: [c]}\n', ''));
    const r = await cli(['validate', broken]);
    expect(r.code).toBe(1);
    expect(lines(r)[0]).toContain(`armada/ChartGroup/v1 g: data: armada/ChartGroup/v1 document has no data; Armada's schema check rejects it too ("None is not of type 'object'")`);
  });
});
