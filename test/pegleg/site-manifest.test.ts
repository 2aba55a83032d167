import * as path from 'path';
import { ArmadaValidationError, loadPeglegSite } from '../../src';
import { SecretValueLocation } from '../../src/pegleg/site-manifest';

const SITES = path.resolve(__dirname, '..', '..', '..', 'shared', 'sites');
const rendered = (site: string) => path.join(SITES, site, 'rendered.yaml');

describe('loadPeglegSite: a site, or documents Deckhand rendered, as an ArmadaManifest', () => {
  test('rendered documents: the manifest the DeploymentConfiguration names, with its charts, and every secret value handed to secret()', async () => {
    const seen: SecretValueLocation[] = [];
    const manifest = await loadPeglegSite({
      files: [rendered('tm-v1.9-fca290a--airskiff')],
      rendered: true,
      secret: (v, where) => {
        seen.push(where);
        return `secret:${typeof v}`;
      },
    });
    const resolved = manifest.resolve();
    expect(resolved.spec.name).toBe('full-site');
    expect(resolved.spec.charts.length).toBe(83);
    const keystone = resolved.spec.charts.find((c) => c.name === 'keystone')!;
    const auth = (keystone.values as { endpoints: { identity: { auth: { admin: { password: unknown } } } } }).endpoints.identity.auth.admin.password;
    expect(auth).toBe('secret:string');
    expect(seen.some((s) => s.chart === 'keystone' && s.path.join('.') === 'endpoints.identity.auth.admin.password')).toBe(true);
    // Only secret values are handed over: a host name is not one.
    expect(seen.some((s) => s.path.includes('host_fqdn_override'))).toBe(false);
  });

  test('another target manifest by name; an unknown one is an ArmadaValidationError naming it', async () => {
    await expect(loadPeglegSite({ files: [rendered('tm-v1.9-fca290a--airskiff')], rendered: true, targetManifest: 'no-such' })).rejects.toThrow(ArmadaValidationError);
    await expect(loadPeglegSite({ files: [rendered('tm-v1.9-fca290a--airskiff')], rendered: true, targetManifest: 'no-such' })).rejects.toThrow(/no-such/);
  });

  test('site and files are exclusive, and one is needed', async () => {
    await expect(loadPeglegSite({})).rejects.toThrow('give either site (a site of a Pegleg repository) or files; received neither');
    await expect(loadPeglegSite({ site: 'x', files: ['y'] })).rejects.toThrow('received both');
  });

  test('a site that is not in the repository is an error naming the sites there', async () => {
    const err = await loadPeglegSite({ site: 'nowhere', repo: path.join(SITES, 'tm-v1.9-fca290a--airskiff', 'tree') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArmadaValidationError);
    expect((err as ArmadaValidationError).diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('site "nowhere" has no site definition (site/nowhere/site-definition.yaml in')]);
    expect((err as ArmadaValidationError).diagnostics[0].message).toMatch(/the repository has sites airskiff$/);
  });
});
