import { printable, redactCredentials, safeText } from '../../src/model/safe-text';

describe('redactCredentials', () => {
  test.each([
    // Passwords with an unescaped `/`, `#` or `?`, which end the authority for a URL parser.
    ['https://ci:pa/ss@h.example/r.git', 'https://***@h.example/r.git'],
    ['https://ci:pa#ss@h.example/r.git', 'https://***@h.example/r.git'],
    ['https://ci:pa?ss@h.example/r.git?x=1', 'https://***@h.example/r.git?x=1'],
    ['https://ci:p@ss/w@h.example/r', 'https://***@h.example/r'],
    ['https://ci:pa/ss@gitserver/r.git', 'https://***@gitserver/r.git'],
    ['https://ci:p@ss@gitserver/r.git', 'https://***@gitserver/r.git'],
    ['"https://ci:p@[::1]:8080/x"', '"https://***@[::1]:8080/x"'],
    ['see https://ci:p@h.example:', 'see https://***@h.example:'],
    // A token as the user name.
    ['https://glpat-abc@h.example/r.git', 'https://***@h.example/r.git'],
    // Token parameters in a query or a fragment.
    ['https://h.example/r#access_token=t0k&state=x', 'https://h.example/r#access_token=***&state=x'],
    ['https://h.example/c.tgz?jwt=eyJ.a.b&page=2', 'https://h.example/c.tgz?jwt=***&page=2'],
    ['https://h.example/c.tgz?pat=ghp_123', 'https://h.example/c.tgz?pat=***'],
    ['https://h.example/c.tgz?private_token=1&X-Amz-Signature=2&sig=3', 'https://h.example/c.tgz?private_token=***&X-Amz-Signature=***&sig=***'],
    // A proxy written without a scheme.
    ['proxyServer "proxyuser:proxypass@proxy.example:3128" is not a URL', 'proxyServer "***@proxy.example:3128" is not a URL'],
    // A location's reference after it, as messages write git sources.
    ['git source http://ci:pw@127.0.0.1:8080/charts.git@master: failed', 'git source http://***@127.0.0.1:8080/charts.git@master: failed'],
  ])('%s', (text, expected) => {
    expect(redactCredentials(text)).toBe(expected);
    // Applying it again changes nothing: messages pass through it at every layer.
    expect(redactCredentials(expected)).toBe(expected);
  });

  test.each([
    'https://registry.npmjs.org/@types/node',
    'https://h.example:8443/charts/c-1.0.tgz?page=2',
    'git@github.com:org/r.git',
    'error: at 12:30 in file.yaml; mail a@b',
    'chart "mariadb" (namespace=openstack, labels=application=mariadb)',
    'git source fd::7@master: refused',
    'git source ext::sh -c touch% /tmp/x@master: refused',
    'at 10:30@home',
  ])('leaves %s alone', (text) => {
    expect(redactCredentials(text)).toBe(text);
  });
});

describe('printable and safeText', () => {
  test('control characters, ANSI sequences, line breaks and bidi overrides are escaped', () => {
    expect(printable('a\x1b[31mred\x1b[0m\r\nforged: ok\u2028\u202e\x07')).toBe('a\\x1b[31mred\\x1b[0m\\r\\nforged: ok\\u2028\\u202e\\x07');
  });

  test('safeText does both', () => {
    expect(safeText('GET https://u:p@h.example/x failed: \x1b]0;title\x07')).toBe('GET https://***@h.example/x failed: \\x1b]0;title\\x07');
  });
});
