/**
 * A document that fails Armada's schema hides nothing else: validate, plan, convert and import
 * report its schema errors and the rule findings of every document the rules can judge, in input
 * order, without "not found" findings for a reference to the failed document; nothing is written.
 */
import * as fs from 'fs';
import * as path from 'path';
import { cli, tmpdir, write } from '../helpers/cli';

const diagnosticLines = (out: string) => out.split('\n').filter((l) => /: (error|warning): /.test(l));
const lastLine = (s: string) => s.trimEnd().split('\n').pop();

const manifest = (data: string, name = 'site') => `---\nschema: armada/Manifest/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n${data}`;
const group = (name: string, charts: string) => `---\nschema: armada/ChartGroup/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n  chart_group: [${charts}]\n`;
const chart = (name: string, extra = '', { release = name, wait = `{labels: {app: ${name}}}` } = {}) =>
  `---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: ${name}}\ndata:\n  chart_name: ${name}\n  release: ${release}\n  namespace: default\n  wait: ${wait}\n  source: {type: local, location: /charts, subpath: ${name}}\n${extra}`;

const SITE = manifest('  release_prefix: armada\n  chart_groups: [blog]\n');
// blog-1 passes the schema but breaks the rules; blog-2 fails the schema.
const REPRO = SITE + group('blog', 'blog-1, blog-2') + chart('blog-1', '', { wait: '{timeout: -1, resources: [{type: nope}]}' }) + chart('blog-2', '', { release: '5' });

describe('schema errors and rule findings are reported together', () => {
  const dir = tmpdir();
  const file = write(dir, '07.yaml', REPRO);

  test('validate: the schema error of one chart and the rule errors of the other, in input order, no "not found" for the failed chart', async () => {
    const r = await cli(['validate', file]);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(diagnosticLines(r.stderr)).toEqual([
      // blog-1 is deployed (its group passes): the deployment's rules run too.
      `${file}:19:3: warning: armada/Chart/v1 blog-1: data.wait.labels: no wait labels select the nope waited on, so Armada waits on every one in namespace "default"; set wait.labels (e.g. { release_group: "armada-blog-1" })`,
      `${file}:19:10: error: armada/Chart/v1 blog-1: data.wait.timeout: received -1 seconds; a timeout must be a whole number of seconds greater than 0; Armada would accept it and fail the chart at its first wait ("Timed out waiting for resource"), its deadline having already passed`,
      `${file}:19:36: error: armada/Chart/v1 blog-1: data.wait.resources[0].type: received "nope"; Armada waits only on pod, job, deployment, daemonset, statefulset`,
      `${file}:26:3: error: armada/Chart/v1 blog-2: data.release: 5 is not of type 'string'`,
    ]);
    expect(lastLine(r.stderr)).toBe('invalid: 3 errors, 1 warning');
  });

  test('the same in JSON; the manifest is null (the site is not whole)', async () => {
    const r = await cli(['validate', file, '--format', 'json']);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.manifest).toBeNull();
    expect(out.diagnostics.map((d: { location: string; field: string }) => `${d.location} ${d.field}`)).toEqual([
      `${file}:19:3 data.wait.labels`,
      `${file}:19:10 data.wait.timeout`,
      `${file}:19:36 data.wait.resources[0].type`,
      `${file}:26:3 data.release`,
    ]);
  });

  test('a group that fails lists charts the rules still judge on their own, none called missing or not deployed', async () => {
    const f = write(dir, 'group.yaml', manifest('  release_prefix: armada\n  chart_groups: [blog]\n') + group('blog', 'blog-1').replace('data:\n', 'data:\n  sequenced: "no"\n') + chart('blog-1', '  timeout: 0\n'));
    const r = await cli(['validate', f]);
    expect(diagnosticLines(r.stderr)).toEqual([
      `${f}:11:3: error: armada/ChartGroup/v1 blog: data.sequenced: 'no' is not of type 'boolean'`,
      `${f}:22:3: error: armada/Chart/v1 blog-1: data.timeout: received 0 seconds; a timeout must be a whole number of seconds greater than 0; Armada would accept it and fail the chart at its first wait ("Timed out waiting for resource"), its deadline having already passed`,
      `${f}:22:3: warning: armada/Chart/v1 blog-1: data.timeout: the chart timeout is deprecated; use wait.timeout`,
    ]);
    expect([r.code, lastLine(r.stderr)]).toEqual([1, 'invalid: 2 errors, 1 warning']);
  });

  test('a manifest that fails: no manifest-level rule runs, but the charts that pass are judged', async () => {
    // An empty release prefix and no groups would be manifest-level findings: neither is reported.
    const f = write(dir, 'manifest.yaml', manifest('  release_prefix: 5\n  chart_groups: []\n') + group('blog', 'blog-1, gone') + chart('blog-1', '  test: {timeout: -1}\n') + chart('unused'));
    const r = await cli(['validate', f]);
    expect(diagnosticLines(r.stderr)).toEqual([
      `${f}:5:3: error: armada/Manifest/v1 site: data.release_prefix: 5 is not of type 'string'`,
      `${f}:21:10: error: armada/Chart/v1 blog-1: data.test.timeout: received -1 seconds; a timeout must be a whole number of seconds greater than 0`,
    ]);
    expect([r.code, lastLine(r.stderr)]).toEqual([1, 'invalid: 2 errors, 0 warnings']);
  });

  test('a dependency on a chart whose document fails is not missing; the depending chart is judged', async () => {
    const f = write(dir, 'dependency.yaml', SITE + group('blog', 'blog-1') + chart('blog-1', '  dependencies: [helper]\n  timeout: 0\n') + chart('helper', '  upgrade: {no_hooks: "yes"}\n'));
    const r = await cli(['validate', f]);
    expect(diagnosticLines(r.stderr)).toEqual([
      `${f}:22:3: error: armada/Chart/v1 blog-1: data.timeout: received 0 seconds; a timeout must be a whole number of seconds greater than 0; Armada would accept it and fail the chart at its first wait ("Timed out waiting for resource"), its deadline having already passed`,
      `${f}:22:3: warning: armada/Chart/v1 blog-1: data.timeout: the chart timeout is deprecated; use wait.timeout`,
      `${f}:32:13: error: armada/Chart/v1 helper: data.upgrade.no_hooks: 'yes' is not of type 'boolean'`,
    ]);
    expect(r.stderr).not.toMatch(/not in the manifest|not deployed/);
  });

  test('a reference to a name no document defines is still an error next to a failed document', async () => {
    const f = write(dir, 'missing.yaml', SITE + group('blog', 'blog-1, blog-22') + chart('blog-1') + chart('blog-2', '', { release: '5' }));
    const r = await cli(['validate', f]);
    expect(diagnosticLines(r.stderr)).toEqual([
      // The hint may name a chart whose document failed.
      `${f}:11:25: error: armada/ChartGroup/v1 blog: data.chart_group[1]: chart "blog-22" is not in the manifest; did you mean "blog-2"?`,
      `${f}:26:3: error: armada/Chart/v1 blog-2: data.release: 5 is not of type 'string'`,
    ]);
  });
});

describe('plan, convert and import report both and write nothing', () => {
  const dir = tmpdir();
  const file = write(dir, '07.yaml', REPRO);
  const expected = [`${file}:19:3: warning:`, `${file}:19:10: error:`, `${file}:19:36: error:`, `${file}:26:3: error:`];
  const prefixes = (stderr: string) => diagnosticLines(stderr).map((l) => l.split(' armada/')[0]);

  test('plan and convert to stdout: exit 1, stdout empty', async () => {
    for (const args of [['plan', file], ['convert', file, '--to', 'airship-v1'], ['import', file]]) {
      const r = await cli(args);
      expect([args[0], r.code, r.stdout]).toEqual([args[0], 1, '']);
      expect(prefixes(r.stderr)).toEqual(expected);
      expect([args[0], lastLine(r.stderr)]).toEqual([args[0], '3 errors, 1 warning']);
    }
  });

  test('convert -o DIR and import -o FILE: exit 1, nothing written', async () => {
    const out = path.join(tmpdir(), 'out');
    const conv = await cli(['convert', file, '--to', 'documents-v2', '-o', out]);
    expect([conv.code, conv.stdout, prefixes(conv.stderr)]).toEqual([1, '', expected]);
    expect(fs.existsSync(path.join(out, 'site.documents-v2.yaml'))).toBe(false);
    const ts = path.join(dir, 'site.ts');
    const imp = await cli(['import', file, '-o', ts]);
    expect([imp.code, imp.stdout, prefixes(imp.stderr)]).toEqual([1, '', expected]);
    expect(fs.existsSync(ts)).toBe(false);
  });
});
