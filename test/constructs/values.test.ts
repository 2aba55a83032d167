import { ArmadaManifest, Chart, ChartGroup, ChartSource, mergeValues, Testing } from '../../src';

interface MariadbValues {
  pod: { replicas: { server: number } };
  conf?: { tuning?: { max_connections?: number; buffer?: string } };
  endpoints?: { hosts: string[] };
}

function shared() {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  const g = new ChartGroup(site, 'g');
  const mariadb = new Chart<MariadbValues>(g, 'mariadb', {
    namespace: 'openstack',
    source: ChartSource.tar('https://x/mariadb.tgz'),
    wait: { labels: { release_group: 'p-mariadb' } },
    values: { pod: { replicas: { server: 1 } }, conf: { tuning: { max_connections: 100, buffer: '1G' } }, endpoints: { hosts: ['a', 'b'] } },
  });
  return { site, mariadb };
}

describe('values: typed, merged with Helm semantics, overridden per site', () => {
  test('mergeValues: maps merge, lists replace, null removes the key (kept as null so Helm also drops the chart default)', () => {
    const base = { a: { b: 1, c: [1, 2], d: { e: 'x' } }, keep: true };
    const out = mergeValues(base, { a: { c: [3], d: null, f: 'new' } }, { a: { b: 2 } });
    expect(out).toEqual({ a: { b: 2, c: [3], d: null, f: 'new' }, keep: true });
    expect(base).toEqual({ a: { b: 1, c: [1, 2], d: { e: 'x' } }, keep: true });
  });

  test('a map over a null (or a scalar) replaces it; inputs are never shared with the result', () => {
    const o = { x: { y: 1 } };
    const out = mergeValues({ x: null } as Record<string, unknown>, o);
    expect(out).toEqual({ x: { y: 1 } });
    (out.x as { y: number }).y = 2;
    expect(o.x.y).toBe(1);
  });

  test('per-site overrides of a shared definition: chart.overrideValues and manifest.overrideValues', () => {
    const { site, mariadb } = shared();
    mariadb.overrideValues({ pod: { replicas: { server: 3 } } });
    site.overrideValues({ mariadb: { conf: { tuning: { buffer: null } }, endpoints: { hosts: ['c'] } } });
    expect(mariadb.values).toEqual({ pod: { replicas: { server: 3 } }, conf: { tuning: { max_connections: 100, buffer: null } }, endpoints: { hosts: ['c'] } });
    expect(Testing.documents(site).find((d) => d.metadata.name === 'mariadb')!.data.values).toEqual({
      conf: { tuning: { buffer: null, max_connections: 100 } },
      endpoints: { hosts: ['c'] },
      pod: { replicas: { server: 3 } },
    });
  });

  test('an override for a chart the manifest does not have fails at once, naming the charts', () => {
    const { site } = shared();
    expect(() => site.overrideValues({ mariadbb: {} })).toThrow('ArmadaManifest site: overrideValues: no chart named "mariadbb"; the charts are mariadb');
  });

  test('typed values: a wrong value type does not compile', () => {
    const { mariadb } = shared();
    // @ts-expect-error server must be a number
    mariadb.overrideValues({ pod: { replicas: { server: 'three' } } });
    expect(true).toBe(true);
  });
});
