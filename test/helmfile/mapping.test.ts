/** Each Armada field as a Helmfile release field, and each warning of what Helmfile cannot say. */
import { ArmadaManifest, Chart, ChartGroup, ChartProps, ChartSource, Duration, SchemaVersion, WaitResource } from '../../src';
import { HelmfileOptions, hookArg, SYNC_STATUS_ARG, toHelmfile } from '../../src/model/wire/helmfile';
import { helmfileChart } from '../../src/model/wire/helmfile-sources';
import { toYamlDocument } from '../../src/model/wire/yaml';

const TAR = ChartSource.tar('https://charts.example.org/charts/mariadb-0.1.0.tgz', { subpath: 'mariadb' });

function oneChart(props: Partial<ChartProps> = {}, options: HelmfileOptions = { waitInput: ['site.yaml'] }, version = SchemaVersion.V1) {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship', schemaVersion: version });
  new Chart(new ChartGroup(site, 'g'), 'mariadb', { namespace: 'openstack', source: TAR, ...props });
  const { spec, plan } = site.resolve();
  const r = toHelmfile(spec, plan, options);
  return { ...r, release: (r.helmfile.releases as any[])[0], findings: r.diagnostics.all.map((d) => [d.severity, d.field, d.code, d.message]) };
}

describe('Helmfile release fields', () => {
  test('a v1 chart with defaults: name, namespace, chart, labels, native wait, timeout, a postsync wait with tests', () => {
    const { helmfile, findings } = oneChart();
    expect(findings).toEqual([]);
    expect(helmfile).toEqual({
      releases: [
        {
          name: 'airship-mariadb',
          namespace: 'openstack',
          chart: 'https://charts.example.org/charts/mariadb-0.1.0.tgz',
          labels: { manifest: 'site', group: 'g', step: '0' },
          disableOpenAPIValidation: true,
          wait: true,
          timeout: 900,
          hooks: [{ events: ['postsync'], showlogs: true, command: 'armada-cdk', args: ['wait', 'site.yaml', '--chart', 'mariadb', '--test', SYNC_STATUS_ARG] }],
        },
      ],
    });
  });

  test('v2: native wait off; wait.timeout; force; tests off and no resources: no hook', () => {
    const { release } = oneChart({ wait: { timeout: Duration.seconds(120), resources: [] }, test: { enabled: false }, upgrade: { options: { force: true } } }, undefined, SchemaVersion.V2);
    expect([release.wait, release.timeout, release.force, release.hooks]).toEqual([false, 120, true, undefined]);
  });

  test('resources waited on without tests: a postsync wait without --test; kube context, command and helm passed on', () => {
    const { helmfile } = oneChart({ test: { enabled: false }, wait: { resources: [WaitResource.deployment({ minReady: '50%' })] } }, { waitInput: ['../site.yaml', '--values', 'o.yaml'], kubeContext: 'prod', armadaCdkCommand: './node_modules/.bin/armada-cdk', helmCommand: 'helm3' });
    expect(helmfile.helmDefaults).toEqual({ kubeContext: 'prod' });
    expect((helmfile.releases as any[])[0].hooks).toEqual([
      { events: ['postsync'], showlogs: true, command: './node_modules/.bin/armada-cdk', args: ['wait', '../site.yaml', '--values', 'o.yaml', '--chart', 'mariadb', '--context', 'prod', SYNC_STATUS_ARG] },
    ]);
    const tested = oneChart({}, { waitInput: ['s.yaml'], helmCommand: 'helm3' }).release.hooks[0].args;
    expect(tested).toEqual(['wait', 's.yaml', '--chart', 'mariadb', '--test', '--helm', 'helm3', SYNC_STATUS_ARG]);
    // The one template of the hooks is ours: Helmfile renders it to how the sync ended.
    expect(SYNC_STATUS_ARG).toBe('--sync-status={{ if .Event.Error }}failed{{ else }}ok{{ end }}');
  });

  test('upgrade.pre.delete: a presync hook running the pre-upgrade deletes, before the postsync wait', () => {
    const { release, findings } = oneChart({ upgrade: { pre: { delete: [{ type: 'job', labels: { component: 'db-sync' } }] } } });
    expect(release.hooks.map((h: any) => [h.events, h.args])).toEqual([
      [['presync'], ['wait', 'site.yaml', '--chart', 'mariadb', '--pre-upgrade']],
      [['postsync'], ['wait', 'site.yaml', '--chart', 'mariadb', '--test', SYNC_STATUS_ARG]],
    ]);
    expect(findings).toEqual([['warning', 'upgrade.pre.delete', 'helmfile-assumption', "for Helmfile: upgrade.pre.delete runs in a presync hook (armada-cdk wait --pre-upgrade), which deletes only when the release is installed already, as Armada does; its time is not taken from the release's wait.timeout"]]);
  });

  test('hook arguments are Go templates in Helmfile: {{ of an input file name is printed, never run', () => {
    expect(hookArg('a{{.Release.Name}}b')).toBe('a{{"{{"}}.Release.Name}}b');
    const { release } = oneChart({}, { waitInput: ['{{ exec "sh" }}.yaml'] });
    expect(release.hooks[0].args[1]).toBe('{{"{{"}} exec "sh" }}.yaml');
  });

  test('values: sorted, nulls kept; without waitInput no hooks and one warning', () => {
    const { release, findings } = oneChart({ values: { z: 1, a: { n: null, b: [2, 1] } } }, {});
    expect(release.values).toEqual([{ a: { b: [2, 1], n: null }, z: 1 }]);
    expect(Object.keys(release.values[0])).toEqual(['a', 'z']);
    expect(release.hooks).toBeUndefined();
    expect(findings).toEqual([['warning', undefined, 'not-expressible', "cannot be expressed for Helmfile: no hooks are written (no waitInput), so Armada's resource waits, tests and pre-upgrade deletes do not run and a release is ready for the next step when Helm returns; give waitInput (the CLI does)"]]);
  });

  test('secret values are written as ref+envsubst references, each named in a warning; never in clear', () => {
    const r = oneChart({ values: { db: { password: 'hunter2-secret', users: [{ key: 'k-secret' }] }, plain: 'x' } }, { waitInput: ['s.yaml'], secretValues: new Map([['mariadb', [['db', 'password'], ['db', 'users', 0, 'key']]]]) });
    expect(r.release.values).toEqual([{ db: { password: 'ref+envsubst://$ARMADA_SECRET_MARIADB_DB_PASSWORD', users: [{ key: 'ref+envsubst://$ARMADA_SECRET_MARIADB_DB_USERS_0_KEY' }] }, plain: 'x' }]);
    expect(r.secretVariables).toEqual(['ARMADA_SECRET_MARIADB_DB_PASSWORD', 'ARMADA_SECRET_MARIADB_DB_USERS_0_KEY']);
    expect(r.findings).toEqual([
      ['warning', 'values.db.password', 'helmfile-secret', 'for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_MARIADB_DB_PASSWORD; set ARMADA_SECRET_MARIADB_DB_PASSWORD in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...)'],
      ['warning', 'values.db.users[0].key', 'helmfile-secret', 'for Helmfile: a secret value, written as ref+envsubst://$ARMADA_SECRET_MARIADB_DB_USERS_0_KEY; set ARMADA_SECRET_MARIADB_DB_USERS_0_KEY in the environment of helmfile (or change the reference to your secret store, e.g. ref+vault://...)'],
    ]);
    const text = toYamlDocument(r.helmfile);
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('k-secret');
  });

  /** The findings of secret references, as [field, variable, whether the type changed]. */
  const secretFindings = (findings: unknown[][]) =>
    findings.map(([severity, field, code, message]) => {
      const m = /^for Helmfile: a secret value, written as ref\+envsubst:\/\/\$(\w+); set \1 in the environment of helmfile \(or change the reference to your secret store, e\.g\. ref\+vault:\/\/\.\.\.\)(; vals gives back a string, where the value was not one)?$/.exec(String(message));
      return [severity, field, code, m?.[1], m?.[2] !== undefined];
    });

  test('a secret mapping keeps its shape: a reference per leaf (non-strings flagged), empty collections as they are; never in clear', () => {
    const values = { conf: { plain: 'x', secret_block: { user: 'admin-s3cret', port: 5432, tls: { enabled: true, ca: 'ca-s3cret-text' }, none: {}, list: [] } } };
    const r = oneChart({ values }, { waitInput: ['s.yaml'], secretValues: new Map([['mariadb', [['conf', 'secret_block']]]]) });
    const text = toYamlDocument(r.helmfile);
    expect(text.slice(text.indexOf('    values:\n'))).toBe(
      [
        '    values:',
        '      - conf:',
        '          plain: x',
        '          secret_block:',
        '            list: []',
        '            none: {}',
        '            port: "ref+envsubst://$ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_PORT"',
        '            tls:',
        '              ca: "ref+envsubst://$ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_TLS_CA"',
        '              enabled: "ref+envsubst://$ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_TLS_ENABLED"',
        '            user: "ref+envsubst://$ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_USER"',
        '',
      ].join('\n'),
    );
    expect(r.secretVariables).toEqual(['ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_PORT', 'ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_TLS_CA', 'ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_TLS_ENABLED', 'ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_USER']);
    expect(secretFindings(r.findings)).toEqual([
      ['warning', 'values.conf.secret_block.port', 'helmfile-secret', 'ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_PORT', true],
      ['warning', 'values.conf.secret_block.tls.ca', 'helmfile-secret', 'ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_TLS_CA', false],
      ['warning', 'values.conf.secret_block.tls.enabled', 'helmfile-secret', 'ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_TLS_ENABLED', true],
      ['warning', 'values.conf.secret_block.user', 'helmfile-secret', 'ARMADA_SECRET_MARIADB_CONF_SECRET_BLOCK_USER', false],
    ]);
    const written = text + JSON.stringify(r.findings);
    for (const secret of ['admin-s3cret', '5432', 'ca-s3cret-text']) expect(written).not.toContain(secret);
    // The chart's own values are not changed.
    expect(values.conf.secret_block.user).toBe('admin-s3cret');
  });

  test('a secret sequence keeps its shape: a reference per item, and per leaf of an item that is a mapping', () => {
    const r = oneChart({ values: { hosts: ['h1-s3cret', { name: 'h2-s3cret', weight: 2 }, []], plain: 'x' } }, { waitInput: ['s.yaml'], secretValues: new Map([['mariadb', [['hosts']]]]) });
    const text = toYamlDocument(r.helmfile);
    expect(text.slice(text.indexOf('    values:\n'))).toBe(
      [
        '    values:',
        '      - hosts:',
        '          - "ref+envsubst://$ARMADA_SECRET_MARIADB_HOSTS_0"',
        '          - name: "ref+envsubst://$ARMADA_SECRET_MARIADB_HOSTS_1_NAME"',
        '            weight: "ref+envsubst://$ARMADA_SECRET_MARIADB_HOSTS_1_WEIGHT"',
        '          - []',
        '        plain: x',
        '',
      ].join('\n'),
    );
    expect(r.secretVariables).toEqual(['ARMADA_SECRET_MARIADB_HOSTS_0', 'ARMADA_SECRET_MARIADB_HOSTS_1_NAME', 'ARMADA_SECRET_MARIADB_HOSTS_1_WEIGHT']);
    expect(secretFindings(r.findings)).toEqual([
      ['warning', 'values.hosts[0]', 'helmfile-secret', 'ARMADA_SECRET_MARIADB_HOSTS_0', false],
      ['warning', 'values.hosts[1].name', 'helmfile-secret', 'ARMADA_SECRET_MARIADB_HOSTS_1_NAME', false],
      ['warning', 'values.hosts[1].weight', 'helmfile-secret', 'ARMADA_SECRET_MARIADB_HOSTS_1_WEIGHT', true],
    ]);
    expect(text + JSON.stringify(r.findings)).not.toMatch(/h[12]-s3cret/);
  });

  test('an index written as a string names the item of a list, and a number the key of a mapping: a path found is never written in clear', () => {
    const r = oneChart({ values: { list: ['a-s3cret', 'b'], map: { 0: 'c-s3cret' } } }, { waitInput: ['s.yaml'], secretValues: new Map([['mariadb', [['list', '0'], ['map', 0], ['list', '2'], ['list', '01']]]]) });
    expect(r.release.values).toEqual([{ list: ['ref+envsubst://$ARMADA_SECRET_MARIADB_LIST_0', 'b'], map: { 0: 'ref+envsubst://$ARMADA_SECRET_MARIADB_MAP_0' } }]);
    expect(r.findings.map((f) => f[1])).toEqual(['values.list[0]', 'values.map.0']);
  });

  test('the whole values ([]) and a path inside a secret mapping: each leaf once; a path the values lack: nothing', () => {
    const values = { db: { password: 'pw-s3cret', port: 3306 }, empty: {}, name: 'n-s3cret' };
    const r = oneChart({ values }, { waitInput: ['s.yaml'], secretValues: new Map([['mariadb', [['db', 'password'], [], ['db'], ['absent', 'x']]]]) });
    expect(r.release.values).toEqual([{ db: { password: 'ref+envsubst://$ARMADA_SECRET_MARIADB_DB_PASSWORD', port: 'ref+envsubst://$ARMADA_SECRET_MARIADB_DB_PORT' }, empty: {}, name: 'ref+envsubst://$ARMADA_SECRET_MARIADB_NAME' }]);
    expect(r.secretVariables).toEqual(['ARMADA_SECRET_MARIADB_DB_PASSWORD', 'ARMADA_SECRET_MARIADB_DB_PORT', 'ARMADA_SECRET_MARIADB_NAME']);
    expect(r.findings.map((f) => f[1])).toEqual(['values.db.password', 'values.db.port', 'values.name']);
  });

  test('a value vals would read as a reference is an error naming the field', () => {
    const { findings } = oneChart({ values: { conf: { x: 'prefix ref+file:///etc/passwd' } } });
    expect(findings).toEqual([['error', 'values.conf.x', 'helmfile-values', 'the value at values.conf.x holds a vals reference (ref+BACKEND://...): Helmfile evaluates every release value with vals and would put what it refers to in its place; change the value']]);
  });

  test('two charts with one release name in one namespace: an error', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    new Chart(g, 'a', { namespace: 'ns', release: 'x', source: TAR });
    new Chart(g, 'b', { namespace: 'ns', release: 'x', source: TAR });
    const { spec, plan } = site.resolve();
    const r = toHelmfile(spec, plan, { waitInput: ['s'] });
    expect(r.diagnostics.errors.map((d) => [d.location, d.field, d.message])).toEqual([['site/g/b', 'release', 'the Helm release "ns/p-x" would be written twice: chart "a" has the same release name in the same namespace; give one of them another release']]);
  });

  test('what Helmfile cannot say: a warning naming the chart field each', () => {
    const { findings } = oneChart({
      upgrade: { noHooks: true, pre: { update: [{ type: 'daemonset' }], create: [{ type: 'job' }] }, post: { create: [{ type: 'job' }] } },
      protected: { continueProcessing: true },
    });
    expect(findings.map((f) => f[1])).toEqual(['upgrade.noHooks', 'upgrade.pre.update', 'upgrade.pre.create', 'upgrade.post', 'protected.continueProcessing']);
    expect(findings.every((f) => f[0] === 'warning' && f[2] === 'not-expressible' && String(f[3]).startsWith('cannot be expressed for Helmfile: '))).toBe(true);
  });

  test('subchart dependencies: a warning, unless the chart is assembled (chartPaths)', () => {
    const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
    const g = new ChartGroup(site, 'g');
    const tk = new Chart(site, 'helm-toolkit', { namespace: 'ns', source: TAR });
    new Chart(g, 'a', { namespace: 'ns', source: TAR, dependencies: [tk] });
    const { spec, plan } = site.resolve();
    const plain = toHelmfile(spec, plan, { waitInput: ['s'] });
    expect(plain.diagnostics.all.map((d) => [d.field, d.message])).toEqual([
      ['dependencies', 'cannot be expressed for Helmfile: subchart dependencies ["helm-toolkit"]: Helmfile installs the chart as its source has it; assemble the chart with them (chartPaths, or --chart-path with the CLI) or declare them in its Chart.yaml'],
    ]);
    const assembled = toHelmfile(spec, plan, { waitInput: ['s'], chartPaths: { a: './charts/a' } });
    expect(assembled.diagnostics.all).toEqual([]);
    expect((assembled.helmfile.releases as any[])[0].chart).toBe('./charts/a');
    const unknown = toHelmfile(spec, plan, { waitInput: ['s'], chartPaths: { a: './charts/a', helm_toolkit: './x', zz: './y' } });
    expect(unknown.diagnostics.errors.map((d) => [d.location, d.message])).toEqual([
      ['site', 'chartPaths names chart "helm_toolkit", which manifest "site" does not deploy; name one of its charts'],
      ['site', 'chartPaths names chart "zz", which manifest "site" does not deploy; name one of its charts'],
    ]);
  });
});

describe('Helmfile chart sources', () => {
  const chart = (s: ChartSource) => helmfileChart(s, undefined);
  test('git: go-getter URL with the subpath and ref; a branch is fetched on every run, a commit is cached', () => {
    expect(chart(ChartSource.git('https://opendev.org/openstack/openstack-helm', { subpath: 'keystone/', reference: 'master' }))).toEqual({ chart: 'git::https://opendev.org/openstack/openstack-helm@keystone?ref=master&cache=false', findings: [] });
    const sha = 'a'.repeat(40);
    expect(chart(ChartSource.git('https://h/r.git', { reference: sha })).chart).toBe(`git::https://h/r.git@.?ref=${sha}`);
    expect(chart(ChartSource.git('git@github.com:org/charts.git', { subpath: 'x' })).chart).toBe('git::ssh://git@github.com/org/charts.git@x?ref=master&cache=false');
  });

  test('git: credentials in the URL are left out, with a warning; proxy, auth method and Gerrit changes warned', () => {
    const r = chart(ChartSource.git('https://user:tok3n@h/r.git', { reference: 'refs/changes/01/1/1', proxyServer: 'http://proxy:3128', authMethod: 'ssh' }));
    expect(r.chart).toBe('git::https://h/r.git@.?ref=refs%2Fchanges%2F01%2F1%2F1&cache=false');
    expect(r.findings.map((f) => [f.field.join('.'), f.code])).toEqual([
      ['source.location', 'helmfile-assumption'],
      ['source.reference', 'helmfile-assumption'],
      ['source.proxyServer', 'not-expressible'],
      ['source.authMethod', 'helmfile-assumption'],
    ]);
    expect(JSON.stringify(r)).not.toContain('tok3n');
  });

  test('git: a URL go-getter cannot take is an error', () => {
    expect(chart(ChartSource.git('/srv/git/charts')).findings.map((f) => [f.severity, f.message])).toEqual([['error', 'received "/srv/git/charts"; Helmfile clones a git chart with go-getter, which needs an http(s)://, ssh:// or git:// URL, or user@host:path']]);
    expect(chart(ChartSource.git('https://h/r@x.git')).findings[0].severity).toBe('error');
  });

  test('tar: the archive URL (Helm installs its top directory); a deeper subpath through go-getter', () => {
    expect(chart(TAR)).toEqual({ chart: 'https://charts.example.org/charts/mariadb-0.1.0.tgz', findings: [] });
    const deep = chart(ChartSource.tar('https://h/c/bundle-1.0.0.tgz', { subpath: 'bundle/charts/x' }));
    expect(deep.chart).toBe('http::https://h/c/bundle-1.0.0.tgz@bundle/charts/x');
    expect(deep.findings.map((f) => f.code)).toEqual(['helmfile-assumption']);
    expect(chart(ChartSource.tar('https://h/c/mariadb-0.1.0.tgz', { subpath: 'other' })).findings.map((f) => f.message)).toEqual(['for Helmfile: Helm installs the archive\'s one top-level directory, which is assumed to be "other" (the file name says chart "mariadb")']);
    expect(chart(ChartSource.tar('ftp://h/x.tgz')).findings[0].severity).toBe('error');
  });

  test('local: the directory and subpath; a relative one is marked as relative to the helmfile', () => {
    expect(chart(ChartSource.local('/opt/charts/', { subpath: './mariadb' }))).toEqual({ chart: '/opt/charts/mariadb', findings: [] });
    const rel = chart(ChartSource.local('charts', { subpath: 'mariadb' }));
    expect(rel.chart).toBe('./charts/mariadb');
    expect(rel.findings.map((f) => f.code)).toEqual(['helmfile-assumption']);
  });
});

describe('Helmfile output', () => {
  test('deterministic: byte-identical YAML on every run', () => {
    const a = toYamlDocument(oneChart({ values: { b: 1, a: 2 } }).helmfile);
    const b = toYamlDocument(oneChart({ values: { a: 2, b: 1 } }).helmfile);
    expect(a).toBe(b);
    expect(a.startsWith('releases:\n  - name: airship-mariadb\n')).toBe(true);
  });
});
