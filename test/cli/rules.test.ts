/**
 * The command-line rules: streams (diagnostics and usage on stderr, output alone on stdout), exit
 * codes, the summary line, grouped warnings, --quiet, --max-warnings, and the hints.
 */
import * as fs from 'fs';
import * as path from 'path';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared, sharedPath } from '../helpers/shared';

const SIMPLE = readShared('corpus', 'armada__examples__simple.yaml');
const corpus = (f: string) => sharedPath('corpus', f);
const lastLine = (s: string) => s.trimEnd().split('\n').pop();

/** A site of `n` charts in one group, none with wait labels: one `wait-no-labels` warning each. */
function bigSite(n: number, extra = ''): string {
  const charts = Array.from({ length: n }, (_, i) =>
    `---\nschema: armada/Chart/v1\nmetadata: {schema: metadata/Document/v1, name: c${i}}\ndata:\n  chart_name: c${i}\n  release: c${i}\n  namespace: ns\n  values: {}\n  source: {type: local, location: /charts, subpath: c${i}}\n${i === 0 ? extra : ''}`,
  ).join('');
  const group = `---\nschema: armada/ChartGroup/v1\nmetadata: {schema: metadata/Document/v1, name: g}\ndata:\n  sequenced: false\n  chart_group: [${Array.from({ length: n }, (_, i) => `c${i}`).join(', ')}]\n`;
  const manifest = '---\nschema: armada/Manifest/v1\nmetadata: {schema: metadata/Document/v1, name: big}\ndata:\n  release_prefix: p\n  chart_groups: [g]\n';
  return charts + group + manifest;
}

describe('streams and the summary line', () => {
  const dir = tmpdir();
  const valid = write(dir, 'simple.yaml', SIMPLE);
  const invalid = write(dir, 'typo.yaml', SIMPLE.replace('sequenced: False', 'sequnced: False'));

  test('validate prints its diagnostics and result on stderr, nothing on stdout', async () => {
    const ok = await cli(['validate', valid]);
    expect([ok.code, ok.stdout]).toEqual([0, '']);
    expect(lastLine(ok.stderr)).toBe('valid: manifest simple-armada, 2 charts, 1 group: 0 errors, 2 warnings');
    const bad = await cli(['validate', invalid]);
    expect([bad.code, bad.stdout]).toEqual([1, '']);
    expect(bad.stderr).toContain(`${invalid}:47:3: error: armada/ChartGroup/v1 blog-group: data.sequnced: Additional properties are not allowed`);
    // The model's rules (and their warnings) run on documents the schemas accept.
    expect(lastLine(bad.stderr)).toBe('invalid: 1 error, 0 warnings');
  });

  test('plan, convert and import keep stdout for their output and end stderr with the summary', async () => {
    for (const args of [['plan', valid], ['convert', valid, '--to', 'documents-v1'], ['import', valid]]) {
      const r = await cli(args);
      expect([args[0], r.code]).toEqual([args[0], 0]);
      expect(r.stdout).not.toMatch(/warning:/);
      expect(r.stderr.split('\n').filter((l) => l.includes(': warning: '))).toHaveLength(2);
      expect([args[0], lastLine(r.stderr)]).toEqual([args[0], '0 errors, 2 warnings']);
    }
    const bad = await cli(['convert', invalid, '--to', 'airship-v1']);
    expect([bad.code, bad.stdout, lastLine(bad.stderr)]).toEqual([1, '', '1 error, 0 warnings']);
  });

  test('usage errors and the usage without a command go to stderr, exit 2; -V prints the version', async () => {
    const none = await cli([]);
    expect([none.code, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toContain('Usage: armada-cdk <command> [options]');
    const unknown = await cli(['validate', valid, '--bogus']);
    expect([unknown.code, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr).toBe('armada-cdk validate: unknown option --bogus\nRun armada-cdk validate --help for usage.\n');
    const help = await cli(['--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    for (const v of ['-V', '-v', '--version']) {
      const r = await cli([v]);
      expect([v, r.code, r.stdout]).toEqual([v, 0, `${JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).version}\n`]);
    }
  });

  test('counts are singular where they are one: plan text, import, convert -o', async () => {
    const one = write(dir, 'one.yaml', bigSite(1));
    const plan = await cli(['plan', one]);
    expect(plan.stdout.split('\n')[0]).toBe('manifest big (release prefix p): 1 step, 1 release');
    const out = tmpdir();
    const imp = await cli(['import', one, '-o', path.join(out, 'site.ts')]);
    expect(imp.stderr).toContain(`wrote ${path.join(out, 'site.ts')} (1 chart, 1 group)\n`);
    const conv = await cli(['convert', one, '--to', 'airship-v1', '-o', out], { cwd: out });
    expect(conv.stderr).toContain('wrote big.airship-v1.yaml (1 object)\n');
  });
});

describe('many warnings', () => {
  const dir = tmpdir();
  const big = write(dir, 'big.yaml', bigSite(40));

  test('a rule warning more than 3 times is one line, with the count and the first few documents', async () => {
    const r = await cli(['validate', big]);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes(': warning: '));
    expect(warnings).toEqual([
      `${big}:4:1: warning: armada/Chart/v1 c0: data.wait.labels: no wait labels select the job, pod waited on, so Armada waits on every one in namespace "ns"; set wait.labels (e.g. { release_group: "p-c0" }) [wait-no-labels: 40 warnings like this one, also in armada/Chart/v1 c1, armada/Chart/v1 c2, armada/Chart/v1 c3 and 36 more]`,
    ]);
    expect(lastLine(r.stderr)).toBe('valid: manifest big, 40 charts, 1 group: 0 errors, 40 warnings');
  });

  test('--all-warnings prints each of them on its own line', async () => {
    const r = await cli(['validate', big, '--all-warnings']);
    const warnings = r.stderr.split('\n').filter((l) => l.includes(': warning: '));
    expect(warnings.map((l) => / armada\/Chart\/v1 (c\d+):/.exec(l)?.[1])).toEqual(Array.from({ length: 40 }, (_, i) => `c${i}`));
    expect(warnings.some((l) => l.includes('warnings like this one'))).toBe(false);
    expect(lastLine(r.stderr)).toBe('valid: manifest big, 40 charts, 1 group: 0 errors, 40 warnings');
  });

  test('three or fewer are printed one by one', async () => {
    const r = await cli(['validate', write(dir, 'three.yaml', bigSite(3))]);
    expect(r.stderr.split('\n').filter((l) => l.includes(': warning: ')).map((l) => / armada\/Chart\/v1 (c\d):/.exec(l)?.[1])).toEqual(['c0', 'c1', 'c2']);
  });

  test('--quiet prints errors only; the summary still counts the warnings', async () => {
    const broken = write(dir, 'broken.yaml', bigSite(40, '  timeout: -1\n'));
    const r = await cli(['convert', broken, '--to', 'airship-v1', '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^.*broken\.yaml:\d+:\d+: error: armada\/Chart\/v1 c0: data\.timeout: /),
      '1 error, 41 warnings',
    ]);
    expect((await cli(['validate', big, '-q'])).stderr).toBe('valid: manifest big, 40 charts, 1 group: 0 errors, 40 warnings\n');
  });

  test('--max-warnings N fails the run (exit 1, nothing written) above N', async () => {
    const over = await cli(['validate', big, '--max-warnings', '39']);
    expect(over.code).toBe(1);
    expect(lastLine(over.stderr)).toBe('valid: manifest big, 40 charts, 1 group: 0 errors, 40 warnings; more than --max-warnings 39');
    expect((await cli(['validate', big, '--max-warnings', '40'])).code).toBe(0);
    const json = await cli(['validate', big, '--max-warnings', '0', '--format', 'json']);
    expect([json.code, JSON.parse(json.stdout).warnings]).toEqual([1, 40]);
    const out = tmpdir();
    const conv = await cli(['convert', big, '--to', 'documents-v1', '-o', out, '--max-warnings', '0']);
    expect([conv.code, fs.readdirSync(out)]).toEqual([1, []]);
    expect(lastLine(conv.stderr)).toBe('0 errors, 40 warnings; more than --max-warnings 0');
    const bad = await cli(['validate', big, '--max-warnings', 'some']);
    expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, 'armada-cdk validate: --max-warnings must be a whole number (0 or more); received "some"']);
  });
});

describe('input hints', () => {
  const dir = tmpdir();

  test('unexpanded ${VAR} placeholders are warnings that name envsubst', async () => {
    const r = await cli(['validate', write(dir, 'env.yaml', SIMPLE.replace('location: https://github.com/gardlt/hello-world-chart\n    subpath: .\n    reference: 87a', 'location: ${CHART_REPO}/hello-world-chart\n    subpath: .\n    reference: 87a'))]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      ':17:5: warning: armada/Chart/v1 blog-1: data.source.location: ${CHART_REPO} is not expanded: Armada reads the string as written; expand the environment variables first, for example envsubst < site.yaml | armada-cdk validate -\n',
    );
  });

  test('a placeholder written with an escape is found too; a document with neither is not walked for one', async () => {
    const escaped = SIMPLE.replace('location: https://github.com/gardlt/hello-world-chart\n', 'location: "\\x24{CHART_REPO}/hello-world-chart"\n');
    const r = await cli(['validate', write(dir, 'escaped.yaml', escaped)]);
    expect(r.stderr).toContain(':17:5: warning: armada/Chart/v1 blog-1: data.source.location: ${CHART_REPO} is not expanded');
    const folded = SIMPLE.replace('location: https://github.com/gardlt/hello-world-chart\n', 'location: "$\n      {CHART_REPO}"\n');
    expect((await cli(['validate', write(dir, 'folded.yaml', folded)])).stderr).not.toContain('is not expanded');
  });

  test('did you mean, for the enumerated values: source, wait and pre-upgrade delete types', async () => {
    const r = await cli(['validate', write(dir, 'gitt.yaml', SIMPLE.replace('type: git\n', 'type: gitt\n'))]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(':16:5: error: armada/Chart/v1 blog-1: data.source.type: received "gitt" (did you mean "git"?); Armada fetches only local, tar and git sources');
    const types = SIMPLE.replace('  upgrade:\n    no_hooks: false\n', '  upgrade:\n    no_hooks: false\n    pre:\n      delete:\n        - type: jobs\n  wait:\n    labels: {app: blog}\n    resources:\n      - type: statefulsett\n');
    const t = await cli(['validate', write(dir, 'types.yaml', types)]);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain(':20:9: error: armada/Chart/v1 blog-1: data.wait.resources[0].type: received "statefulsett"; Armada waits only on pod, job, deployment, daemonset, statefulset (did you mean "statefulset"?)\n');
    expect(t.stderr).toContain(':16:11: warning: armada/Chart/v1 blog-1: data.upgrade.pre.delete[0].type: received "jobs" (did you mean "job"?); Armada deletes only job, cronjob, pod before an upgrade');
  });

  test('a known key one level off is pointed at its level', async () => {
    const shallow = SIMPLE.replace('  values: {}\n', '  values: {}\n  wait:\n    timeout: 100\n  labels:\n    app: blog\n');
    const r = await cli(['validate', write(dir, 'shallow.yaml', shallow)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("data.labels: Additional properties are not allowed ('labels' was unexpected): 'labels' is a key of data.wait: is it indented one level too little?");
    const deep = SIMPLE.replace('  upgrade:\n    no_hooks: false\n', '  upgrade:\n    no_hooks: false\n    options:\n      pre: {}\n');
    const d = await cli(['validate', write(dir, 'deep.yaml', deep)]);
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(":15:7: error: armada/Chart/v1 blog-1: data.upgrade.options.pre: Additional properties are not allowed ('pre' was unexpected): 'pre' is a key of data.upgrade: is it indented one level too far?");
  });

  test('--target-manifest is not suggested again once given', async () => {
    const manifest = SIMPLE.split('---\n').slice(-1)[0];
    const f = write(dir, 'same-name.yaml', SIMPLE + '---\n' + manifest);
    const r = await cli(['validate', f, '--target-manifest', 'simple-armada']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('manifests named "simple-armada"');
    expect(r.stderr).toContain('--target-manifest cannot choose between them; rename or remove all but one');
    expect(r.stderr).not.toContain('choose one with --target-manifest');
  });
});

describe('convert options', () => {
  test.each([
    [['--to', 'documents-v1', '--sync-waves'], '--sync-waves applies to --to airship-v1 only; received --to documents-v1'],
    [['--to', 'airship-v1', '--release-naming', 'as-written'], '--release-naming applies to --to keleustes-v1alpha1 only; received --to airship-v1'],
    [['--to', 'documents-v2', '--crd', 'generated'], '--crd applies to --to keleustes-v1alpha1 only; received --to documents-v2'],
  ])('%j is a usage error', async (args, message) => {
    const r = await cli(['convert', corpus('armada__examples__simple.yaml'), ...args]);
    expect([r.code, r.stdout, r.stderr.split('\n')[0]]).toEqual([2, '', `armada-cdk convert: ${message}`]);
  });

  test('keleustes: real OpenStack-Helm values fail the upstream closed values schema, with a note; --crd generated keeps them', async () => {
    const file = corpus('openstack-helm-infra__tools__deployment__armada__manifests__armada-cluster-ingress.yaml');
    const upstream = await cli(['convert', file, '--to', 'keleustes-v1alpha1']);
    expect([upstream.code, upstream.stdout]).toEqual([1, '']);
    expect(upstream.stderr).toContain('error: armada/Chart/v1 ingress-kube-system: data.values.deployment.mode: the keleustes ArmadaChart CRD rejects values.deployment.mode: received string; the CRD requires boolean');
    const lines = upstream.stderr.trimEnd().split('\n');
    expect(lines.slice(-2)).toEqual([
      'note: these values were checked against the upstream keleustes ArmadaChart CRD (--crd upstream, the default), whose closed values schema accepts only the values it lists. If the cluster has the CRD armada-cdk generates (ArmadaOperator; its values are free-form), convert with --crd generated.',
      '2 errors, 5 warnings',
    ]);
    const generated = await cli(['convert', file, '--to', 'keleustes-v1alpha1', '--crd', 'generated']);
    expect(generated.code).toBe(0);
    expect(generated.stdout).toContain('      mode: cluster\n');
    expect(generated.stderr).not.toContain('keleustes ArmadaChart CRD');
  });

  test('keleustes: values rejected only past the first 1,000 findings of a chart get the note as well', async () => {
    const keys = Array.from({ length: 1_000 }, (_, i) => `    k${i}: ${i}\n`).join('');
    const site = readShared('corpus', 'armada__examples__simple.yaml').replace('  values: {}\n', `  values:\n${keys}    conf:\n      sysctl:\n        a: 1\n`);
    const file = write(tmpdir('armada-cdk-rules-'), 'late-rejects.yaml', site);
    const r = await cli(['convert', file, '--to', 'keleustes-v1alpha1']);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.includes(': error: '))).toEqual([
      expect.stringMatching(/: error: armada\/Chart\/v1 blog-1: data\.values: the keleustes ArmadaChart CRD rejects 1 more value of this chart \(of the wrong type for its closed values schema\), besides those reported \(past the first 1,000 of a chart, they are counted, not listed one by one\)$/),
    ]);
    expect(lines[lines.length - 2]).toMatch(/^note: these values were checked against the upstream keleustes ArmadaChart CRD/);
  });
});
