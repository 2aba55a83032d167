import { execFileSync } from 'child_process';
import * as path from 'path';

/**
 * The fast loader returns a mapping of many keys as an object in V8's fast mode, not as the hash
 * table that V8 makes of an object given that many properties one computed key at a time (five
 * times the memory, which every GC of a large run then copies or marks). V8 says which it is only
 * to a process started with --allow-natives-syntax: one is started for it.
 */
const LOADER = path.resolve(__dirname, '..', '..', '..', 'src', 'importer', 'load', 'fast-block.ts');

function modes(text: string): Record<string, boolean> {
  const script = `
    const { loadBlockDocument } = require(${JSON.stringify(LOADER)});
    const [doc] = loadBlockDocument(${JSON.stringify(text)});
    const out = {};
    const visit = (o, at) => { out[at] = eval('%HasFastProperties(o)'); for (const [k, v] of Object.entries(o)) if (v && typeof v === 'object' && !Array.isArray(v)) visit(v, at + '.' + k); };
    visit(doc, '$');
    process.stdout.write(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '-r', require.resolve('ts-node/register/transpile-only'), '-e', script], { encoding: 'utf8' }));
}

const mapping = (n: number, indent = '  ') => Array.from({ length: n }, (_, i) => `${indent}key_${i}: value-${i}`).join('\n');

describe('the fast loader keeps large mappings in fast mode', () => {
  test('mappings of 8 to 900 keys, nested, are all fast-mode objects', () => {
    const text = ['schema: armada/Chart/v1', 'data:', '  small:', mapping(8, '    '), '  conf:', mapping(32, '    '), '  big:', mapping(900, '    '), ''].join('\n');
    expect(modes(text)).toEqual({ $: true, '$.data': true, '$.data.small': true, '$.data.conf': true, '$.data.big': true });
  });

  test('the same values, keys and order as written', () => {
    // The copy must not change what the loader gives: checked against the mapping built key by key.
    const script = `
      const { loadBlockDocument } = require(${JSON.stringify(LOADER)});
      const [doc] = loadBlockDocument(${JSON.stringify(`conf:\n${mapping(40)}\n`)});
      process.stdout.write(JSON.stringify([Object.keys(doc.conf), Object.getPrototypeOf(doc.conf) === Object.prototype, Object.getOwnPropertyDescriptor(doc.conf, 'key_39')]));`;
    const [keys, plainPrototype, descriptor] = JSON.parse(execFileSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), '-e', script], { encoding: 'utf8' }));
    expect(keys).toEqual(Array.from({ length: 40 }, (_, i) => `key_${i}`));
    expect(plainPrototype).toBe(true);
    expect(descriptor).toEqual({ value: 'value-39', writable: true, enumerable: true, configurable: true });
  });
});
