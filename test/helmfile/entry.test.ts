/** The armada-cdk/helmfile entry point: the YAML of a construct site, errors thrown together. */
import { ArmadaManifest, ArmadaValidationError, Chart, ChartGroup, ChartSource } from '../../src';
import { toHelmfile } from '../../src/helmfile';

const TAR = ChartSource.tar('https://charts.example.org/charts/mariadb-0.1.0.tgz', { subpath: 'mariadb' });

function site(values: Record<string, unknown> = {}) {
  const s = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(s, 'g'), 'db', { namespace: 'ns', source: TAR, values });
  return s;
}

describe('armada-cdk/helmfile', () => {
  test('the YAML of the site, deterministic, with the hooks of waitInput', () => {
    const out = toHelmfile(site({ b: 1, a: 2 }), { waitInput: ['site.yaml'] });
    expect(out.yaml).toBe(toHelmfile(site({ a: 2, b: 1 }), { waitInput: ['site.yaml'] }).yaml);
    expect(out.yaml).toContain('    hooks:\n      - events:\n          - postsync\n');
    expect(out.yaml).toContain('    values:\n      - a: 2\n        b: 1\n');
    expect(out.secretVariables).toEqual([]);
  });

  test('errors of the site or of the conversion are thrown together, as an ArmadaValidationError', () => {
    expect(() => toHelmfile(site({ x: 'ref+file:///etc/passwd' }))).toThrow(ArmadaValidationError);
    expect(() => toHelmfile(site({ x: 'ref+file:///etc/passwd' }))).toThrow(/values\.x: the value at values\.x holds a vals reference/);
    const bad = new ArmadaManifest(undefined, 'bad', { releasePrefix: 'p' });
    new Chart(new ChartGroup(bad, 'g'), 'db', { namespace: 'NOT_DNS', source: TAR });
    expect(() => toHelmfile(bad)).toThrow(/ArmadaManifest bad failed with 1 error/);
  });
});
