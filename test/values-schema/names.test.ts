/** Names in generated code and paths in messages. */
import { formatValuePath } from '../../src/values-schema';
import { NameAllocator, pascalCase, propertyName, stringLiteral } from '../../src/values-schema/identifiers';
import { pointerToPath } from '../../src/values-schema/json-path';

test.each([
  ['db-init', 'DbInit'],
  ['replicaCount', 'ReplicaCount'],
  ['ks_user', 'KsUser'],
  ['API_KEY', 'ApiKey'],
  ['io.k8s.api.core.v1.Container', 'IoK8sApiCoreV1Container'],
  ['V1', 'V1'],
  ['x', 'X'],
  ['--', ''],
  ['café-crème', 'CaféCrème'],
])('pascalCase(%j) is %j', (input, output) => {
  expect(pascalCase(input)).toBe(output);
});

test('names are handed out in request order, with numeric suffixes', () => {
  const names = new NameAllocator();
  expect(['A', 'A', 'A2', 'A', 'B'].map((n) => names.allocate(n))).toEqual(['A', 'A2', 'A22', 'A3', 'B']);
});

test('string literals and property names', () => {
  expect(stringLiteral(`it's "quoted"\n\\`)).toBe(`'it\\'s "quoted"\\n\\\\'`);
  expect(propertyName('ok_name$1')).toBe('ok_name$1');
  expect(propertyName('db-init')).toBe("'db-init'");
});

test('value paths', () => {
  expect(formatValuePath([])).toBe('');
  expect(formatValuePath(['pod', 'replicas', 'server'])).toBe('pod.replicas.server');
  expect(formatValuePath(['images', 'tags', 'db-init'])).toBe('images.tags["db-init"]');
  expect(formatValuePath(['conf', 'list', 2])).toBe('conf.list[2]');
  expect(formatValuePath(['a b', 'c'])).toBe('["a b"].c');
});

test('JSON pointers become paths; digits index arrays only', () => {
  const values = { list: [{ '0': 'x' }], 'a/b': { '~': 1 } };
  expect(pointerToPath('/list/0/0', values)).toEqual(['list', 0, '0']);
  expect(pointerToPath('/a~1b/~0', values)).toEqual(['a/b', '~']);
  expect(pointerToPath('', values)).toEqual([]);
});
