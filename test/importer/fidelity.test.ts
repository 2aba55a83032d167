/**
 * Armada's own verdicts on edge cases, established from its code (validator, Manifest builder,
 * override handler, chart deploy and wait), asserted through the CLI on small fixtures: exit
 * code, each diagnostic line with its location, and the plan.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { resolveInputs } from '../../src/importer/resolve';
import { buildPlan } from '../../src/model/plan';
import { SchemaVersion } from '../../src/model/spec';
import { cli, tmpdir } from '../helpers/cli';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'fidelity');

/** Runs the CLI on fixture files; returns the exit code and every output line, paths relative to the fixtures. */
async function run(...args: string[]) {
  const full = args.map((a) => (/\.yaml$/.test(a) && fs.existsSync(path.join(FIXTURES, a)) ? path.join(FIXTURES, a) : a));
  const r = await cli(full);
  const text = (r.stdout + r.stderr).split(`${FIXTURES}${path.sep}`).join('');
  return { code: r.code, lines: text.split('\n').filter((l) => l !== '') };
}

const diagnostics = (lines: readonly string[]) => lines.filter((l) => /: (error|warning): /.test(l));

async function plan(files: string[], options: Parameters<typeof resolveInputs>[1] = {}) {
  const r = await resolveInputs(files.map((f) => path.join(FIXTURES, f)), options);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return buildPlan(r.spec!);
}

describe('rules apply only to what Armada builds', () => {
  test('charts in no listed group (a bad namespace, an unknown source type, a subchart cycle) only warn that they are not deployed', async () => {
    const r = await run('validate', 'scope.yaml');
    expect(r.code).toBe(0);
    expect(diagnostics(r.lines)).toEqual([
      'scope.yaml:20:1: warning: armada/Chart/v1 orphan: chart "orphan" is in no chart group of the manifest and no deployed chart uses it as a subchart; it is not deployed',
      'scope.yaml:35:1: warning: armada/Chart/v1 loop-b: chart "loop-b" is in no chart group of the manifest and no deployed chart uses it as a subchart; it is not deployed',
      'scope.yaml:58:1: warning: armada/ChartGroup/v1 g3: chart group "g3" is not listed in the manifest\'s chartGroups; it is not deployed',
    ]);
  });

  test('--set manifest:NAME:chart_groups switches groups, and the rules follow the charts now built', async () => {
    const r = await run('validate', 'scope.yaml', '--set', 'manifest:site:chart_groups=g1,g3');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines).filter((l) => l.includes(': error: '))).toEqual([
      'scope.yaml:27:3: error: armada/Chart/v1 orphan: data.namespace: namespace "Not_A_Namespace" must be a DNS-1123 label: lower-case letters, digits and "-", starting and ending with a letter or digit',
      'scope.yaml:29:5: error: armada/Chart/v1 orphan: data.source.type: received "svn"; Armada fetches only local, tar and git sources (it fails with ChartSourceException before deploying anything)',
      'scope.yaml:47:3: error: armada/Chart/v1 loop-b: data.dependencies: subchart dependencies form a cycle: loop-b -> orphan -> loop-b',
    ]);
  });

  test('a broken manifest that is not the target still fails: Armada builds every manifest of the stream', async () => {
    const r = await run('validate', 'two-manifests.yaml', '--target-manifest', 'site');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines).filter((l) => l.includes(': error: '))).toEqual([
      'two-manifests.yaml:67:7: error: armada/Manifest/v1 old-site: data.chart_groups[1]: manifest "old-site" lists chart group "g2", whose chart "uses-missing" needs subchart "helm-toolkit", which no document defines; Armada builds every manifest of the stream before it applies the target "site", so `armada apply` fails on this one too',
      'two-manifests.yaml:68:7: error: armada/Manifest/v1 old-site: data.chart_groups[2]: manifest "old-site" lists chart group "g9", which no document defines; Armada builds every manifest of the stream before it applies the target "site", so `armada apply` fails on this one too',
    ]);
  });
});

describe('each document is judged by its own schema version', () => {
  test('a v2 manifest lists a v1 group and a v1 chart: chart_name, timeout and test_charts are v1 fields there, not errors', async () => {
    const r = await run('validate', 'mixed-versions.yaml');
    expect(r.code).toBe(0);
    expect(diagnostics(r.lines)).toEqual([
      'mixed-versions.yaml:11:3: warning: armada/Chart/v1 legacy: data.timeout: the chart timeout is deprecated; use wait.timeout',
      'mixed-versions.yaml:41:3: warning: armada/ChartGroup/v1 old-group: data.test_charts: testCharts is deprecated; set test.enabled on the charts',
    ]);
  });

  test('the plan gives each chart the wait of its own version: defaults, native wait, pod rules', async () => {
    const p = await plan(['mixed-versions.yaml']);
    expect(p.schemaVersion).toBe(SchemaVersion.V2);
    const [legacy, modern] = p.steps[0].releases;
    expect([legacy.chart, legacy.schemaVersion, legacy.nativeWait, legacy.waitTimeout]).toEqual(['legacy', SchemaVersion.V1, true, 120]);
    expect(legacy.waitResources.map((w) => `${w.type}${w.required ? '' : '?'}`)).toEqual(['job?', 'pod']);
    expect([modern.chart, modern.schemaVersion, modern.nativeWait]).toEqual(['modern', SchemaVersion.V2, false]);
    expect(modern.waitResources.map((w) => `${w.type}${w.required ? '' : '?'}`)).toEqual(['job?', 'daemonset?', 'statefulset?', 'deployment?', 'pod?']);
    expect([legacy.test.enabled, modern.test.enabled]).toEqual([false, false]);
    const text = await run('plan', 'mixed-versions.yaml');
    expect(text.lines).toContain('  site-legacy  ns default  chart legacy  wait 120s  job?,pod  helm --wait');
  });

  test('documents written back keep each document at its own version, and import writes schemaVersion on the chart', async () => {
    const out = tmpdir();
    const r = await run('convert', 'mixed-versions.yaml', '--to', 'documents-v2', '-o', out);
    expect(r.code).toBe(0);
    expect(r.lines).toContain(
      'mixed-versions.yaml:12:3: warning: armada/Chart/v1 legacy: data.wait.resources: cannot be expressed in armada/Chart/v2 documents: the v1 pod wait skips only pods owned by a Job and repeats until nothing changes; as armada/Chart/v2 it skips every pod that has an owner (Deployment, StatefulSet, DaemonSet, Job pods) and runs once',
    );
    const code = await run('import', 'mixed-versions.yaml', '-o', path.join(out, 'site.ts'));
    expect(code.code).toBe(0);
    const ts = fs.readFileSync(path.join(out, 'site.ts'), 'utf8');
    expect(ts).toContain("new ChartGroup(site, 'old-group', { testCharts: false, schemaVersion: SchemaVersion.V1 });");
    expect(ts).toContain("new Chart(oldGroup, 'legacy', {\n  schemaVersion: SchemaVersion.V1,\n");
    expect(ts).not.toMatch(/'modern', \{\n {2}schemaVersion/);
  });
});

describe('reject what Armada rejects', () => {
  test('an empty document in the stream is an error at its place', async () => {
    const r = await run('validate', 'site.yaml', 'empty-document.yaml');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      'empty-document.yaml:9:1: error: document 2 is empty (an extra \'---\', or only comments); Armada fails on it ("None is not a valid override statement"): remove it',
    ]);
  });

  test('an empty document in a --values file is an error too', async () => {
    const r = await run('validate', 'site.yaml', '-f', 'empty-document.yaml');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toContain('empty-document.yaml:9:1: error: document 2 is empty (an extra \'---\', or only comments); Armada fails on it ("None is not a valid override statement"): remove it');
  });

  test('--set with a non-Armada document before its target fails as in Armada; after it, --set works', async () => {
    const before = await run('validate', 'deckhand-first.yaml', 'site.yaml', '--set', 'chart:blog:values.x=1');
    expect(before.code).toBe(1);
    expect(diagnostics(before.lines)).toEqual([
      '--set[0]: error: "chart:blog:values.x=1": document deckhand/Passphrase/v1 db-password (deckhand-first.yaml:2:1) is not an Armada document and comes before the chart "blog" in the stream; Armada\'s --set looks documents up in stream order and fails on it (\'NoneType\' object has no attribute \'type\'): pass the Armada documents first, or in files of their own',
    ]);
    const after = await run('validate', 'site.yaml', 'deckhand-first.yaml', '--set', 'chart:blog:values.x=1');
    expect(after.code).toBe(0);
  });

  test.each([
    ['a\tb', 'a tab'],
    ['a\nb', 'a newline'],
  ])('--set value %j: Armada\'s JSON round trip refuses %s', async (value, what) => {
    const r = await run('validate', 'site.yaml', '--set', `chart:blog:values.x=${value}`);
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      `--set[0]: error: ${JSON.stringify(`chart:blog:values.x=${value}`)}: the value contains ${what}, which Armada's JSON round trip of --set values refuses ("Invalid control character"); write it as a JSON escape (\\t, \\n, \\u0001) or put the value in a --values file`,
    ]);
  });

  test('errors caused by --set name the --set argument and say that --set values are strings', async () => {
    const r = await run('validate', 'site.yaml', '--set', 'chart:blog:wait.timeout=600');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      `--set[0]: error: armada/Chart/v2 blog: data.wait.timeout: "chart:blog:wait.timeout=600": '600' is not of type 'integer' (--set values are always strings; put typed values, such as numbers, booleans or mappings, in a --values file)`,
    ]);
    const groups = await run('validate', 'site.yaml', '--set', 'manifest:site:chart_groups=blog-group,blog-grp');
    expect(groups.code).toBe(1);
    expect(diagnostics(groups.lines)).toEqual([
      '--set[0]: error: armada/Manifest/v2 site: data.chart_groups[1]: "manifest:site:chart_groups=blog-group,blog-grp": chart group "blog-grp" is not in the manifest; did you mean "blog-group"? (--set values are always strings; put typed values, such as numbers, booleans or mappings, in a --values file)',
    ]);
  });

  test('v2 wait.resources forms that crash Armada at deploy time are errors on deployed charts only', async () => {
    const r = await run('validate', 'wait-forms.yaml');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      'wait-forms.yaml:14:7: error: armada/Chart/v2 removes-unknown: data.wait.resources.cronjob: "cronjob": false removes a type from the default list, which has only job, daemonset, statefulset, deployment, pod; Armada fails on it when it deploys the chart (KeyError)',
      'wait-forms.yaml:30:5: error: armada/Chart/v2 plain-string: data.wait.resources: received "pods"; v2 wait.resources must be a list of resources or a mapping from type to config (the schema lets this through, but Armada fails on it when it deploys the chart: it calls .items() on it)',
      'wait-forms.yaml:47:7: error: armada/Chart/v2 bad-config: data.wait.resources.job: received true; a wait resource must be a mapping (Armada fails on it when it deploys the chart)',
      'wait-forms.yaml:49:9: error: armada/Chart/v2 bad-config: data.wait.resources.pod.timeout: "timeout" is not an option of a pod wait (it takes labels, required); Armada fails on it when it deploys the chart ("invalid config for item in `wait.resources`")',
      'wait-forms.yaml:76:1: warning: armada/Chart/v2 never-deployed: chart "never-deployed" is in no chart group of the manifest and no deployed chart uses it as a subchart; it is not deployed',
    ]);
  });

  test('the valid mapping form of v2 wait.resources expands as Armada\'s get_resources_list', async () => {
    const r = await resolveInputs([path.join(FIXTURES, 'wait-forms.yaml')]);
    const fine = buildPlan(r.spec!).releases.find((x) => x.chart === 'fine-forms')!;
    expect(fine.waitResources.map((w) => [w.type, w.required, w.minReady, w.labels])).toEqual([
      ['job', false, '100%', { release_group: 'armada-fine-forms' }],
      ['daemonset', false, '100%', { release_group: 'armada-fine-forms' }],
      ['statefulset', false, '100%', { release_group: 'armada-fine-forms' }],
      ['deployment', true, 1, { release_group: 'armada-fine-forms' }],
      ['deployment', true, '100%', { release_group: 'armada-fine-forms', component: 'api' }],
    ]);
  });

  test('YAML PyYAML refuses or reads differently: a redefined anchor, Python-equal keys, a label key "on"', async () => {
    const r = await run('validate', 'yaml-keys.yaml');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      'yaml-keys.yaml:11:7: error: armada/Chart/v2 blog: data.wait.labels.on: PyYAML reads the label key on as the boolean True, so Armada selects on "True=..." and no label named "on" matches; quote the key (\'on\')',
      'yaml-keys.yaml:19:7: error: armada/Chart/v2 blog: data.values.ports["1.0"]: the keys 1 and 1.0 are one key in Python (equal values hash alike), so PyYAML keeps only the key 1 with the last value; quote them to keep them apart as strings, or remove one',
      "yaml-keys.yaml:21:13: error: armada/Chart/v2 blog: found duplicate anchor 'a'; first occurrence at line 20, column 12: PyYAML refuses an anchor defined twice in one document; give the second another name",
    ]);
  });

  test('an alias used as a key, naming a mapping, is unhashable', async () => {
    const dir = tmpdir();
    fs.writeFileSync(path.join(dir, 'k.yaml'), fs.readFileSync(path.join(FIXTURES, 'site.yaml'), 'utf8').replace('    copy: *shared\n', '    copy: *shared\n    *shared : 1\n'));
    const r = await cli(['validate', path.join(dir, 'k.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(`${path.join(dir, 'k.yaml')}:24:5: error: armada/Chart/v2 blog: found unhashable key: a mapping or a sequence cannot be a key`);
  });
});

describe('accept what Armada deploys', () => {
  test('a release_prefix ending in "-" gives "armada--blog", a valid Helm release', async () => {
    const r = await run('plan', 'typed-values.yaml');
    expect(r.code).toBe(0);
    expect(r.lines).toContain('  armada--blog  ns default  chart blog  wait 600s  job?,daemonset?,statefulset?,deployment?,pod?  test 300s');
  });

  test('dates, timestamps and integers beyond 2^53 in values are kept, in the form each target reads back', async () => {
    const out = tmpdir();
    expect((await run('convert', 'typed-values.yaml', '--to', 'documents-v2', '-o', out)).code).toBe(0);
    const docs = fs.readFileSync(path.join(out, 'site.documents-v2.yaml'), 'utf8');
    expect(docs).toContain('  values:\n    built: 2001-12-14 21:59:43.100000-05:00\n    released: 2002-12-14\n    serial: 9007199254740993\n');
    // PyYAML (Armada) reads them back as the same date, datetime and int: the YAML 1.1 loader agrees.
    const chart = (yaml.loadAll(docs) as { data: { values: Record<string, unknown> } }[])[0];
    expect(chart.data.values.released).toBeInstanceOf(Date);
    expect((await run('convert', 'typed-values.yaml', '--to', 'airship-v1', '-o', out)).code).toBe(0);
    const cr = fs.readFileSync(path.join(out, 'site.airship-v1.yaml'), 'utf8');
    // Kubernetes and Helm get the text Armada's yaml.safe_dump hands Helm, as strings.
    expect(cr).toContain('  values:\n    built: "2001-12-14 21:59:43.100000-05:00"\n    released: "2002-12-14"\n    serial: 9007199254740993\n');
    expect((await run('convert', 'typed-values.yaml', '--to', 'keleustes-v1alpha1', '-o', out)).code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'site.keleustes-v1alpha1.yaml'), 'utf8')).toContain('  values:\n    built: "2001-12-14 21:59:43.100000-05:00"\n    released: "2002-12-14"\n    serial: 9007199254740993\n');
    // The generated TypeScript holds the string Helm receives and the exact integer.
    expect((await run('import', 'typed-values.yaml', '-o', path.join(out, 'site.ts'))).code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'site.ts'), 'utf8')).toContain("  values: {\n    released: '2002-12-14',\n    built: '2001-12-14 21:59:43.100000-05:00',\n    serial: BigInt('9007199254740993'),\n  },\n");
  });

  test('an empty mapping merged onto a list, a string or null is a no-op; a non-empty one fails as in Armada', async () => {
    const ok = await run('convert', 'site.yaml', '-f', 'empty-override.yaml', '--to', 'documents-v2', '-o', tmpdir());
    expect(ok.code).toBe(0);
    expect(diagnostics(ok.lines)).toEqual([]);
    const bad = await run('validate', 'site.yaml', '-f', 'bad-override.yaml');
    expect(bad.code).toBe(1);
    expect(diagnostics(bad.lines)).toEqual([
      'bad-override.yaml:2:1: error: armada/Chart/v2 blog: data.values.list: the override is a non-empty mapping but the document has a list there (Armada fails on this: it calls .get() on it)',
    ]);
  });

  test('a document changed by an override keeps PyYAML\'s typing of what the override left alone (600.0 is a float)', async () => {
    const dir = tmpdir();
    const site = path.join(dir, 'float.yaml');
    fs.writeFileSync(site, fs.readFileSync(path.join(FIXTURES, 'site.yaml'), 'utf8').replace('  wait:\n', '  wait:\n    timeout: 600.0\n'));
    const r = await cli(['validate', site, '--set', 'chart:blog:values.x=1']);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(`${site}:11:5: error: armada/Chart/v2 blog: data.wait.timeout: 600.0 is not of type 'integer'`);
  });

  test('an override through a YAML alias changes every place that shares the node, with a warning', async () => {
    const out = tmpdir();
    const r = await run('convert', 'alias-override.yaml', '--to', 'documents-v2', '-o', out, '--set', 'chart:blog:wait.labels.tier=web', '--set', 'chart:blog:values.primary.host=db-2');
    expect(r.code).toBe(0);
    expect(diagnostics(r.lines)).toEqual([
      '--set[0]: warning: "chart:blog:wait.labels.tier=web": data.wait.labels is a node the document shares through a YAML alias; as in Armada, the change shows at every place that refers to it',
      '--set[1]: warning: "chart:blog:values.primary.host=db-2": data.values.primary is a node the document shares through a YAML alias; as in Armada, the change shows at every place that refers to it',
    ]);
    const chart = (yaml.loadAll(fs.readFileSync(path.join(out, 'site.documents-v2.yaml'), 'utf8')) as { data: any }[])[0].data;
    expect(chart.wait.resources[0].labels).toEqual({ release_group: 'armada-blog', tier: 'web' });
    expect(chart.values).toEqual({ primary: { host: 'db-2' }, replica: { host: 'db-2' } });
  });
});

describe('kept stricter, and said so', () => {
  test('timeout 0, a min_ready Python\'s int() reads, a duplicate release in a sequenced group, a duplicate chart name', async () => {
    const r = await run('validate', 'stricter.yaml');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      'stricter.yaml:11:5: error: armada/Chart/v2 api: data.wait.timeout: received 0 seconds; a timeout must be a whole number of seconds greater than 0; Armada would accept it and fail the chart at its first wait ("Timed out waiting for resource"), its deadline having already passed',
      'stricter.yaml:16:9: error: armada/Chart/v2 api: data.wait.resources[0].min_ready: received "+50%"; minReady must be a whole number of pods (0 or more) or a percentage "N%" with N from 0 to 100; Armada reads it with Python\'s int() as 50%, the same as "50%"; armada-cdk takes only that plain form, which every target reads alike: write "50%"',
      'stricter.yaml:27:3: error: armada/Chart/v2 api-copy: data.release: Helm release "armada-api" in namespace "default" is already installed by chart "api"; Armada would install it for "api" and then silently upgrade that same release to chart "api-copy"; give one of them another release',
      'stricter.yaml:40:3: error: armada/Chart/v2 api: metadata.name: another chart is already named "api" (stricter.yaml:3:1); Armada would silently use the first one and ignore this one, so armada-cdk requires names unique per kind',
    ]);
  });

  test('a timeout beyond a Go duration is an error (Helm fails on it), with the value read exactly', async () => {
    const r = await run('validate', 'huge-timeout.yaml');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      "huge-timeout.yaml:10:5: error: armada/Chart/v2 blog: data.wait.timeout: received more than 2^53 seconds; Helm reads a timeout as a Go duration, which ends at 9223372036 seconds (about 292 years), so Armada's helm call would fail on it",
    ]);
  });

  test('Deckhand flags on complete documents: a replacement whose parent is gone is rendered (Deckhand keeps the flag), abstract is an error that says what Armada would do', async () => {
    const r = await run('validate', 'deckhand-flags.yaml');
    expect(r.code).toBe(1);
    expect(diagnostics(r.lines)).toEqual([
      'deckhand-flags.yaml:28:5: error: armada/Chart/v2 template: metadata.layeringDefinition.abstract: this document looks like an unrendered Deckhand/Pegleg fragment (it is abstract (metadata.layeringDefinition.abstract: true): Deckhand never hands it to Armada, only its children); Armada reads rendered documents only (it ignores the abstract flag itself and would deploy this document as written): render the site (layering and substitution) first, with armada-cdk render or the --site option',
    ]);
  });
});
