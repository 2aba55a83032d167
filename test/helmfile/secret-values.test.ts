/** Which values of a site read from documents the helmfile takes out as secrets. */
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { helmfileSecretValues } from '../../src/helmfile/secret-values';

function spec(values: Record<string, unknown>) {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
  new Chart(new ChartGroup(site, 'g'), 'c', { namespace: 'ns', source: ChartSource.local('/charts', { subpath: 'c' }), values });
  return site.resolve().spec;
}

describe('helmfileSecretValues', () => {
  const values = { db: { password: 'pw-text', url: 'db://u:pw-text@h', user: 'admin' }, short: 'pw' };
  const chart = { schema: 'armada/Chart/v1', name: 'c', data: { values } };

  test("the substitutions' paths, then every string that holds a secret text (4 characters or more), each path once", () => {
    const out = helmfileSecretValues(spec(values), [chart], { paths: [[['values', 'db', 'password']]], texts: ['pw-text', 'pw'] });
    expect([...out]).toEqual([['c', [['db', 'password'], ['db', 'url']]]]);
  });

  test('a secret substituted at values or at the root: every value (from chartValueSecrets); no secret at all: nothing', () => {
    const all = [['c', [['db', 'password'], ['db', 'url'], ['db', 'user'], ['short']]]];
    expect([...helmfileSecretValues(spec(values), [chart], { paths: [[['values']]], texts: [] })]).toEqual(all);
    expect([...helmfileSecretValues(spec(values), [chart], { paths: [[[]]], texts: [] })]).toEqual(all);
    expect(helmfileSecretValues(spec(values), [chart], { paths: [[]], texts: [] }).size).toBe(0);
  });
});
