import * as fs from 'fs';
import * as path from 'path';
import { renderingLeft } from '../../src/pegleg/rendered-check';
import { cli } from '../helpers/cli';
import { renderedSites, SITES } from './helpers';

const policy = { schema: 'deckhand/LayeringPolicy/v1', metadata: { schema: 'metadata/Control/v1', name: 'lp' }, data: { layerOrder: ['global', 'site'] } };
const d = (name: string, layer: string, data: unknown, metadata: Record<string, unknown> = {}) => ({
  schema: 'x/Thing/v1',
  metadata: { schema: 'metadata/Document/v1', name, ...metadata, layeringDefinition: { abstract: false, layer, ...((metadata.layeringDefinition as object) ?? {}) } },
  data,
});
const parent = d('p', 'global', { a: { b: 1, c: [1, 2] }, keep: 'x' }, { labels: { name: 'p' } });
const child = (data: unknown, actions: unknown[]) => d('c', 'site', data, { layeringDefinition: { parentSelector: { name: 'p' }, actions } });
const why = (docs: unknown[]) => Object.fromEntries([...renderingLeft(docs)].map(([i, rs]) => [i, rs.map((r) => `${r.path.join('.')}: ${r.message}`)]));

describe('what rendering would still change (not the metadata keys Deckhand keeps)', () => {
  test('a rendered child keeps parentSelector and actions and is not reported; one still to be layered is, at the field that differs', () => {
    const rendered = child({ a: { b: 2, c: [1, 2] }, keep: 'x' }, [{ method: 'merge', path: '.a' }]);
    expect(why([policy, parent, rendered])).toEqual({});
    const fragment = child({ a: { b: 2 } }, [{ method: 'merge', path: '.a' }]);
    expect(why([policy, parent, fragment])).toEqual({ 2: ["data.a.c: it is a layering child of x/Thing/v1 p and its data is not its parent's data after its actions (data.a.c differs): the layering is still to be done"] });
  });

  test("replace, and delete with Deckhand's semantics (a node equal in value to the one at the path, in the order Deckhand read the keys)", () => {
    const p = d('p', 'global', { first: { v: 1 }, second: { v: 1 }, other: { v: 2 } }, { labels: { name: 'p' } });
    // delete .second removes the first node, in Deckhand's walk, whose value equals the value at
    // .second: `first` or `second`, as the keys were ordered in the files (a rendered stream has
    // them sorted). Either is rendered; removing another node, or none, is not.
    expect(why([policy, p, child({ second: { v: 1 }, other: { v: 2 } }, [{ method: 'delete', path: '.second' }])])).toEqual({});
    expect(why([policy, p, child({ first: { v: 1 }, other: { v: 2 } }, [{ method: 'delete', path: '.second' }])])).toEqual({});
    expect(why([policy, p, child({ first: { v: 1 }, second: { v: 1 } }, [{ method: 'delete', path: '.second' }])])).toHaveProperty('2');
    expect(why([policy, p, child({ first: { v: 1 }, second: { v: 1 }, other: { v: 2 } }, [{ method: 'delete', path: '.second' }])])).toHaveProperty('2');
    // In a list, the first item of equal value goes.
    const l = d('p', 'global', { l: [{ v: 1 }, { v: 3 }, { v: 1 }], k: { v: 1 } }, { labels: { name: 'p' } });
    expect(why([policy, l, child({ l: [{ v: 3 }, { v: 1 }], k: { v: 1 } }, [{ method: 'delete', path: '.k' }])])).toEqual({});
    expect(why([policy, l, child({ l: [{ v: 1 }, { v: 3 }], k: { v: 1 } }, [{ method: 'delete', path: '.k' }])])).toHaveProperty('2');
    expect(why([policy, p, child({ first: { v: 2 }, second: { v: 1 }, other: { v: 2 } }, [{ method: 'replace', path: '.first' }])])).toEqual({});
  });

  test("treasuremap v1.0 airskiff as Deckhand rendered it: delete .values.labels.prometheus_rabbitmq_exporter removed labels.server (the order of the site's files), and the child is rendered", () => {
    // An excerpt: the parent's labels, and the child as Pegleg wrote it (keys sorted).
    const labels = { node_selector_key: 'openstack-control-plane', node_selector_value: 'enabled' };
    const parentChart = { schema: 'armada/Chart/v1', metadata: { schema: 'metadata/Document/v1', name: 'glance-rabbitmq', labels: { component: 'glance', name: 'glance-rabbitmq-global' }, layeringDefinition: { abstract: false, layer: 'global' } }, data: { values: { labels: { prometheus_rabbitmq_exporter: labels, server: labels } } } };
    const childChart = {
      schema: 'armada/Chart/v1',
      metadata: {
        schema: 'metadata/Document/v1',
        name: 'glance-rabbitmq-airskiff',
        layeringDefinition: { abstract: false, layer: 'site', parentSelector: { component: 'glance', name: 'glance-rabbitmq-global' }, actions: [{ method: 'delete', path: '.values.labels.prometheus_rabbitmq_exporter' }, { method: 'merge', path: '.' }] },
      },
      data: { values: { labels: { prometheus_rabbitmq_exporter: labels } } },
    };
    expect(renderingLeft([policy, parentChart, childChart]).size).toBe(0);
  });

  test('a substitution done keeps its metadata and is not reported; one not done is, with source and destination', () => {
    const secret = { schema: 'deckhand/Passphrase/v1', metadata: { schema: 'metadata/Document/v1', name: 'pw', layeringDefinition: { abstract: false, layer: 'global' } }, data: 's3cret-value' };
    const subs = [{ src: { schema: 'deckhand/Passphrase/v1', name: 'pw', path: '.' }, dest: { path: '.auth.password' } }, { src: { schema: 'deckhand/Passphrase/v1', name: 'pw', path: '.' }, dest: { path: '.url', pattern: 'PASSWORD' } }];
    const done = d('t', 'global', { auth: { password: 's3cret-value' }, url: 'db://u:s3cret-value@h' }, { substitutions: subs });
    expect(why([policy, secret, done])).toEqual({});
    const notDone = d('t', 'global', { url: 'db://u:PASSWORD@h' }, { substitutions: subs });
    expect(why([policy, secret, notDone])).toEqual({
      2: [
        "metadata.substitutions.0: the substitution into data.auth.password from deckhand/Passphrase/v1 pw data is still to be done: the destination does not hold the source's value",
        'metadata.substitutions.1: the substitution into data.url from deckhand/Passphrase/v1 pw data is still to be done: the destination still matches its pattern "PASSWORD"',
      ],
    });
  });

  test('abstract documents, and a replacement beside the parent it replaces', () => {
    const abstract = d('a', 'global', {}, { layeringDefinition: { abstract: true } });
    const replaced = d('r', 'global', { v: 1 }, { labels: { name: 'r' } });
    const replacement = d('r', 'site', { v: 1 }, { replacement: true, layeringDefinition: { parentSelector: { name: 'r' }, actions: [] } });
    expect(why([policy, abstract, replaced, replacement])).toEqual({
      1: ['metadata.layeringDefinition.abstract: it is abstract (metadata.layeringDefinition.abstract: true): Deckhand never hands it to Armada, only its children'],
      3: ['metadata.replacement: it replaces its parent (metadata.replacement: true), and the parent is in the stream too: Deckhand outputs the replacement only'],
    });
    expect(why([policy, replacement])).toEqual({});
  });
});

describe('the shared sites', () => {
  test.each(renderedSites())('%s: Deckhand\'s rendered.yaml validates with no unrendered finding', async (site) => {
    const r = await cli(['validate', '--format', 'json', path.join(SITES, site, 'rendered.yaml')]);
    const found = (JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics;
    expect(found.filter((x) => x.code === 'unrendered')).toEqual([]);
  });

  test.each(renderedSites())('%s: the unrendered tree/ documents are reported as unrendered', async (site) => {
    const tree = path.join(SITES, site, 'tree');
    const files = fs.readFileSync(path.join(SITES, site, 'order.txt'), 'utf8').trim().split('\n').map((f) => path.join(tree, f));
    const r = await cli(['validate', '--format', 'json', ...files]);
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics;
    expect(found.filter((x) => x.code === 'unrendered').length).toBeGreaterThan(10);
  });
});

describe("the rendered shared sites' errors, with the DeploymentConfiguration's manifest", () => {
  const errors = async (site: string) => {
    const r = await cli(['validate', '--format', 'json', path.join(SITES, site, 'rendered.yaml')]);
    const out = JSON.parse(r.stdout) as { manifest: string | null; diagnostics: { severity: string; code: string; document?: string; field?: string }[] };
    return { manifest: out.manifest, errors: out.diagnostics.filter((x) => x.severity === 'error').map((x) => `${x.code} ${x.document} ${x.field}`) };
  };

  test('airskiff: valid', async () => {
    expect(await errors('tm-v1.9-fca290a--airskiff')).toEqual({ manifest: 'full-site', errors: [] });
  });

  test('seaworthy (two manifests; the DeploymentConfiguration names full-site): only what Armada itself raises, a chart source type it does not know and subcharts that are not there', async () => {
    expect(await errors('tm-v1.9-fca290a--seaworthy')).toEqual({
      manifest: 'full-site',
      errors: ['ARM001 armada/Chart/v1 osh-infra-ceph-config data.dependencies[0]', 'source armada/Chart/v1 kubernetes-calico data.source.type', 'ARM001 armada/Chart/v1 openstack-ceph-config data.dependencies[0]'],
    });
  });

  test('demo: valid, its subchart nfs_htk and chart nfs_provisioner named as Armada allows (names are only lookup keys; a subchart\'s namespace is never read)', async () => {
    expect((await errors('aiab-b69fac2--demo')).errors).toEqual([]);
  });
});
