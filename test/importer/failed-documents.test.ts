/**
 * resolveInputs with documents that fail Armada's schema: the findings of the rules on the rest
 * come with the schema errors, no spec is returned (the site is not whole), and nothing that
 * depends on a failed document is reported.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveInputs } from '../../src/importer/resolve';
import { Diagnostic } from '../../src/model/diagnostics';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-failed-'));
const put = (name: string, text: string) => {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
};

const manifest = (name: string, groups: string, prefix = 'armada') =>
  `---\nschema: armada/Manifest/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n  release_prefix: ${prefix}\n  chart_groups: [${groups}]\n`;
const group = (name: string, charts: string, extra = '') => `---\nschema: armada/ChartGroup/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n${extra}  chart_group: [${charts}]\n`;
const chart = (name: string, extra = '') =>
  `---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n  chart_name: ${name}\n  release: ${name}\n  namespace: default\n  wait: {labels: {app: ${name}}}\n  source: {type: local, location: /charts, subpath: ${name}}\n${extra}`;

const shown = (ds: readonly Diagnostic[]) => ds.map((d) => `${path.basename(d.location)} ${d.severity} ${d.document ?? ''}: ${d.field ?? ''}: ${d.message}`);

describe('resolveInputs: a document that fails the schema leaves out only itself', () => {
  test('no spec; the schema errors, then the rule findings of the other chart (a report puts them in input order)', async () => {
    const f = put('one.yaml', manifest('site', 'blog') + group('blog', 'a, b') + chart('a', '  timeout: 0\n') + chart('b', '  protected: {continue_processing: x}\n'));
    const r = await resolveInputs([f], { skipChartSchemas: true });
    expect(r.spec).toBeUndefined();
    expect(shown(r.diagnostics)).toEqual([
      "one.yaml:31:15 error armada/Chart/v1 b: data.protected.continue_processing: 'x' is not of type 'boolean'",
      'one.yaml:21:3 error armada/Chart/v1 a: data.timeout: received 0 seconds; a timeout must be a whole number of seconds greater than 0; Armada would accept it and fail the chart at its first wait ("Timed out waiting for resource"), its deadline having already passed',
      'one.yaml:21:3 warning armada/Chart/v1 a: data.timeout: the chart timeout is deprecated; use wait.timeout',
    ]);
  });

  test('another manifest of the stream that lists a failed group is not said to fail', async () => {
    const f = put('two.yaml', manifest('site', 'blog') + manifest('other', 'extra') + group('blog', 'a') + group('extra', 'a', '  sequenced: 3\n') + chart('a', '  timeout: 0\n'));
    const r = await resolveInputs([f], { targetManifest: 'site', skipChartSchemas: true });
    expect(r.spec).toBeUndefined();
    expect(r.diagnostics.map((d) => [path.basename(d.location), d.field, d.code])).toEqual([
      ['two.yaml:22:3', 'data.sequenced', 'ARM100'],
      ['two.yaml:33:3', 'data.timeout', 'timeout'],
      ['two.yaml:33:3', 'data.timeout', 'deprecated'],
    ]);
  });

  test('--target-manifest may name a failed manifest: its charts are judged, nothing of it', async () => {
    const f = put('target.yaml', manifest('site', 'blog', '[p]') + manifest('other', 'blog') + group('blog', 'a') + chart('a', '  timeout: 0\n'));
    const r = await resolveInputs([f], { targetManifest: 'site', skipChartSchemas: true });
    expect(r.diagnostics.map((d) => [path.basename(d.location), d.field, d.code])).toEqual([
      ['target.yaml:5:3', 'data.release_prefix', 'ARM100'],
      ['target.yaml:27:3', 'data.timeout', 'timeout'],
      ['target.yaml:27:3', 'data.timeout', 'deprecated'],
    ]);
    // Without a target, the failed manifest still counts: Armada needs one to be chosen.
    const any = await resolveInputs([f], { skipChartSchemas: true });
    expect(any.diagnostics.map((d) => d.message)).toEqual([
      "['p'] is not of type 'string'",
      expect.stringMatching(/^the documents contain 2 manifests .*; choose one with --target-manifest, as Armada requires$/),
    ]);
  });

  test('a value a --set wrote fails the schema at the --set; the rules judge the other chart', async () => {
    const f = put('set.yaml', manifest('site', 'blog') + group('blog', 'a, b') + chart('a', '  timeout: 0\n') + chart('b'));
    const r = await resolveInputs([f], { sets: ['chart:b:wait.timeout=600'], skipChartSchemas: true });
    expect(r.spec).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.location.replace(dir + path.sep, ''), d.field, d.code])).toEqual([
      ['--set[0]', 'data.wait.timeout', 'ARM100'],
      ['set.yaml:21:3', 'data.timeout', 'timeout'],
      ['set.yaml:21:3', 'data.timeout', 'deprecated'],
    ]);
  });

  test('an unrendered fragment still stops the run before the rules', async () => {
    const fragment = chart('b').replace('metadata: {schema: metadata/Document/v1, name: b}', 'metadata: {schema: metadata/Document/v1, name: b, layeringDefinition: {abstract: true, layer: global}}');
    const f = put('fragment.yaml', manifest('site', 'blog') + group('blog', 'a, b') + chart('a', '  timeout: 0\n') + fragment);
    const r = await resolveInputs([f], { skipChartSchemas: true });
    expect(r.diagnostics.map((d) => d.code)).toEqual(['unrendered']);
  });
});

describe('resolveInputs: a name a failed document repeats is reported with the schema error, not after it is fixed', () => {
  const located = (ds: readonly Diagnostic[]) => ds.filter((d) => d.code === 'duplicate-name').map((d) => `${path.basename(d.location)} ${d.document}: ${d.message.split(`${dir}${path.sep}`).join('')}`);
  const bad = '  protected: {continue_processing: x}\n';

  test('a failed chart after a passing one of its name, and a failed group before a passing one', async () => {
    const f = put('repeat.yaml', manifest('site', 'blog') + group('blog', 'a', '  sequenced: 3\n') + group('blog', 'a') + chart('a') + chart('a', bad));
    const r = await resolveInputs([f], { skipChartSchemas: true });
    expect(r.spec).toBeUndefined();
    expect(located(r.diagnostics)).toEqual([
      'repeat.yaml:15:42 armada/ChartGroup/v1 blog: another chart group is already named "blog" (repeat.yaml:8:1); Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind',
      'repeat.yaml:29:42 armada/Chart/v1 a: another chart is already named "a" (repeat.yaml:19:1); Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind',
    ]);
    expect(r.diagnostics.filter((d) => d.code === 'ARM100').map((d) => d.field)).toEqual(['data.sequenced', 'data.protected.continue_processing']);
  });

  test('failed, then passing, then passing: each later document reported once, the third against the second as validation does', async () => {
    const f = put('three.yaml', manifest('site', 'blog') + group('blog', 'a') + chart('a', bad) + chart('a') + chart('a'));
    const r = await resolveInputs([f], { skipChartSchemas: true });
    expect(located(r.diagnostics)).toEqual([
      'three.yaml:24:42 armada/Chart/v1 a: another chart is already named "a" (three.yaml:13:1); Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind',
      'three.yaml:33:42 armada/Chart/v1 a: another chart is already named "a" (three.yaml:23:1); Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind',
    ]);
  });

  test('no failed document: only validation reports a repeated name, once', async () => {
    const f = put('plain-repeat.yaml', manifest('site', 'blog') + group('blog', 'a') + chart('a') + chart('a'));
    const r = await resolveInputs([f], { skipChartSchemas: true });
    expect(located(r.diagnostics)).toHaveLength(1);
  });
});
