import * as path from 'path';
import { inV8Process } from '../helpers/v8-natives';

/**
 * Chart values copied key by key (sorted, cloned, merged) come out as fast-mode objects, not the
 * hash tables V8 makes of objects given more than about 16 properties that way. V8 says which
 * only to a process started with --allow-natives-syntax: one is started for it.
 */
const VALUES = path.resolve(__dirname, '..', '..', 'src', 'model', 'values.ts');

const run = (body: string) => inV8Process(`const v = require(${JSON.stringify(VALUES)}); ${body}`);

describe('copies of chart values are fast-mode objects', () => {
  test('sortKeysDeep, cloneJson and mergeValues of a 40-key mapping, and the 40 keys added by an override', () => {
    expect(
      run(`
        const wide = {}; for (let i = 39; i >= 0; i--) wide['key_' + i] = i;
        const extra = {}; for (let i = 0; i < 40; i++) extra['more_' + i] = i;
        const site = { conf: wide, small: { a: 1 } };
        const sorted = v.sortKeysDeep(site);
        const merged = v.mergeValues(site, { conf: extra });
        return {
          source: fast(wide),
          sorted: fast(sorted.conf), sortedOrder: Object.keys(sorted.conf).slice(0, 3),
          cloned: fast(v.cloneJson(site).conf),
          merged: fast(merged.conf), mergedKeys: Object.keys(merged.conf).length,
        };`),
    ).toEqual({ source: false, sorted: true, sortedOrder: ['key_0', 'key_1', 'key_10'], cloned: true, merged: true, mergedKeys: 80 });
  });

  test('__proto__ stays a plain data key of the copy', () => {
    expect(
      run(`
        const o = {}; for (let i = 0; i < 20; i++) o['k' + i] = i;
        Object.defineProperty(o, '__proto__', { value: { polluted: true }, writable: true, enumerable: true, configurable: true });
        const c = v.sortKeysDeep({ o }).o;
        return [Object.getPrototypeOf(c) === Object.prototype, Object.hasOwn(c, '__proto__'), c.polluted === undefined, fast(c)];`),
    ).toEqual([true, true, true, true]);
  });
});
