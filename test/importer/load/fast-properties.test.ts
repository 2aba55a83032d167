import * as path from 'path';
import { inV8Process } from '../../helpers/v8-natives';

/**
 * The fast loader returns a mapping of many keys as an object in V8's fast mode, not as the hash
 * table that V8 makes of an object given that many properties one computed key at a time (five
 * times the memory, which every GC of a large run then copies or marks). V8 says which it is only
 * to a process started with --allow-natives-syntax: one is started for it.
 */
const LOADER = path.resolve(__dirname, '..', '..', '..', 'src', 'importer', 'load', 'fast-block.ts');

function modes(text: string): Record<string, boolean> {
  return inV8Process(`
    const { loadBlockDocument } = require(${JSON.stringify(LOADER)});
    const [doc] = loadBlockDocument(${JSON.stringify(text)});
    const out = {};
    const visit = (o, at) => { out[at] = fast(o); for (const [k, v] of Object.entries(o)) if (v && typeof v === 'object' && !Array.isArray(v)) visit(v, at + '.' + k); };
    visit(doc, '$');
    return out;`) as Record<string, boolean>;
}

const mapping = (n: number, indent = '  ') => Array.from({ length: n }, (_, i) => `${indent}key_${i}: value-${i}`).join('\n');

describe('the fast loader keeps large mappings in fast mode', () => {
  test('mappings of 8 to 900 keys, nested, are all fast-mode objects', () => {
    const text = ['schema: armada/Chart/v1', 'data:', '  small:', mapping(8, '    '), '  conf:', mapping(32, '    '), '  big:', mapping(900, '    '), ''].join('\n');
    expect(modes(text)).toEqual({ $: true, '$.data': true, '$.data.small': true, '$.data.conf': true, '$.data.big': true });
  });

  test('the same values, keys and order as written', () => {
    // The copy must not change what the loader gives: checked against the mapping built key by key.
    const [keys, plainPrototype, descriptor] = inV8Process(`
      const { loadBlockDocument } = require(${JSON.stringify(LOADER)});
      const [doc] = loadBlockDocument(${JSON.stringify(`conf:\n${mapping(40)}\n`)});
      return [Object.keys(doc.conf), Object.getPrototypeOf(doc.conf) === Object.prototype, Object.getOwnPropertyDescriptor(doc.conf, 'key_39')];`) as [string[], boolean, PropertyDescriptor];
    expect(keys).toEqual(Array.from({ length: 40 }, (_, i) => `key_${i}`));
    expect(plainPrototype).toBe(true);
    expect(descriptor).toEqual({ value: 'value-39', writable: true, enumerable: true, configurable: true });
  });
});
