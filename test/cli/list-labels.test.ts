/**
 * Labels written for older Armada, as a list of one-key mappings: Armada's own message for each
 * (what `armada apply` prints), grouped as one kind of error whatever the labels say, and one note
 * per run that says what to write instead, with the count.
 */
import { listOfLabelsNotes } from '../../src/cli/list-labels';
import { cli, tmpdir, write } from '../helpers/cli';

const COMPONENTS = ['mon', 'osd', 'mgr', 'rgw', 'mds'];

function oldSite(): string {
  const charts = COMPONENTS.map(
    (c) =>
      `---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: ceph-${c}}\ndata:\n  chart_name: ceph-${c}\n  release: ceph-${c}\n  namespace: ceph\n  source: {type: local, location: /charts, subpath: ceph-${c}}\n  dependencies: []\n  wait:\n    timeout: 600\n    labels:\n      - application: ceph\n      - component: ${c}\n`,
  );
  const group = `---\nschema: armada/ChartGroup/v1\nmetadata: {schema: metadata/Document/v1, name: ceph}\ndata:\n  chart_group: [${COMPONENTS.map((c) => `ceph-${c}`).join(', ')}]\n`;
  const manifest = '---\nschema: armada/Manifest/v1\nmetadata: {schema: metadata/Document/v1, name: site}\ndata:\n  release_prefix: p\n  chart_groups: [ceph]\n';
  return write(tmpdir('list-labels-'), 'site.yaml', charts.join('') + group + manifest);
}

test('one grouped line, and one note with the count and the mapping to write', async () => {
  const file = oldSite();
  const r = await cli(['validate', file]);
  expect(r.code).toBe(1);
  expect(r.stderr.split('\n')).toEqual([
    `${file}:12:5: error: armada/Chart/v1 ceph-mon: data.wait.labels: [{'application': 'ceph'}, {'component': 'mon'}] is not of type 'object' [ARM100: 5 errors like this one, also in armada/Chart/v1 ceph-osd, armada/Chart/v1 ceph-mgr, armada/Chart/v1 ceph-rgw and 1 more]`,
    `note: 5 labels fields are written as a list of one-key mappings, as sites for older Armada wrote them; Armada's schema wants one mapping of every label: for [{'application': 'ceph'}, {'component': 'mon'}] (${file}:12:5, data.wait.labels) write {application: ceph, component: mon}`,
    'invalid: 5 errors, 0 warnings',
    '',
  ]);
});

test('--all prints each error, the note once', async () => {
  const r = await cli(['validate', '--all', oldSite()]);
  const lines = r.stderr.split('\n');
  expect(lines.filter((l) => l.includes("is not of type 'object'") && !l.startsWith('note:'))).toHaveLength(5);
  expect(lines.filter((l) => l.startsWith('note: '))).toHaveLength(1);
});

test('the mapping keeps quotes where YAML would read another type, and says when the list was cut', () => {
  const d = (message: string) => ({ severity: 'error' as const, location: 'f.yaml:1:1', field: 'data.wait.labels', code: 'ARM100', message });
  expect(listOfLabelsNotes([d("[{'application': 'ceph'}, {'version': '1.0'}, {'enabled': 'yes'}] is not of type 'object'")])[0]).toMatch(/ write \{application: ceph, version: "1.0", enabled: "yes"\}$/);
  expect(listOfLabelsNotes([d("[{'a': 'b'}, {'c': 'd'}, {'e': ... is not of type 'object'")])[0]).toMatch(/ write \{a: b, c: d, \.\.\.\}$/);
  // Another field, or a mapping refused for another reason, is no such note.
  expect(listOfLabelsNotes([{ ...d("[{'a': 'b'}] is not of type 'object'"), field: 'data.values' }, d("'x' is not of type 'object'")])).toEqual([]);
});
