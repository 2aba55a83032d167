/** A Deckhand site's secrets never reach the Flux output's files: placeholders for post-build substitution, or an error. */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { cli, tmpdir } from '../helpers/cli';
import { sharedPath } from '../helpers/shared';

const SITE = ['--site', 'demo', '--repo', sharedPath('sites', 'aiab-b69fac2--demo', 'tree')];
/** The passphrases of the site, from Deckhand's own rendering of it (the secrets to keep out). */
const SECRETS = YAML.parseAllDocuments(fs.readFileSync(sharedPath('sites', 'aiab-b69fac2--demo', 'rendered.yaml'), 'utf8'))
  .map((d) => d.toJS())
  .filter((d) => typeof d?.schema === 'string' && d.schema.startsWith('deckhand/Passphrase/') && typeof d.data === 'string' && d.data.length >= 6)
  .map((d) => d.data as string);

function files(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

describe('convert --site --to flux-v2: the secrets of a Deckhand site', () => {
  test('the site has passphrases, and they are in the charts\' values', async () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(15);
    const stream = await cli(['convert', ...SITE, '--to', 'flux-v2', '--all-warnings']);
    // On stdout (the user's redirect), each chart with secrets is a warning that names the fields only.
    expect(stream.code).toBe(0);
    expect(SECRETS.filter((s) => stream.stdout.includes(s)).length).toBeGreaterThan(0);
    expect(stream.stderr).toContain('warning: armada/Chart/v1 ucp-postgresql: values.endpoints.postgresql.auth.admin.password: values.endpoints.postgresql.auth.admin.password holds secrets of the site (from Deckhand\'s secret documents): the HelmRelease would carry it in clear in spec.values, in Git; write the GitOps directory with -o DIR --substitute-from SECRET');
    expect(SECRETS.filter((s) => stream.stderr.includes(s))).toEqual([]);
  });

  test('-o DIR without --substitute-from: an error per chart, nothing written', async () => {
    const cwd = tmpdir();
    const r = await cli(['convert', ...SITE, '--to', 'flux-v2', '-o', 'out'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => / error: /.test(l)).length).toBe(11);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  test('-o DIR --substitute-from: every secret a ${SECRET_...} placeholder, named on stderr with its place; no secret in any file', async () => {
    const cwd = tmpdir();
    const r = await cli(['convert', ...SITE, '--to', 'flux-v2', '-o', 'out', '--substitute-from', 'demo-secrets'], { cwd });
    expect(r.code).toBe(0);
    const all = files(path.join(cwd, 'out'));
    expect(all.length).toBeGreaterThan(10);
    for (const f of all) {
      const text = fs.readFileSync(f, 'utf8');
      expect([f, SECRETS.filter((s) => text.includes(s))]).toEqual([f, []]);
    }
    expect(SECRETS.filter((s) => r.stderr.includes(s))).toEqual([]);
    const notes = r.stderr.split('\n');
    const listed = notes.filter((l) => /^ {2}SECRET_/.test(l));
    expect(notes).toContain(`note: ${listed.length} secret values of the site became placeholders, for the Secret demo-secrets in namespace flux-system:`);
    expect(listed).toContain('  SECRET_AIRSHIP_UCP_POSTGRESQL_ENDPOINTS_POSTGRESQL_AUTH_ADMIN_PASSWORD: release airship-ucp-postgresql, values.endpoints.postgresql.auth.admin.password');
    // Each variable once; each written where it stands.
    const variables = listed.map((l) => l.trim().split(':')[0]);
    expect(new Set(variables).size).toBe(variables.length);
    const written = all.map((f) => fs.readFileSync(f, 'utf8')).join('');
    for (const v of variables) expect([v, written.split(`\${${v}}`).length - 1]).toEqual([v, 1]);
    const [pg] = YAML.parseAllDocuments(fs.readFileSync(all.find((f) => fs.readFileSync(f, 'utf8').includes('releaseName: airship-ucp-postgresql'))!, 'utf8')).map((d) => d.toJS()).filter((o) => o.spec.releaseName === 'airship-ucp-postgresql');
    expect(pg.spec.values.endpoints.postgresql.auth.admin.password).toBe('${SECRET_AIRSHIP_UCP_POSTGRESQL_ENDPOINTS_POSTGRESQL_AUTH_ADMIN_PASSWORD}');
  });
});
