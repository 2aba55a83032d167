/**
 * The CLI hands chart values to the YAML writer as a view of the spec's values instead of a
 * sorted copy (no copy is built for objects nobody keeps). The writer must write a view exactly as
 * it writes the sorted copy: key order (array-index keys included), `__proto__` as a key, objects
 * that are not plain (timestamps, through the target's leaf or not), empty collections, and every
 * writer's whole output on the corpus, the fidelity fixtures and the generated site.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PyTimestamp } from '../../src/importer/load/py-values';
import { resolveInputs } from '../../src/importer/resolve';
import { Diagnostic } from '../../src/model/diagnostics';
import { buildPlan } from '../../src/model/plan';
import { sortKeysDeep, timestampAsString } from '../../src/model/values';
import { toAirshipCharts } from '../../src/model/wire/airship-v1';
import { toArmadaDocuments } from '../../src/model/wire/documents';
import { valuesOut, WriterForm } from '../../src/model/wire/emit';
import { toFluxObjects } from '../../src/model/wire/flux-v2';
import { KeleustesReleaseNaming, toKeleustesObjects } from '../../src/model/wire/keleustes-v1alpha1';
import { SortedValuesView, toYamlStream } from '../../src/model/wire/yaml';
import { SchemaVersion } from '../../src/model/spec';
import { corpusFiles, sharedPath } from '../helpers/shared';
import { rng } from '../helpers/random';

const FOR_YAML: WriterForm = { valuesForYamlWriter: true };

const shown = (d: Diagnostic) => [d.severity, d.code, d.location, d.document, d.field, d.message].join(' | ');

/** A value with own `__proto__` key, as the loader builds one. */
function withProtoKey(value: unknown): Record<string, unknown> {
  const o: Record<string, unknown> = { b: 1 };
  Object.defineProperty(o, '__proto__', { value, writable: true, enumerable: true, configurable: true });
  o.a = 2;
  return o;
}

/** A class instance with own keys: not plain, so the copy keeps it and writes its keys unsorted. */
class Opaque {
  z = 1;
  a = [{ y: 2, b: 3 }];
}

const KEYS = ['b', 'a', '10', '9', '0', '01', '-1', '1.5', '4294967294', '4294967295', '__proto__', 'constructor', 'Z', '', ' ', 'é', 'yes', '😀'];

function randomTree(r: () => number, depth = 0): unknown {
  const x = r();
  if (depth > 4 || x < 0.35) {
    const leaves = [null, true, false, 0, -1, 1e21, 0.5, NaN, 10n ** 20n, '', 'text', 'yes', '1', 'a\nb\n', new PyTimestamp(2001, 12, 14), new PyTimestamp(2001, 12, 14, 21, 59, 43, 0, -300), [], {}, Object.create(null)];
    return leaves[Math.floor(r() * leaves.length)];
  }
  if (x < 0.55) return Array.from({ length: Math.floor(r() * 4) }, () => randomTree(r, depth + 1));
  if (x < 0.6) return new Opaque();
  if (x < 0.65) return withProtoKey(randomTree(r, depth + 1));
  const o: Record<string, unknown> = r() < 0.2 ? Object.create(null) : {};
  for (let i = 0, n = Math.floor(r() * 6); i < n; i++) {
    const k = KEYS[Math.floor(r() * KEYS.length)];
    if (k === '__proto__') Object.defineProperty(o, k, { value: randomTree(r, depth + 1), writable: true, enumerable: true, configurable: true });
    else o[k] = randomTree(r, depth + 1);
  }
  return o;
}

const asCopy = (tree: Record<string, unknown>, leaf?: (v: object) => unknown) => toYamlStream([{ kind: 'x', values: sortKeysDeep(tree, leaf), after: 1 }]);
const asView = (tree: Record<string, unknown>, leaf?: (v: object) => unknown) => toYamlStream([{ kind: 'x', values: new SortedValuesView(tree, leaf), after: 1 }]);

describe('a values view is written exactly as the sorted copy', () => {
  test('array-index keys come first, in numeric order, as in any copy', () => {
    const tree = { b: 1, '10': 2, a: { '9': 3, '10': 4, x: 5, '01': 6 }, '2': 7 };
    const out = asView(tree);
    expect(out).toBe(asCopy(tree));
    expect(out).toBe('---\nkind: x\nvalues:\n  "2": 7\n  "10": 2\n  a:\n    "9": 3\n    "10": 4\n    "01": 6\n    x: 5\n  b: 1\nafter: 1\n');
  });

  test('__proto__ is a key like any other; null-prototype objects are plain', () => {
    const tree = withProtoKey({ z: 1, a: 2 });
    expect(asView(tree)).toBe(asCopy(tree));
    expect(asView(tree)).toContain('  __proto__:\n    a: 2\n    z: 1\n');
    const bare = Object.assign(Object.create(null), { b: 1, a: 2 });
    expect(asView({ m: bare })).toBe(asCopy({ m: bare }));
  });

  test('timestamps through the leaf (quoted strings) or not (written as PyYAML writes them)', () => {
    const tree = { when: new PyTimestamp(2001, 12, 14), list: [new PyTimestamp(2001, 12, 14, 1, 2, 3)] };
    expect(asView(tree, timestampAsString)).toBe(asCopy(tree, timestampAsString));
    expect(asView(tree, timestampAsString)).toContain('when: "2001-12-14"');
    expect(asView(tree)).toBe(asCopy(tree));
    expect(asView(tree)).toContain('when: 2001-12-14\n');
  });

  test('empty collections, objects that are not plain, and empty values', () => {
    for (const tree of [{}, { a: [], b: {}, c: [[]], d: [{}], e: [[], [1]] }, { o: new Opaque(), l: [new Opaque()] }]) {
      expect(asView(tree as Record<string, unknown>)).toBe(asCopy(tree as Record<string, unknown>));
    }
    expect(asView({})).toBe('---\nkind: x\nvalues: {}\nafter: 1\n');
  });

  test('3,000 random trees, with and without a leaf', () => {
    const r = rng(20261204);
    for (let i = 0; i < 3000; i++) {
      const tree = randomTree(r, 1);
      const root = (typeof tree === 'object' && tree !== null && !Array.isArray(tree) ? tree : { v: tree }) as Record<string, unknown>;
      const leaf = i % 2 === 0 ? timestampAsString : undefined;
      const view = asView(root, leaf);
      if (view !== asCopy(root, leaf)) throw new Error(`tree ${i} differs:\n${view}\n---- copy:\n${asCopy(root, leaf)}`);
    }
  });

  test('mappings of every width up to 80 keys, array indexes among them: keys in the order of a sorted copy', () => {
    const r = rng(20261205);
    const pool = [...KEYS, ...Array.from({ length: 90 }, (_, i) => (i % 3 === 0 ? String(i * 7) : `k${(i * 37) % 101}${'é'.repeat(i % 2)}`))];
    for (let width = 0; width <= 80; width++) {
      const o: Record<string, unknown> = {};
      while (Object.keys(o).length < width) o[pool[Math.floor(r() * pool.length)]] = width;
      expect(asView({ o })).toBe(asCopy({ o }));
    }
  });

  test('valuesOut gives a view only when the objects are for the YAML writer', () => {
    const v = { b: 1, a: 2 };
    expect(Object.keys(valuesOut(v)!)).toEqual(['a', 'b']);
    expect(valuesOut(v)).not.toBe(v);
    expect(valuesOut(v, undefined, FOR_YAML)).toBeInstanceOf(SortedValuesView);
    expect(valuesOut(undefined, undefined, FOR_YAML)).toBeUndefined();
  });
});

describe('every writer writes the same YAML and the same findings with values views', () => {
  const fidelity = path.resolve(__dirname, '..', 'fixtures', 'fidelity');
  const generated = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-view-')), 'site.yaml');
  fs.writeFileSync(generated, execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '120'], { encoding: 'utf8' }));
  const inputs = [
    ...corpusFiles().map((f) => sharedPath('corpus', f.file)),
    ...fs.readdirSync(fidelity).filter((f) => f.endsWith('.yaml')).map((f) => path.join(fidelity, f)),
    generated,
  ];

  test.each(inputs.map((f) => [path.basename(f), f]))('%s', async (_name, file) => {
    const r = await resolveInputs([file as string]);
    if (!r.spec) return;
    const spec = r.spec;
    const plan = buildPlan(spec);
    const writers: [string, (form: WriterForm) => { objects: unknown[]; diagnostics: { all: readonly Diagnostic[] } }][] = [
      ['documents-v1', (f) => { const o = toArmadaDocuments(spec, { version: SchemaVersion.V1 }, f); return { objects: o.documents, diagnostics: o.diagnostics }; }],
      ['documents-v2', (f) => { const o = toArmadaDocuments(spec, { version: SchemaVersion.V2 }, f); return { objects: o.documents, diagnostics: o.diagnostics }; }],
      ['airship-v1', (f) => toAirshipCharts(spec, plan, { syncWaves: true }, f)],
      ['keleustes-v1alpha1', (f) => toKeleustesObjects(spec, plan, { releaseNaming: KeleustesReleaseNaming.PREFIXED }, f)],
      ['flux-v2', (f) => toFluxObjects(spec, plan, {}, f)],
    ];
    let views = 0;
    for (const [name, write] of writers) {
      const copied = write({});
      const viewed = write(FOR_YAML);
      views += JSON.stringify(viewed.objects, (_k, v) => (v instanceof SortedValuesView ? '<view>' : typeof v === 'bigint' ? String(v) : v)).split('<view>').length - 1;
      expect([name, toYamlStream(viewed.objects)]).toEqual([name, toYamlStream(copied.objects)]);
      expect([name, viewed.diagnostics.all.map(shown)]).toEqual([name, copied.diagnostics.all.map(shown)]);
    }
    // Every chart with values wrote them through a view.
    if (spec.charts.some((c) => c.values !== undefined && Object.keys(c.values).length > 0)) expect(views).toBeGreaterThan(0);
  });
});
