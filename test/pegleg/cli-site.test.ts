import * as fs from 'fs';
import * as path from 'path';
import { cli, tmpdir } from '../helpers/cli';
import { doc, LAYERING_POLICY, renderedSites, SITES, siteDefinition, siteRepo } from './helpers';

const order = (site: string) => fs.readFileSync(path.join(SITES, site, 'order.txt'), 'utf8').trim().split('\n');

/** A small site: a global chart layered by a site child, a passphrase substituted into it. */
function smallSite(): string {
  const chart = (name: string) => `---
schema: armada/Chart/v1
metadata:
  schema: metadata/Document/v1
  name: ${name}-global
  labels:
    name: ${name}-global
  layeringDefinition:
    abstract: true
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
  chart_name: ${name}
  release: ${name}
  namespace: default
  wait:
    timeout: 100
    labels:
      release_group: armada-${name}
  source:
    type: local
    location: /charts
    subpath: ${name}
  values:
    replicas: 1
  dependencies: []
`;
  return siteRepo({
    'global/layering-policy.yaml': LAYERING_POLICY,
    'global/charts/blog.yaml': chart('blog'),
    'global/group.yaml': doc('armada/ChartGroup/v1', 'blog-group', 'global', '  chart_group:\n    - blog\n'),
    'global/manifest.yaml': doc('armada/Manifest/v1', 'site-manifest', 'global', '  release_prefix: armada\n  chart_groups:\n    - blog-group\n'),
    'global/other-manifest.yaml': doc('armada/Manifest/v1', 'other', 'global', '  release_prefix: other\n  chart_groups:\n    - blog-group\n'),
    'site/s1/site-definition.yaml': siteDefinition('s1', 'small'),
    'site/s1/blog.yaml': `---
schema: armada/Chart/v1
metadata:
  schema: metadata/Document/v1
  name: blog
  layeringDefinition:
    abstract: false
    layer: site
    parentSelector:
      name: blog-global
    actions:
      - method: merge
        path: .values
  storagePolicy: cleartext
data:
  values:
    replicas: 3
`,
    'site/s1/secrets/db-password.yaml': doc('deckhand/Passphrase/v1', 'db-password', 'site', '  s3cret-db-passw0rd\n').replace('storagePolicy: cleartext', 'storagePolicy: encrypted'),
    'site/s1/deployment.yaml': doc('shipyard/DeploymentConfiguration/v1', 'deployment-configuration', 'site', '  armada:\n    manifest: site-manifest\n'),
  });
}

describe('armada-cdk render', () => {
  test.each(renderedSites())("%s: the files in Pegleg's order render to Deckhand's rendered.yaml, byte for byte (integer keys as integers)", async (site) => {
    const tree = path.join(SITES, site, 'tree');
    const out = path.join(tmpdir(), 'rendered.yaml');
    const r = await cli(['render', '-q', ...order(site).map((f) => path.join(tree, f)), '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^rendered \d+ documents from \d+ files: 0 errors, \d+ warnings?\n$/);
    const expected = fs.readFileSync(path.join(SITES, site, 'rendered.yaml'), 'utf8');
    expect(fs.readFileSync(out, 'utf8')).toBe(expected);
  });

  test("the site that fails to render is refused with Deckhand's reason, at the documents' files, and nothing is written", async () => {
    const site = 'aiab-b69fac2--dev';
    const tree = path.join(SITES, site, 'tree');
    const r = await cli(['render', ...order(site).map((f) => path.join(tree, f))]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: armada/Chart/v1 nfs_htk: Duplicate document exists: [armada/Chart/v1, global] nfs_htk is also at ');
    expect(r.stderr).toMatch(/not rendered: \d+ errors/);
  });

  test('--site renders a hand-written site: layering, substitution, abstract left out, in Pegleg\'s format; the secret is written, as Pegleg writes it', async () => {
    const repo = smallSite();
    const r = await cli(['render', '--site', 's1', '--repo', repo]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('---\n')).toBe(true);
    expect(r.stdout).toContain('\n  values:\n    db:\n      password: s3cret-db-passw0rd\n    replicas: 3\n');
    expect(r.stdout.match(/^schema: armada\/Chart\/v1$/gm)).toHaveLength(1);
    expect(r.stdout.endsWith('...\n')).toBe(true);
  });

  test('integer keys stay integers through layering and substitution, written and sorted as Pegleg writes them', async () => {
    const repo = smallSite();
    const blog = path.join(repo, 'global/charts/blog.yaml');
    fs.writeFileSync(blog, fs.readFileSync(blog, 'utf8').replace('    replicas: 1\n', '    replicas: 1\n    actions:\n      10: {action: b}\n      2: {action: a}\n'));
    fs.writeFileSync(
      path.join(repo, 'site/s1/copy.yaml'),
      doc('x/Copy/v1', 'copy', 'site', '  a: 1\n', '  substitutions:\n    - src: {schema: armada/Chart/v1, name: blog, path: .values.actions}\n      dest: {path: .actions}\n'),
    );
    const r = await cli(['render', '--site', 's1', '--repo', repo]);
    expect(r.code).toBe(0);
    // The site child merged .values onto the parent's (a copy), and the copy took the result.
    expect(r.stdout).toContain('\n  values:\n    actions:\n      2:\n        action: a\n      10:\n        action: b\n    db:\n');
    expect(r.stdout).toContain('\ndata:\n  a: 1\n  actions:\n    2:\n      action: a\n    10:\n      action: b\n');
  });

  test('floats with a whole value stay floats (1.0) through layering, substitution and str(), as Pegleg writes them', async () => {
    const dir = tmpdir();
    const file = path.join(dir, 'site.yaml');
    const meta = (name: string, layer: string, extra = '') => `metadata:\n  schema: metadata/Document/v1\n  name: ${name}\n  storagePolicy: cleartext\n  layeringDefinition:\n    layer: ${layer}\n${extra}`;
    fs.writeFileSync(
      file,
      [
        `---\n${LAYERING_POLICY.replace(/^---\n/, '').replace('    - global\n', '    - global\n    - site\n')}`,
        `---\nschema: x/Conf/v1\n${meta('p', 'global', '  labels: {name: p}\n')}data: {ratio: 1.0, list: [2.0, 3], keep: 4.0, int: 5}\n`,
        `---\nschema: x/Conf/v1\n${meta('c', 'site', '    parentSelector: {name: p}\n    actions: [{method: merge, path: .}, {method: replace, path: .keep}]\n')}data: {keep: 6.0, extra: 7.0}\n`,
        `---\nschema: x/Use/v1\n${meta('u', 'site', '  substitutions:\n    - {src: {schema: x/Conf/v1, name: c, path: .ratio}, dest: {path: .ratio}}\n    - {src: {schema: x/Conf/v1, name: c, path: .keep}, dest: {path: .text, pattern: X}}\n    - {src: {schema: x/Conf/v1, name: c, path: .list}, dest: {path: .list}}\n')}data: {text: ratio=X}\n`,
      ].join(''),
    );
    const r = await cli(['render', '-q', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\ndata:\n  extra: 7.0\n  int: 5\n  keep: 6.0\n  list:\n  - 2.0\n  - 3\n  ratio: 1.0\nmetadata:\n');
    expect(r.stdout).toContain('\ndata:\n  list:\n  - 2.0\n  - 3\n  ratio: 1.0\n  text: ratio=6.0\nmetadata:\n');
  });

  test('usage: --site and files are exclusive; --repo needs --site; stdin is not a site', async () => {
    expect((await cli(['render'])).stderr).toContain('no input: give the site files, or --site NAME');
    expect((await cli(['render', '--site', 's', 'a.yaml'])).stderr).toContain("--site reads the site's own files; received files too");
    expect((await cli(['render', '--repo', 'x', 'a.yaml'])).stderr).toContain('--repo goes with a --site; give --site NAME too');
    expect((await cli(['render', '-'])).code).toBe(2);
  });
});

describe('--site on validate, plan, convert and import', () => {
  test('validate --site: rendered first; the DeploymentConfiguration names the manifest among two', async () => {
    const repo = smallSite();
    const r = await cli(['validate', '--site', 's1', '--repo', repo]);
    expect(r.stderr).toMatch(/valid: manifest site-manifest, 1 chart, 1 group/);
    expect(r.code).toBe(0);
    const other = await cli(['validate', '--site', 's1', '--repo', repo, '--target-manifest', 'other']);
    expect(other.stderr).toMatch(/valid: manifest other, /);
  });

  test('a secret never reaches a diagnostic: the passphrase in a value the schema rejects is shown as <secret>', async () => {
    const repo = smallSite();
    // The passphrase substituted into a field that must be a number.
    const site = fs.readFileSync(path.join(repo, 'global/charts/blog.yaml'), 'utf8').replace('path: .values.db.password', 'path: .wait.timeout');
    fs.writeFileSync(path.join(repo, 'global/charts/blog.yaml'), site);
    const r = await cli(['validate', '--site', 's1', '--repo', repo]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('data.wait.timeout');
    expect(r.stderr).not.toContain('s3cret-db-passw0rd');
    expect(r.stderr).toContain('<secret>');
  });

  test('seaworthy: cleartext values of a chart Deckhand encrypted (it took a certificate key) are shown; the key is not', async () => {
    const site = 'tm-v1.9-fca290a--seaworthy';
    const orderFile = path.join(SITES, site, 'order.txt');
    for (const args of [['--site', 'seaworthy', '--repo', path.join(SITES, site, 'tree'), '--order', orderFile], [path.join(SITES, site, 'rendered.yaml')]]) {
      const r = await cli(['validate', ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('armada/Chart/v1 kubernetes-calico: data.source.type: received "calico"; Armada fetches only local, tar and git sources');
      expect(r.stderr).not.toContain('<secret>');
      expect(r.stderr).not.toContain('PRIVATE KEY');
    }
  });

  test('convert --site to every target, and plan: the same as from the rendered documents', async () => {
    const repo = smallSite();
    const rendered = path.join(tmpdir(), 'r.yaml');
    expect((await cli(['render', '--site', 's1', '--repo', repo, '-o', rendered])).code).toBe(0);
    for (const to of ['airship-v1', 'keleustes-v1alpha1', 'documents-v1', 'documents-v2', 'flux-v2']) {
      // keleustes's upstream CRD has a closed values schema, which these values are not in
      const extra = to === 'keleustes-v1alpha1' ? ['--crd', 'generated'] : [];
      const a = await cli(['convert', '--site', 's1', '--repo', repo, '--to', to, ...extra]);
      const b = await cli(['convert', rendered, '--to', to, ...extra]);
      expect([to, a.code, a.code === 0 ? '' : a.stderr]).toEqual([to, 0, '']);
      expect(a.stdout).toBe(b.stdout);
    }
    const plan = await cli(['plan', '--site', 's1', '--repo', repo, '--format', 'json']);
    expect(plan.stdout).toBe((await cli(['plan', rendered, '--format', 'json'])).stdout);
  });

  test('the documents of other tools are one note line, not a warning each', async () => {
    const repo = smallSite();
    const r = await cli(['convert', '--site', 's1', '--repo', repo, '--to', 'documents-v1']);
    expect(r.stderr.match(/not an Armada document|not Armada documents/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/note: \d+ documents of other tools \(.*deckhand\/Passphrase\/v1.*\) are not Armada documents: Armada ignores them, and convert --to documents-v1 leaves them out\n/);
  });

  test('import --site: no secret written in the code, a siteSecret() reference instead, which reads the rendered site when the program runs', async () => {
    const repo = smallSite();
    const r = await cli(['import', '--site', 's1', '--repo', repo]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('s3cret-db-passw0rd');
    expect(r.stdout).toContain("password: siteSecret('blog', ['db', 'password'])");
    expect(r.stdout).toContain("import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, siteSecret } from 'armada-cdk';");
    const rendered = path.join(tmpdir(), 'r.yaml');
    await cli(['render', '--site', 's1', '--repo', repo, '-o', rendered]);
    const { siteSecret } = await import('../../src');
    const saved = process.env.ARMADA_CDK_SITE;
    try {
      process.env.ARMADA_CDK_SITE = rendered;
      expect(siteSecret('blog', ['db', 'password'])).toBe('s3cret-db-passw0rd');
      expect(() => siteSecret('blog', ['db', 'nope'])).toThrow(`secret value db.nope of chart "blog": ${rendered} (ARMADA_CDK_SITE) has no such value in the chart`);
      delete process.env.ARMADA_CDK_SITE;
      expect(() => siteSecret('blog', ['db', 'password'])).toThrow('set ARMADA_CDK_SITE to the rendered site');
    } finally {
      if (saved === undefined) delete process.env.ARMADA_CDK_SITE;
      else process.env.ARMADA_CDK_SITE = saved;
    }
  });

  /** A site whose chart takes its values whole from an encrypted document: at `.values`, or at the root (merged). */
  const wholeValuesSite = (dest: '.values' | '.') =>
    siteRepo({
      'global/layering-policy.yaml': LAYERING_POLICY,
      'global/chart.yaml': doc(
        'armada/Chart/v1',
        'blog',
        'global',
        '  chart_name: blog\n  release: blog\n  namespace: default\n  wait: {labels: {release_group: armada-blog}}\n  source: {type: local, location: /charts, subpath: blog}\n  values: {replicas: 1}\n',
        `  substitutions:\n    - src: {schema: x/DbValues/v1, name: db, path: .}\n      dest: {path: ${dest}}\n`,
      ),
      'global/group.yaml': doc('armada/ChartGroup/v1', 'blog-group', 'global', '  chart_group:\n    - blog\n'),
      'global/manifest.yaml': doc('armada/Manifest/v1', 'site-manifest', 'global', '  release_prefix: armada\n  chart_groups:\n    - blog-group\n'),
      'site/s1/site-definition.yaml': siteDefinition('s1', 'small'),
      'site/s1/secrets/db.yaml': doc('x/DbValues/v1', 'db', 'site', dest === '.' ? '  values:\n    db: {password: s3cret-db-passw0rd, user: s3cret-db-us3r}\n' : '  db: {password: s3cret-db-passw0rd, user: s3cret-db-us3r}\n').replace(
        'storagePolicy: cleartext',
        'storagePolicy: encrypted',
      ),
    });

  test.each(['.values', '.'] as const)('a secret document substituted at %s: every value is secret, for import (codegen), Helmfile and Flux alike', async (dest) => {
    const repo = wholeValuesSite(dest);
    const imported = await cli(['import', '-q', '--site', 's1', '--repo', repo]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).not.toContain('s3cret');
    expect(imported.stdout).toContain("    db: {\n      password: siteSecret('blog', ['db', 'password']),\n      user: siteSecret('blog', ['db', 'user']),\n    },\n");
    const out = tmpdir();
    const helmfile = await cli(['convert', '-q', '--site', 's1', '--repo', repo, '--to', 'helmfile', '-o', out]);
    expect(helmfile.code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'site-manifest.helmfile.yaml'), 'utf8')).toContain(
      '      - db:\n          password: "ref+envsubst://$ARMADA_SECRET_BLOG_DB_PASSWORD"\n          user: "ref+envsubst://$ARMADA_SECRET_BLOG_DB_USER"\n',
    );
    // Flux on stdout: a warning (an error with -o, where the files would go to Git).
    const flux = await cli(['convert', '--site', 's1', '--repo', repo, '--to', 'flux-v2']);
    expect(flux.code).toBe(0);
    expect(flux.stderr).toContain("values.db.password, values.db.user hold secrets of the site (from Deckhand's secret documents): the HelmRelease would carry them in clear in spec.values, in Git;");
    expect(helmfile.stderr + flux.stderr).not.toContain('s3cret');
  });

  test('usage: --site with files, --repo without --site', async () => {
    expect((await cli(['validate', '--site', 's', 'x.yaml'])).code).toBe(2);
    expect((await cli(['plan', '--repo', 'r', 'x.yaml'])).stderr).toContain('--repo goes with a --site');
  });
});

describe('a real site: --site with Pegleg\'s order gives what its rendered.yaml gives', () => {
  const site = 'tm-v1.9-fca290a--airskiff';
  const tree = path.join(SITES, site, 'tree');
  const rendered = path.join(SITES, site, 'rendered.yaml');
  const bySite = ['--site', 'airskiff', '--repo', tree, '--order', path.join(SITES, site, 'order.txt')];

  test.each([
    ['plan', '--format', 'json'],
    ['convert', '--to', 'documents-v2'],
    ['convert', '--to', 'keleustes-v1alpha1', '--crd', 'generated'],
    ['import'],
  ])('%s', async (command, ...rest) => {
    const a = await cli([command, '-q', ...rest, rendered]);
    const b = await cli([command, '-q', ...rest, ...bySite]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    // The import's header names its input; the rest is the same.
    expect(b.stdout.split('\n').slice(1).join('\n')).toBe(a.stdout.split('\n').slice(1).join('\n'));
    if (command === 'import') {
      expect(a.stdout).not.toContain('password123');
      expect(a.stdout).toContain('siteSecret(');
    }
  });
});
