/**
 * Generated declarations compile under `tsc --strict`, accept values that the schema accepts and
 * reject values that it rejects.
 */
import { generateValuesTypes, JsonSchema, loadValuesSchema, validateValues } from '../../src/values-schema';
import { chartDir, chartValues } from './helpers';
import { typeCheck } from './typecheck';

/** A module that imports `typeName` from `./types` and declares `value` with it. */
function sample(typeName: string, value: unknown, extra = ''): string {
  return `import type { ${typeName} } from './types';\n\nexport const values: ${typeName} = ${JSON.stringify(value, null, 2)};\n${extra}`;
}

describe('fixture charts', () => {
  const charts = [
    { chart: 'mariadb', typeName: 'MariadbValues' },
    { chart: 'keystone', typeName: 'KeystoneValues' },
    { chart: 'memcached', typeName: 'MemcachedValues' },
    { chart: 'ingress', typeName: 'IngressValues' },
  ];

  // One program for every chart: compiling is the slow part.
  const files: Record<string, string> = {};
  for (const { chart, typeName } of charts) {
    files[`${chart}/types.ts`] = generateValuesTypes(loadValuesSchema(chartDir(chart)), { typeName });
    files[`${chart}/values.ts`] = sample(typeName, chartValues(chart));
  }
  // Each wrong sample breaks the schema in one way, which validateValues also reports.
  const mariadb = chartValues('mariadb') as { pod: { replicas: Record<string, unknown> } };
  const wrong = {
    'mariadb/wrong-type.ts': { ...mariadb, pod: { ...mariadb.pod, replicas: { server: 'three' } } },
    'mariadb/misspelt-key.ts': { ...mariadb, pod: { ...mariadb.pod, replicas: { servers: 3 } } },
    'mariadb/missing-required.ts': { images: { tags: { mariadb: 'x' } } },
    'mariadb/wrong-enum.ts': { ...mariadb, images: { tags: { mariadb: 'x' }, pull_policy: 'Sometimes' } },
  };
  for (const [file, value] of Object.entries(wrong)) files[file] = sample('MariadbValues', value);
  files['keystone/wrong-rule.ts'] = sample('KeystoneValues', {
    ...chartValues('keystone'),
    conf: { policy: { admin: { all_of: ['role:admin', { none_of: ['x'] }] } } },
  });
  files['keystone/wrong-tuple.ts'] = sample('KeystoneValues', {
    ...chartValues('keystone'),
    bootstrap: { region: ['RegionOne', 'https://x', 'extra'] },
  });

  let diagnostics: Record<string, string[]> = {};
  beforeAll(() => {
    diagnostics = typeCheck(files);
  });

  test.each(charts)('$chart: the generated types compile and values.yaml fits them', ({ chart }) => {
    expect(diagnostics[`${chart}/types.ts`]).toEqual([]);
    expect(diagnostics[`${chart}/values.ts`]).toEqual([]);
  });

  test.each(charts)('$chart: values.yaml is valid against the schema too', ({ chart }) => {
    expect(validateValues(loadValuesSchema(chartDir(chart)), chartValues(chart))).toEqual([]);
  });

  test('values that break the schema do not type-check', () => {
    expect(diagnostics['mariadb/wrong-type.ts']).toEqual([expect.stringMatching(/TS2322 Type 'string' is not assignable to type 'number'/)]);
    expect(diagnostics['mariadb/misspelt-key.ts']).toEqual([
      expect.stringMatching(/TS2353 Object literal may only specify known properties, and '"servers"' does not exist in type 'MariadbValuesPodReplicas'/),
    ]);
    expect(diagnostics['mariadb/missing-required.ts']).toEqual([expect.stringMatching(/TS2741 Property 'pod' is missing/)]);
    expect(diagnostics['mariadb/wrong-enum.ts']).toEqual([
      expect.stringMatching(/TS2322 Type '"Sometimes"' is not assignable to type '"Always" \| "IfNotPresent" \| "Never"/),
    ]);
    expect(diagnostics['keystone/wrong-rule.ts']?.length).toBe(1);
    expect(diagnostics['keystone/wrong-tuple.ts']).toEqual([expect.stringMatching(/TS2322 Type 'string' is not assignable to type 'undefined'/)]);
  });

  test('the wrong samples are also reported by validateValues', () => {
    const schema = loadValuesSchema(chartDir('mariadb'));
    for (const value of Object.values(wrong)) expect(validateValues(schema, value)).not.toEqual([]);
  });
});

test('the fixtures compile under the strictest flags too, readonly and open', () => {
  const files: Record<string, string> = {};
  for (const chart of ['mariadb', 'keystone', 'memcached']) {
    const schema = loadValuesSchema(chartDir(chart));
    files[`${chart}.ts`] = generateValuesTypes(schema, { typeName: 'Values' });
    files[`${chart}-readonly-open.ts`] = generateValuesTypes(schema, { typeName: 'Values', readonly: true, additionalPropertiesByDefault: true });
  }
  const diagnostics = typeCheck(files, { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noPropertyAccessFromIndexSignature: true });
  expect(Object.values(diagnostics).flat()).toEqual([]);
});

describe('every supported construct', () => {
  const schema: JsonSchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['name', 'kind'],
    properties: {
      name: { type: 'string', title: 'Name', description: 'Ends */ a comment if not escaped.' },
      kind: { const: 'server' },
      mode: { enum: ['a', 'b', null, 3] },
      maybe: { type: ['string', 'null'] },
      count: { type: 'integer' },
      'db-init': { type: 'boolean' },
      '0': { type: 'string' },
      port: { oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^[0-9]+$' }] },
      either: { anyOf: [{ $ref: '#/$defs/tls' }, { type: 'boolean' }] },
      both: { allOf: [{ $ref: '#/$defs/tls' }, { type: 'object', properties: { ca: { type: 'string' } } }] },
      map: { type: 'object', additionalProperties: { type: 'integer' } },
      open: { type: 'object', additionalProperties: true, properties: { known: { type: 'string' } } },
      closed: { type: 'object', additionalProperties: false },
      patterned: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, properties: { id: { type: 'integer' } } },
      list: { type: 'array', items: { type: 'object', properties: { v: { type: 'number' } } } },
      tuple: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: { type: 'boolean' }, minItems: 1 },
      tree: { $ref: '#/$defs/node' },
      self: { $ref: '#' },
      status: { type: 'object', readOnly: true, properties: { ok: { type: 'boolean' } } },
      external: { $ref: 'https://example.org/other.json#/x' },
      odd: { type: 'decimal' },
      json: { $ref: '#/$defs/json' },
    },
    $defs: {
      tls: { type: 'object', required: ['cert'], properties: { cert: { type: 'string' }, key: { type: 'string' } } },
      node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } },
      json: {
        anyOf: [
          { type: ['string', 'number', 'boolean', 'null'] },
          { type: 'array', items: { $ref: '#/$defs/json' } },
          { type: 'object', additionalProperties: { $ref: '#/$defs/json' } },
        ],
      },
    },
  };
  const good = {
    name: 'n',
    kind: 'server',
    mode: null,
    maybe: null,
    count: 1,
    'db-init': true,
    '0': 'zero',
    port: '80',
    either: { cert: 'c' },
    both: { cert: 'c', ca: 'a' },
    map: { a: 1 },
    open: { known: 'k', other: [1] },
    closed: {},
    patterned: { id: 1, 'x-extra': 'e' },
    list: [{ v: 1.5 }],
    tuple: ['a', 1, true, false],
    tree: { children: [{ children: [] }] },
    self: { name: 'inner', kind: 'server' },
    status: { ok: true },
    external: { anything: 1 },
    odd: 1,
    json: { a: [1, 'x', { b: null }] },
  };
  const types = generateValuesTypes(schema, { typeName: 'AllValues' });
  const readonlyTypes = generateValuesTypes(schema, { typeName: 'AllValues', readonly: true });

  let diagnostics: Record<string, string[]> = {};
  beforeAll(() => {
    diagnostics = typeCheck({
    'types.ts': types,
    'good.ts': sample('AllValues', good),
    'wrong-const.ts': sample('AllValues', { ...good, kind: 'client' }),
    'wrong-map.ts': sample('AllValues', { ...good, map: { a: 'one' } }),
    'wrong-closed.ts': sample('AllValues', { ...good, closed: { a: 1 } }),
    'wrong-tuple.ts': sample('AllValues', { ...good, tuple: [1] }),
    'wrong-either.ts': sample('AllValues', { ...good, either: { key: 'k' } }),
    'wrong-status.ts': sample('AllValues', good, 'values.status = { ok: false };\n'),
    'ro/types.ts': readonlyTypes,
    'ro/good.ts': sample('AllValues', good),
    'ro/assign.ts': sample('AllValues', good, 'values.name = "m";\n'),
    });
  });

  test('the declarations compile, in both modes, and accept conforming values', () => {
    expect(diagnostics['types.ts']).toEqual([]);
    expect(diagnostics['good.ts']).toEqual([]);
    expect(diagnostics['ro/types.ts']).toEqual([]);
    expect(diagnostics['ro/good.ts']).toEqual([]);
    // Ajv refuses the unknown type and cannot fetch the external $ref: leave those two out.
    const { odd, external, ...checkable } = (schema as { properties: Record<string, JsonSchema> }).properties;
    expect([odd, external]).not.toContain(undefined);
    expect(validateValues({ ...(schema as object), properties: checkable }, good)).toEqual([]);
  });

  test('non-conforming values are rejected', () => {
    expect(diagnostics['wrong-const.ts']).toEqual([expect.stringMatching(/Type '"client"' is not assignable to type '"server"'/)]);
    expect(diagnostics['wrong-map.ts']).toEqual([expect.stringMatching(/Type 'string' is not assignable to type 'number'/)]);
    expect(diagnostics['wrong-closed.ts']).toEqual([expect.stringMatching(/Type 'number' is not assignable to type 'never'/)]);
    expect(diagnostics['wrong-tuple.ts']).toEqual([expect.stringMatching(/Type 'number' is not assignable to type 'string'/)]);
    expect(diagnostics['wrong-either.ts']?.length).toBe(1);
  });

  test('readonly properties cannot be assigned', () => {
    expect(diagnostics['wrong-status.ts']).toEqual([expect.stringMatching(/TS2540 Cannot assign to 'status' because it is a read-only property/)]);
    expect(diagnostics['ro/assign.ts']).toEqual([expect.stringMatching(/TS2540 Cannot assign to 'name' because it is a read-only property/)]);
  });
});

describe('schemas that cannot be typed exactly still give code that compiles', () => {
  test('alias cycles, garbage keywords, boolean schemas and an absent schema', () => {
    const cyclic: JsonSchema = {
      type: 'object',
      properties: { a: { $ref: '#/definitions/a' }, c: { $ref: '#/definitions/c' } },
      definitions: {
        a: { anyOf: [{ $ref: '#/definitions/b' }, { type: 'null' }] },
        b: { anyOf: [{ $ref: '#/definitions/a' }, { type: 'string' }] },
        c: { allOf: [{ $ref: '#/definitions/c' }] },
      },
    };
    const garbage = {
      type: 'object',
      properties: {
        a: { type: 5 },
        b: { properties: 3, required: 'x' },
        c: { items: 'x' },
        d: { enum: 'x' },
        e: { allOf: {} },
        f: 'not a schema',
        g: { $ref: 7 },
        h: { $ref: '#/nowhere' },
        i: { $dynamicRef: '#meta' },
        j: null,
      },
    } as unknown as JsonSchema;
    const diagnostics = typeCheck({
      'cyclic.ts': generateValuesTypes(cyclic, { typeName: 'CyclicValues' }),
      'garbage.ts': generateValuesTypes(garbage, { typeName: 'GarbageValues' }),
      'true.ts': generateValuesTypes(true, { typeName: 'TrueValues' }),
      'false.ts': generateValuesTypes(false, { typeName: 'FalseValues' }),
      'none.ts': generateValuesTypes(undefined, { typeName: 'NoValues' }),
    });
    expect(diagnostics).toEqual({ 'cyclic.ts': [], 'garbage.ts': [], 'true.ts': [], 'false.ts': [], 'none.ts': [] });
  });
});
