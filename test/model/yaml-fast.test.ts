/**
 * The YAML writer is tuned for speed (strings built directly, keys' spelling cached, a first-
 * character test before the implicit-type expressions): it must still write exactly what the
 * straightforward writer it replaced writes, on real manifests, the generated site, and values
 * chosen to hit every quoting rule.
 */
import { execFileSync } from 'child_process';
import * as yaml from 'js-yaml';
import { toYamlStream, yamlStreamChunks } from '../../src/model/wire/yaml';
import { toYamlStream as referenceStream } from '../helpers/yaml-reference';
import { corpusFiles, readShared, sharedPath } from '../helpers/shared';
import { lcg as rng } from '../helpers/random';

const PIECES = ['yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'N', 'o', 't', 'f', '~', 'null', 'Null', 'NULL', 'nil', 'true', 'tRue', 'TRUE', 'False', '0755', '0x1f', '0o7', '0b1', '1:20', '1_000', '1e3', '1.0e+3', '.5', '-1', '+1', '.inf', '-.Inf', '.NaN', '2001-12-14', '2001-12-14 21:59:43.10 -5', '=', '<<', '', ' ', 'a: b', 'a:', 'a #b', '#c', '- x', '[x]', '{x}', '*a', '&a', '!t', '|', '>', '%d', '@x', '`x`', "'q'", '"q"', 'é', '😀', '\t', '\n', '\n\n', ' lead', 'trail ', 'x\r\ny', '\u0001', '\u2028', '\u0085', '\u009b', '\u007f', '\ufffe', 'http://x:80/y', 'k=v', 'a/b.c', '_x', '/p', 'Zebra', 'off-by-one', 'namespace'];

function randomValue(r: () => number, depth = 0): unknown {
  const x = r();
  if (depth > 3 || x < 0.45) {
    const y = r();
    if (y < 0.1) return null;
    if (y < 0.15) return undefined;
    if (y < 0.2) return r() < 0.5;
    if (y < 0.3) return Math.floor(r() * 1e6) * (r() < 0.5 ? -1 : 1);
    if (y < 0.33) return [1e21, -1e-7, Infinity, -Infinity, NaN, 0.1][Math.floor(r() * 6)];
    if (y < 0.36) return r() * 1e3;
    let s = '';
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
    return s;
  }
  if (x < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
  const o: Record<string, unknown> = {};
  const n = Math.floor(r() * 4);
  for (let i = 0; i < n; i++) o[String(randomValue(r, 9))] = randomValue(r, depth + 1);
  return o;
}

describe('the tuned YAML writer writes what the reference writer writes', () => {
  test.each(corpusFiles().map((f) => f.file))('corpus %s', (file) => {
    const docs = yaml.loadAll(readShared('corpus', file));
    expect(toYamlStream(docs)).toBe(referenceStream(docs));
  });

  test('the generated site', () => {
    const docs = yaml.loadAll(execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '50'], { encoding: 'utf8' }));
    const out = toYamlStream(docs);
    expect(out).toBe(referenceStream(docs));
    expect(out.split('\n---\n').length).toBe(docs.length);
  });

  test('written in pieces, the same stream', () => {
    const docs = yaml.loadAll(execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '50'], { encoding: 'utf8' }));
    const pieces = [...yamlStreamChunks(docs, 4096)];
    expect(pieces.length).toBeGreaterThan(10);
    expect(pieces.every((p) => p.startsWith('---\n'))).toBe(true);
    expect(pieces.join('')).toBe(toYamlStream(docs));
    const one = [...yamlStreamChunks([])];
    expect(one).toEqual([]);
  });

  test('5,000 random values over every quoting rule', () => {
    const r = rng(20261203);
    const values = Array.from({ length: 5000 }, () => randomValue(r));
    for (const v of values) expect(toYamlStream([v])).toBe(referenceStream([v]));
    expect(toYamlStream(values)).toBe(referenceStream(values));
  });

  test('objects with no own keys, inherited keys and integer-like keys', () => {
    const inherited = Object.create({ hidden: 1 });
    inherited.own = 2;
    const values = [{ a: Object.create({ x: 1 }) }, { a: inherited }, { '10': 1, '2': 2, b: 3, '1': 4 }, [new Date(0)], { d: new Date(0) }, Object.create(null)];
    expect(toYamlStream(values)).toBe(referenceStream(values));
  });
});
