import { cli, tmpdir, write } from '../helpers/cli';
import { readShared } from '../helpers/shared';

/**
 * A chart location with a password holding `/`, `#` and `?`, token parameters in its query and
 * fragment, and a proxy with credentials: every warning that quotes them hides them.
 */
const SECRETS = ['pa/ss', 'w?rd', 'tok1', 'tok2', 'proxypass', 'proxyuser'];
const SITE = readShared('corpus', 'armada__examples__simple.yaml').replace(
  'location: https://github.com/gardlt/hello-world-chart\n    subpath: .\n    reference: master',
  'location: https://ci:pa/ss#w?rd@git.example.com/charts.git?private_token=tok1#access_token=tok2\n    subpath: .\n    reference: master\n    proxy_server: http://proxyuser:proxypass@proxy.example:3128',
);
const dir = tmpdir('armada-cdk-redact-');

describe('CLI messages never quote a credential URL in full', () => {
  const input = write(dir, 'site.yaml', SITE);

  test('the site really has them', () => {
    expect(SITE).toContain('pa/ss#w?rd@git.example.com');
  });

  test.each([['airship-v1', 0], ['flux-v2', 1]])('convert --to %s: messages show the location with its credentials hidden', async (target, code) => {
    const r = await cli(['convert', input, '--to', target]);
    // Flux would write the URL into a GitRepository: refused (test/flux/names.test.ts).
    expect(r.code).toBe(code);
    for (const s of SECRETS) expect(r.stderr).not.toContain(s);
  });

  test('the warnings name the redacted location and proxy', async () => {
    const airship = await cli(['convert', input, '--to', 'airship-v1']);
    expect(airship.stderr).toContain('a git source ("https://***@git.example.com/charts.git?private_token=***#access_token=***")');
    const flux = await cli(['convert', input, '--to', 'flux-v2']);
    expect(flux.stderr).toContain('data.source.location: received "https://***@git.example.com/charts.git?private_token=***#access_token=***", which carries credentials before the host: ');
    expect(flux.stdout).toBe('');
  });

  test('validate --format json hides them in each message too', async () => {
    // A tar source must be http(s): the error quotes the location it received.
    const ftp = write(dir, 'ftp.yaml', SITE.replace(/type: git\n {4}location: https:\/\/ci:/, 'type: tar\n    location: ftp://ci:'));
    const r = await cli(['validate', ftp, '--format', 'json']);
    const messages = (JSON.parse(r.stdout) as { diagnostics: { message: string }[] }).diagnostics.map((d) => d.message);
    expect(messages).toContainEqual(expect.stringContaining('received "ftp://***@git.example.com/charts.git?private_token=***#access_token=***"'));
    for (const s of SECRETS) expect(`${messages.join('\n')}\n${r.stderr}`).not.toContain(s);
  });
});
