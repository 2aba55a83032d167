/** `armada-cdk convert --to helmfile`: the helmfile, where it goes, the hooks' input, and secrets. */
import * as fs from 'fs';
import * as path from 'path';
import { resolveInputs } from '../../src/importer/resolve';
import { buildPlan } from '../../src/model/plan';
import { toHelmfile } from '../../src/model/wire/helmfile';
import { toYamlDocument } from '../../src/model/wire/yaml';
import { cli, tmpdir, write } from '../helpers/cli';
import { doc, LAYERING_POLICY, siteDefinition, siteRepo } from '../pegleg/helpers';
import { sharedPath } from '../helpers/shared';

const SIMPLE = sharedPath('corpus', 'armada__examples__simple.yaml');

describe('convert --to helmfile', () => {
  test('stdout: one YAML document (no marker), what toHelmfile makes, the hooks reading the files as given (absolute stays absolute)', async () => {
    const r = await cli(['convert', SIMPLE, '--to', 'helmfile', '-q']);
    expect(r.code).toBe(0);
    const spec = (await resolveInputs([SIMPLE])).spec!;
    const expected = toYamlDocument(toHelmfile(spec, buildPlan(spec), { waitInput: [SIMPLE] }).helmfile);
    expect(r.stdout).toBe(expected);
    expect(r.stdout.startsWith('releases:\n')).toBe(true);
    expect(r.stdout).toContain(`          - wait\n          - ${SIMPLE}\n          - "--chart"\n          - blog-1\n`);
  });

  test('-o DIR: DIR/<manifest>.helmfile.yaml, the hooks reading relative inputs from DIR, with -f, --set and --target-manifest', async () => {
    const dir = tmpdir();
    const site = path.relative(process.cwd(), write(dir, 'site.yaml', fs.readFileSync(SIMPLE, 'utf8')));
    const over = path.relative(process.cwd(), write(dir, 'over.yaml', ''));
    const r = await cli(['convert', site, '-f', over, '--set', 'chart:blog-1:values.x=1', '--target-manifest', 'simple-armada', '--to', 'helmfile', '-o', path.join(dir, 'out'), '--kube-context', 'prod', '-q']);
    expect(r.code).toBe(0);
    expect(r.stderr.endsWith(`0 errors, 3 warnings\nwrote ${path.relative(process.cwd(), path.join(dir, 'out', 'simple-armada.helmfile.yaml'))}\n`)).toBe(true);
    const text = fs.readFileSync(path.join(dir, 'out', 'simple-armada.helmfile.yaml'), 'utf8');
    expect(text.startsWith('helmDefaults:\n  kubeContext: prod\nreleases:\n')).toBe(true);
    expect(text).toContain(['          - wait', '          - ../site.yaml', '          - "--target-manifest"', '          - simple-armada', '          - "--values"', '          - ../over.yaml', '          - "--set"', '          - chart:blog-1:values.x=1', '          - "--chart"', '          - blog-1', '          - "--context"', '          - prod', '          - "--test"', ''].join('\n'));
  });

  test('usage: stdin cannot be read again by the hooks; helmfile options with other targets; --chart-path CHART=DIR', async () => {
    expect((await cli(['convert', '-', '--to', 'helmfile'], { stdin: 'x: 1' })).stderr).toContain("--to helmfile: the helmfile's hooks read the input again, so it cannot be stdin (-); give it as files");
    expect((await cli(['convert', SIMPLE, '--to', 'flux-v2', '--kube-context', 'x'])).stderr).toContain('--kube-context applies to --to helmfile only; received --to flux-v2');
    expect((await cli(['convert', SIMPLE, '--to', 'helmfile', '--chart-path', 'blog-1'])).stderr).toContain('--chart-path must be CHART=DIR; received "blog-1"');
    const r = await cli(['convert', SIMPLE, '--to', 'helmfile', '-q', '--chart-path', 'blog-1=charts/blog']);
    expect(r.stdout).toContain('    chart: ./charts/blog\n');
  });

  test('a Pegleg site: the secret is a ref+envsubst reference, never in clear, and its variable is named', async () => {
    const repo = siteRepo({
      'global/layering-policy.yaml': LAYERING_POLICY,
      'global/chart.yaml': `---
schema: armada/Chart/v1
metadata:
  schema: metadata/Document/v1
  name: blog
  layeringDefinition:
    abstract: false
    layer: global
  storagePolicy: cleartext
  substitutions:
    - src:
        schema: deckhand/Passphrase/v1
        name: db-password
        path: .
      dest:
        path: .values.db.password
data:
  chart_name: blog
  release: blog
  namespace: default
  wait:
    labels:
      release_group: armada-blog
  source:
    type: local
    location: /charts
    subpath: blog
  values:
    replicas: 1
`,
      'global/group.yaml': doc('armada/ChartGroup/v1', 'blog-group', 'global', '  chart_group:\n    - blog\n'),
      'global/manifest.yaml': doc('armada/Manifest/v1', 'site-manifest', 'global', '  release_prefix: armada\n  chart_groups:\n    - blog-group\n'),
      'site/s1/site-definition.yaml': siteDefinition('s1', 'small'),
      'site/s1/secrets/db-password.yaml': doc('deckhand/Passphrase/v1', 'db-password', 'site', '  s3cret-db-passw0rd\n').replace('storagePolicy: cleartext', 'storagePolicy: encrypted'),
    });
    const out = tmpdir();
    const r = await cli(['convert', '--site', 's1', '--repo', repo, '--to', 'helmfile', '-o', out]);
    expect(r.code).toBe(0);
    const text = fs.readFileSync(path.join(out, 'site-manifest.helmfile.yaml'), 'utf8');
    expect(text).not.toContain('s3cret-db-passw0rd');
    expect(r.stderr).not.toContain('s3cret-db-passw0rd');
    expect(text).toContain('      - db:\n          password: "ref+envsubst://$ARMADA_SECRET_BLOG_DB_PASSWORD"\n');
    expect(r.stderr).toContain('values.db.password: for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_BLOG_DB_PASSWORD; set ARMADA_SECRET_BLOG_DB_PASSWORD in the environment of helmfile');
    expect(r.stderr).toContain('note: 1 secret value of the site is written as a ref+envsubst:// reference; set its variable in the environment of helmfile, or change the reference to your secret store:\n  ARMADA_SECRET_BLOG_DB_PASSWORD: release default/armada-blog, values.db.password\n0 errors, 1 warning\n');
    expect(text).toContain(`          - "--site"\n          - s1\n          - "--repo"\n          - ${repo}\n`);
  });

  test('a Pegleg site whose secret is a mapping and a list: a reference per leaf, each variable named; import reads the mapping whole at run time', async () => {
    const repo = siteRepo({
      'global/layering-policy.yaml': LAYERING_POLICY,
      'global/chart.yaml': doc(
        'armada/Chart/v1',
        'blog',
        'global',
        '  chart_name: blog\n  release: blog\n  namespace: default\n  wait: {labels: {release_group: armada-blog}}\n  source: {type: local, location: /charts, subpath: blog}\n  values: {conf: {plain: x}}\n',
        '  substitutions:\n    - src: {schema: x/DbValues/v1, name: db, path: .block}\n      dest: {path: .values.conf.secret_block}\n    - src: {schema: x/DbValues/v1, name: db, path: .hosts}\n      dest: {path: .values.conf.hosts}\n',
      ),
      'global/group.yaml': doc('armada/ChartGroup/v1', 'blog-group', 'global', '  chart_group:\n    - blog\n'),
      'global/manifest.yaml': doc('armada/Manifest/v1', 'site-manifest', 'global', '  release_prefix: armada\n  chart_groups:\n    - blog-group\n'),
      'site/s1/site-definition.yaml': siteDefinition('s1', 'small'),
      'site/s1/secrets/db.yaml': doc('x/DbValues/v1', 'db', 'site', '  block: {user: s3cret-db-us3r, port: 54321, tls: {}}\n  hosts: [s3cret-h0st-a, s3cret-h0st-b]\n').replace('storagePolicy: cleartext', 'storagePolicy: encrypted'),
    });
    const out = tmpdir();
    const r = await cli(['convert', '--site', 's1', '--repo', repo, '--to', 'helmfile', '-o', out]);
    expect(r.code).toBe(0);
    const text = fs.readFileSync(path.join(out, 'site-manifest.helmfile.yaml'), 'utf8');
    expect(text.slice(text.indexOf('    values:\n'))).toBe(
      [
        '    values:',
        '      - conf:',
        '          hosts:',
        '            - "ref+envsubst://$ARMADA_SECRET_BLOG_CONF_HOSTS_0"',
        '            - "ref+envsubst://$ARMADA_SECRET_BLOG_CONF_HOSTS_1"',
        '          plain: x',
        '          secret_block:',
        '            port: "ref+envsubst://$ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_PORT"',
        '            tls: {}',
        '            user: "ref+envsubst://$ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_USER"',
        '',
      ].join('\n'),
    );
    // The report folds the four warnings of the values into one line; the note names every variable, in the file's order.
    expect(r.stderr).toContain('data.values.conf.hosts[0]: for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_BLOG_CONF_HOSTS_0; set ARMADA_SECRET_BLOG_CONF_HOSTS_0 in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...) [helmfile-secret: 4 warnings like this one]\n');
    expect(r.stderr.slice(r.stderr.indexOf('note: 4 secret values'))).toBe(
      [
        'note: 4 secret values of the site are written as ref+envsubst:// references; set each variable in the environment of helmfile, or change the references to your secret store:',
        '  ARMADA_SECRET_BLOG_CONF_HOSTS_0: release default/armada-blog, values.conf.hosts[0]',
        '  ARMADA_SECRET_BLOG_CONF_HOSTS_1: release default/armada-blog, values.conf.hosts[1]',
        '  ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_PORT: release default/armada-blog, values.conf.secret_block.port',
        '  ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_USER: release default/armada-blog, values.conf.secret_block.user',
        '0 errors, 4 warnings',
        `wrote ${path.relative(process.cwd(), path.join(out, 'site-manifest.helmfile.yaml'))}`,
        '',
      ].join('\n'),
    );
    // With --all-warnings each has its line; the non-string one says vals gives back a string.
    const all = await cli(['convert', '--site', 's1', '--repo', repo, '--to', 'helmfile', '--all-warnings']);
    expect(all.stderr.split('\n').filter((l) => l.includes('helmfile-secret') || l.includes('a secret value')).map((l) => l.slice(l.indexOf('data.values.')))).toEqual([
      'data.values.conf.hosts[0]: for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_BLOG_CONF_HOSTS_0; set ARMADA_SECRET_BLOG_CONF_HOSTS_0 in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...)',
      'data.values.conf.hosts[1]: for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_BLOG_CONF_HOSTS_1; set ARMADA_SECRET_BLOG_CONF_HOSTS_1 in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...)',
      'data.values.conf.secret_block.port: for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_PORT; set ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_PORT in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...); vals gives back a string, where the value was not one',
      'data.values.conf.secret_block.user: for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_USER; set ARMADA_SECRET_BLOG_CONF_SECRET_BLOCK_USER in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...)',
    ]);
    expect(all.stdout).toBe(text);
    for (const secret of ['s3cret', '54321']) {
      expect(text).not.toContain(secret);
      expect(r.stderr + all.stderr).not.toContain(secret);
    }
    // import writes a reader of the value, which gives the mapping and the list as they are.
    const imported = await cli(['import', '-q', '--site', 's1', '--repo', repo]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).not.toContain('s3cret');
    expect(imported.stdout).toContain("hosts: siteSecret('blog', ['conf', 'hosts']),");
    expect(imported.stdout).toContain("secret_block: siteSecret('blog', ['conf', 'secret_block']),");
  });
});
