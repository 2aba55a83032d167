import { cli, tmpdir, write } from '../helpers/cli';
import { readShared } from '../helpers/shared';

/**
 * Keys named like Object.prototype's members, where the "indented one level off" hint looks a key
 * up among a schema's properties: only the schema's own keys count, never inherited members.
 */
const SITE = readShared('corpus', 'armada__examples__simple.yaml')
  .replace('  chart_name: blog-1\n', '  chart_name: blog-1\n  toString: 1\n  constructor: 2\n')
  .replace('  upgrade:\n    no_hooks: false\n', '  upgrade:\n    no_hooks: false\n    chart_name: x\n    toString: 3\n    hasOwnProperty: 4\n');
const dir = tmpdir('armada-cdk-own-keys-');

test('toString, constructor and hasOwnProperty get no hint from an inherited member; a real key one level off still does', async () => {
  const r = await cli(['validate', write(dir, 'members.yaml', SITE)]);
  expect(r.code).toBe(1);
  const errors = `${r.stdout}${r.stderr}`
    .split('\n')
    .filter((l) => l.includes(': error: '))
    .map((l) => l.replace(/^.*?: error: armada\/Chart\/v1 blog-1: /, ''));
  expect(errors).toEqual([
    // The repro: "'toString' is a key of data.protected: is it indented one level too little?"
    "data.toString: Additional properties are not allowed ('toString' was unexpected)",
    "data.constructor: Additional properties are not allowed ('constructor' was unexpected)",
    "data.upgrade.chart_name: Additional properties are not allowed ('chart_name' was unexpected): 'chart_name' is a key of data: is it indented one level too far?",
    "data.upgrade.toString: Additional properties are not allowed ('toString' was unexpected)",
    "data.upgrade.hasOwnProperty: Additional properties are not allowed ('hasOwnProperty' was unexpected)",
  ]);
});
