import * as path from 'path';
import { parseYamlStream } from '../../src/importer/load';
import { createHash } from 'crypto';
import { chartValueSecrets, isSecretDocument, redact, secretDestinations, streamSecrets } from '../../src/pegleg/secrets';
import { cli, tmpdir, write } from '../helpers/cli';
import { SITES } from './helpers';
import * as fs from 'fs';

const passphrase = (name: string, value: string, policy = 'cleartext') => ({ schema: 'deckhand/Passphrase/v1', metadata: { name, storagePolicy: policy }, data: value });
const sub = (schema: string, name: string, srcPath: string, destPath: string, extra: Record<string, unknown> = {}) => ({ src: { schema, name, path: srcPath }, dest: { path: destPath, ...extra } });

describe('which values are secret', () => {
  test('substituted from a secret document, or from a path that holds one (followed through other documents); a pattern makes the whole string secret', () => {
    const catalogue = { schema: 'pegleg/AccountCatalogue/v1', metadata: { name: 'accounts', substitutions: [sub('deckhand/Passphrase/v1', 'pw', '.', '.db.admin.password')] }, data: { db: { admin: { username: 'root', password: 'x' } } } };
    const chart = {
      schema: 'armada/Chart/v1',
      metadata: { name: 'c', substitutions: [sub('pegleg/AccountCatalogue/v1', 'accounts', '.db', '.values.endpoints.db'), sub('deckhand/Passphrase/v1', 'pw', '.', '.values.url', { pattern: 'PW' })] },
      data: { values: { endpoints: { db: {} }, url: 'x' } },
    };
    const encrypted = { schema: 'x/Other/v1', metadata: { name: 'enc', storagePolicy: 'encrypted' }, data: { k: 'v' } };
    expect(secretDestinations([passphrase('pw', 'p'), catalogue, chart, encrypted])).toEqual([[[]], [['db', 'admin', 'password']], [['values', 'endpoints', 'db', 'admin', 'password'], ['values', 'url']], [[]]]);
  });

  test("documents layered from a parent that is not in the stream: strings holding a secret document's text (8 characters or more)", () => {
    const child = { schema: 'armada/Chart/v1', metadata: { name: 'c' }, data: { values: { a: 'long-secret-text', b: 'db://u:long-secret-text@h', c: 'short', d: 'other' } } };
    const s = streamSecrets([passphrase('long', 'long-secret-text'), passphrase('short', 'short'), child]);
    expect(s.paths[2]).toEqual([['values', 'a'], ['values', 'b']]);
    expect(s.texts).toEqual(['long-secret-text', 'short']);
    expect(redact('received "db://u:long-secret-text@h"', s.texts)).toBe('received "db://u:<secret>@h"');
  });

  test('airskiff as Deckhand rendered it: the keystone admin password is secret, its user name and host are not', () => {
    const file = path.join(SITES, 'tm-v1.9-fca290a--airskiff', 'rendered.yaml');
    const docs = parseYamlStream({ file, text: fs.readFileSync(file, 'utf8') }).documents;
    const s = streamSecrets(docs.map((d) => d.raw));
    const i = docs.findIndex((d) => d.schema === 'armada/Chart/v1' && d.name === 'keystone');
    const keys = s.paths[i].map((p) => p.join('.'));
    expect(keys).toContain('values.endpoints.identity.auth.admin.password');
    expect(keys).not.toContain('values.endpoints.identity.auth.admin.username');
    expect(keys.some((k) => k.includes('host_fqdn_override'))).toBe(false);
  });
});

describe('the secret values of each chart', () => {
  const chart = (name: string, values: unknown) => ({ schema: 'armada/Chart/v2', name, data: { values } });
  const values = { db: { password: 'p', port: 5432 }, list: ['a', { k: 'b' }], empty: {} };

  test('the paths inside values, each once; the first document of a name only; other schemas and paths outside values left out', () => {
    const docs = [chart('c', values), chart('c', values), { schema: 'x/Other/v1', name: 'c', data: {} }, chart('d', values)];
    const paths = [[['values', 'db', 'password'], ['values', 'db', 'password'], ['values', 'list', 1], ['wait', 'timeout']], [['values', 'db', 'port']], [[]], [['source', 'location']]];
    expect([...chartValueSecrets(docs, { paths, texts: [] })]).toEqual([['c', [['db', 'password'], ['list', 1]]]]);
  });

  test('a secret at values itself or at the root (the document secret whole): every leaf of the values', () => {
    const leaves = [['db', 'password'], ['db', 'port'], ['list', 0], ['list', 1, 'k']];
    for (const at of [['values'], []]) {
      expect([...chartValueSecrets([chart('c', values)], { paths: [[['values', 'db', 'password'], at]], texts: [] })]).toEqual([['c', leaves]]);
    }
    // Values that are not a mapping (the chart is refused for them) have no leaf path.
    expect(chartValueSecrets([chart('c', 'text')], { paths: [[['values']]], texts: [] }).size).toBe(0);
  });
});

describe('a document Deckhand encrypted because it took a value from an encrypted one', () => {
  const sha = (s: string) => createHash('sha256').update(JSON.stringify(s)).digest('hex');
  const chart = (dests: string[]) => ({
    schema: 'armada/Chart/v1',
    metadata: { name: 'calico', storagePolicy: 'encrypted', substitutions: [{ src: { schema: 'deckhand/CertificateKey/v1', name: 'k', path: sha('.') }, dest: dests.map((d) => ({ path: sha(d) })) }] },
    data: { source: { type: 'calico' }, values: { tls: { key: 'KEY-TEXT-0123456789' }, list: [{ k: 'KEY-TEXT-0123456789' }] } },
  });
  const key = { schema: 'deckhand/CertificateKey/v1', metadata: { name: 'k', storagePolicy: 'encrypted' }, data: 'KEY-TEXT-0123456789' };

  test('is secret at the hashed destinations only (found by hashing the paths of its data); its cleartext values are not secret texts', () => {
    expect(isSecretDocument(chart(['.values.tls.key']))).toBe(false);
    const s = streamSecrets([key, chart(['.values.tls.key', '$.values.list[0].k'])]);
    expect(s.paths).toEqual([[[]], [['values', 'tls', 'key'], ['values', 'list', 0, 'k']]]);
    expect(s.texts).toEqual(['KEY-TEXT-0123456789']);
    expect(redact('data.source.type: received "calico"', s.texts)).toBe('data.source.type: received "calico"');
  });

  test('a hashed destination found nowhere in its data: secret whole, rather than a secret shown', () => {
    expect(streamSecrets([key, chart(['.values.tls.key', '.nowhere'])]).paths[1]).toEqual([[]]);
  });

  test('written encrypted, with no hashed path: secret whole', () => {
    const written = { schema: 'armada/Chart/v1', metadata: { name: 'c', storagePolicy: 'encrypted' }, data: { a: 'text' } };
    expect(isSecretDocument(written)).toBe(true);
    expect(streamSecrets([written]).texts).toEqual(['text']);
  });

  test('seaworthy as Deckhand rendered it: kubernetes-calico is secret at its etcd client certificate and key, not at its source', () => {
    const file = path.join(SITES, 'tm-v1.9-fca290a--seaworthy', 'rendered.yaml');
    const docs = parseYamlStream({ file, text: fs.readFileSync(file, 'utf8') }).documents;
    const s = streamSecrets(docs.map((d) => d.raw));
    const i = docs.findIndex((d) => d.schema === 'armada/Chart/v1' && d.name === 'kubernetes-calico');
    expect((docs[i]!.raw as any).metadata.storagePolicy).toBe('encrypted');
    expect(s.paths[i]!.map((p) => p.join('.'))).toEqual(['values.endpoints.etcd.auth.client.tls.ca', 'values.endpoints.etcd.auth.client.tls.crt', 'values.endpoints.etcd.auth.client.tls.key']);
    expect(s.texts).not.toContain('calico');
  });
});

describe('import: secret values as siteSecret() references', () => {
  test('the value at each secret path is a call, keys written as string literals; the rest as it was', async () => {
    const text = `---
schema: deckhand/Passphrase/v1
metadata: {schema: metadata/Document/v1, name: pw, storagePolicy: encrypted, layeringDefinition: {abstract: false, layer: site}}
data: hunter2-secret
---
schema: armada/Chart/v1
metadata:
  schema: metadata/Document/v1
  name: blog
  layeringDefinition: {abstract: false, layer: site}
  substitutions:
    - src: {schema: deckhand/Passphrase/v1, name: pw, path: .}
      dest: [{path: '.values.auth["it''s"]'}, {path: '.values.list[1]'}]
data:
  chart_name: blog
  release: blog
  namespace: blog
  source: {type: local, location: /c, subpath: .}
  values:
    auth: {"it's": hunter2-secret, user: u}
    list: [a, hunter2-secret]
---
schema: armada/ChartGroup/v1
metadata: {schema: metadata/Document/v1, name: g}
data: {chart_group: [blog]}
---
schema: armada/Manifest/v1
metadata: {schema: metadata/Document/v1, name: m}
data: {release_prefix: p, chart_groups: [g]}
`;
    const dir = tmpdir();
    const r = await cli(['import', write(dir, 'rendered.yaml', text)]);
    expect([r.code, r.code === 0 ? '' : r.stderr]).toEqual([0, '']);
    expect(r.stdout).not.toContain('hunter2-secret');
    expect(r.stdout).toContain("siteSecret('blog', ['list', 1])");
    expect(r.stdout).toContain("user: 'u'");
    expect(r.stdout).toContain('siteSecret() reads each from the rendered site named by ARMADA_CDK_SITE');
    expect(r.stdout).toContain(`'it\\'s': siteSecret('blog', ['auth', 'it\\'s'])`);
  });
});
