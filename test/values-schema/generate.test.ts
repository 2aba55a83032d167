/** The text of generated declarations: names, comments, and the type each construct becomes. */
import { generateValuesTypes, GenerateValuesTypesOptions, JsonSchema, loadValuesSchema } from '../../src/values-schema';
import { chartDir } from './helpers';

function gen(schema: JsonSchema | undefined, options: Partial<GenerateValuesTypesOptions> = {}): string {
  return generateValuesTypes(schema, { typeName: 'Values', header: [], ...options });
}

/** A root object schema with the given properties. */
function props(properties: Record<string, JsonSchema>, extra: Record<string, unknown> = {}): JsonSchema {
  return { type: 'object', properties, ...extra };
}

describe('names', () => {
  test('interfaces are named from the type name and the property path, in PascalCase', () => {
    const text = gen(
      props({
        pod: props({ replicas: props({ server: { type: 'integer' } }) }),
        'db-init': props({ image: { type: 'string' } }),
        ks_user: props({ API_KEY: props({ v: { type: 'string' } }) }),
      }),
    );
    expect(text).toContain('export interface Values {\n  pod?: ValuesPod;\n');
    expect(text).toContain('export interface ValuesPod {\n  replicas?: ValuesPodReplicas;\n}');
    expect(text).toContain('export interface ValuesPodReplicas {\n  server?: number;\n}');
    expect(text).toContain("  'db-init'?: ValuesDbInit;");
    expect(text).toContain('  ks_user?: ValuesKsUser;');
    expect(text).toContain('  API_KEY?: ValuesKsUserApiKey;');
  });

  test('colliding names get numeric suffixes in schema order', () => {
    const text = gen(
      props({
        pod: props({ replicas: props({ a: { type: 'string' } }) }),
        podReplicas: props({ b: { type: 'string' } }),
        'pod-replicas': props({ c: { type: 'string' } }),
      }),
    );
    expect(text).toContain('  replicas?: ValuesPodReplicas;');
    expect(text).toContain('  podReplicas?: ValuesPodReplicas2;');
    expect(text).toContain("  'pod-replicas'?: ValuesPodReplicas3;");
    expect(text).toContain('export interface ValuesPodReplicas2 {\n  b?: string;\n}');
  });

  test('declarations follow the schema: parents before children, siblings in order', () => {
    const text = gen(props({ b: props({ x: props({ y: { type: 'string' } }) }), a: props({ z: { type: 'string' } }) }));
    const order = [...text.matchAll(/export interface (\w+)/g)].map((m) => m[1]);
    expect(order).toEqual(['Values', 'ValuesB', 'ValuesBX', 'ValuesA']);
  });

  test('the same schema gives the same text every time', () => {
    const schema = loadValuesSchema(chartDir('keystone'));
    expect(gen(schema)).toBe(gen(JSON.parse(JSON.stringify(schema)) as JsonSchema));
  });

  test('keys that are not identifiers are quoted; identifiers are not', () => {
    const text = gen(props({ 'db-init': { type: 'string' }, "it's": { type: 'string' }, '9lives': { type: 'string' }, $ok: { type: 'string' }, class: { type: 'string' } }));
    expect(text).toContain("  'db-init'?: string;");
    expect(text).toContain("  'it\\'s'?: string;");
    expect(text).toContain("  '9lives'?: string;");
    expect(text).toContain('  $ok?: string;');
    expect(text).toContain('  class?: string;');
  });

  test('a type name that cannot name a type is refused', () => {
    expect(() => generateValuesTypes({}, { typeName: 'my values' })).toThrow('typeName "my values" cannot name a TypeScript type');
    expect(() => generateValuesTypes({}, { typeName: 'string' })).toThrow(/cannot name a TypeScript type/);
  });
});

describe('doc comments', () => {
  test('title, description, @default and @example, with comment ends escaped', () => {
    const text = gen(
      props({
        replicas: { type: 'integer', title: 'Replicas', description: 'Pods to run.\nUse an odd number.', default: 3, examples: [1, 5] },
        glob: { type: 'string', description: 'Matches /var/*/logs */ too' },
        conf: { type: 'object', default: { database: { max_connections: 8192, innodb_buffer_pool_size: '1024M' } } },
        old: { type: 'string', deprecated: true },
      }),
    );
    expect(text).toContain(
      ['  /**', '   * Replicas', '   *', '   * Pods to run.', '   * Use an odd number.', '   *', '   * @default 3', '   * @example 1', '   * @example 5', '   */', '  replicas?: number;'].join('\n'),
    );
    expect(text).toContain('  /** Matches /var/*\\/logs *\\/ too */');
    expect(text).toContain(
      ['   * @default', '   * {', '   *   "database": {', '   *     "max_connections": 8192,', '   *     "innodb_buffer_pool_size": "1024M"', '   *   }', '   * }'].join('\n'),
    );
    expect(text).toContain('  /** @deprecated */\n  old?: string;');
  });

  test('the root and definitions carry their own comments', () => {
    const text = gen({
      title: 'Chart values',
      type: 'object',
      properties: { q: { $ref: '#/definitions/quantity' } },
      definitions: { quantity: { description: 'A Kubernetes quantity.', type: ['string', 'number'] } },
    });
    expect(text).toContain('/** Chart values */\nexport interface Values {');
    expect(text).toContain('/** A Kubernetes quantity. */\nexport type ValuesQuantity = string | number;');
  });

  test('a header, by default and as given', () => {
    expect(generateValuesTypes({}, { typeName: 'V' })).toMatch(/^\/\/ Generated from the chart's values\.schema\.json\. Do not edit by hand\.\n\n/);
    expect(generateValuesTypes({}, { typeName: 'V', header: ['mariadb 0.2.45', ''] })).toMatch(/^\/\/ mariadb 0\.2\.45\n\/\/\n\nexport/);
  });
});

describe('types', () => {
  test('required keys are not optional, including draft-03 `required: true` and keys without a schema', () => {
    const text = gen(props({ image: { type: 'string' }, tag: { type: 'string', required: true } as unknown as JsonSchema, pullPolicy: { type: 'string' } }, { required: ['image', 'extra'] }));
    expect(text).toContain('  image: string;\n  tag: string;\n  pullPolicy?: string;\n  extra: unknown;');
  });

  test('scalar types, integer as number, and type arrays', () => {
    const text = gen(
      props({
        s: { type: 'string' },
        i: { type: 'integer' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        z: { type: 'null' },
        sn: { type: ['string', 'null'] },
        any: {},
        draft3: { type: 'any' },
      }),
    );
    expect(text).toContain('  s?: string;\n  i?: number;\n  n?: number;\n  b?: boolean;\n  z?: null;\n  sn?: string | null;\n  any?: unknown;\n  draft3?: unknown;');
  });

  test('enum and const become literal unions; enum values that `type` rejects are left out', () => {
    const text = gen(
      props({
        policy: { enum: ['Always', 'IfNotPresent', 'Never'] },
        mixed: { enum: ['a', 1, true, null, { k: 'v' }, [1, 2]] },
        typed: { type: 'string', enum: ['a', 1] },
        level: { type: 'integer', enum: [1, 2.5, 3] },
        fixed: { const: "it's" },
        quoted: { enum: ['line\nbreak', 'back\\slash'] },
      }),
    );
    expect(text).toContain("  policy?: 'Always' | 'IfNotPresent' | 'Never';");
    expect(text).toContain("  mixed?: 'a' | 1 | true | null | { k: 'v' } | [1, 2];");
    expect(text).toContain("  typed?: 'a';");
    expect(text).toContain('  level?: 1 | 3;');
    expect(text).toContain("  fixed?: 'it\\'s';");
    expect(text).toContain("  quoted?: 'line\\nbreak' | 'back\\\\slash';");
  });

  test('oneOf and anyOf become unions, allOf intersections; branches that only constrain are dropped', () => {
    const text = gen({
      type: 'object',
      properties: {
        port: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
        tls: { anyOf: [{ $ref: '#/definitions/tls' }, { type: 'boolean' }] },
        secure: { allOf: [{ $ref: '#/definitions/tls' }, props({ ca: { type: 'string' } })] },
        auth: { type: 'object', properties: { user: { type: 'string' }, token: { type: 'string' } }, oneOf: [{ required: ['user'] }, { required: ['token'] }] },
        named: { oneOf: [props({ a: { type: 'string' } }, { title: 'by name' }), props({ b: { type: 'string' } })] },
      },
      definitions: { tls: props({ cert: { type: 'string' } }) },
    });
    expect(text).toContain('  port?: number | string;');
    expect(text).toContain('  tls?: ValuesTls | boolean;');
    expect(text).toContain('  secure?: ValuesTls & ValuesSecurePart2;');
    expect(text).toContain('export interface ValuesSecurePart2 {\n  ca?: string;\n}');
    expect(text).toContain('  auth?: ValuesAuth;');
    expect(text).toContain('  named?: ValuesNamedByName | ValuesNamedOption2;');
  });

  test('unions inside intersections and arrays are parenthesised', () => {
    const text = gen(props({ x: { allOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'string' }] }, l: { type: 'array', items: { type: ['string', 'number'] } } }));
    expect(text).toContain('  x?: (string | number) & string;');
    expect(text).toContain('  l?: (string | number)[];');
  });

  test('additionalProperties true, a schema or false; patternProperties; maps without named keys', () => {
    const text = gen(
      props({
        annotations: { type: 'object' },
        tags: { type: 'object', additionalProperties: { type: 'string' } },
        closed: { type: 'object', additionalProperties: false },
        open: props({ a: { type: 'string' } }, { additionalProperties: true }),
        strict: props({ a: { type: 'string' } }, { additionalProperties: false }),
        sloppy: props({ a: { type: 'string' } }),
        labels: { type: 'object', patternProperties: { '^app\\.kubernetes\\.io/': { type: 'string' }, '^x-': { type: 'integer' } }, additionalProperties: false },
        nested: { type: 'object', additionalProperties: props({ v: { type: 'string' } }) },
      }),
    );
    expect(text).toContain('  annotations?: { [key: string]: unknown };');
    expect(text).toContain('  tags?: { [key: string]: string };');
    expect(text).toContain('  closed?: { [key: string]: never };');
    expect(text).toContain('export interface ValuesOpen {\n  a?: string;\n  [key: string]: unknown;\n}');
    expect(text).toContain('export interface ValuesStrict {\n  a?: string;\n}');
    expect(text).toContain('export interface ValuesSloppy {\n  a?: string;\n}');
    expect(text).toContain(['  labels?: {', '    /** Keys matching `^app\\.kubernetes\\.io/`, `^x-`. */', '    [key: string]: string | number;', '  };'].join('\n'));
    expect(text).toContain('  nested?: { [key: string]: ValuesNestedValue };');
  });

  test('an index signature is widened to the named properties, as TypeScript requires', () => {
    const text = gen(props({ tags: props({ mariadb: { type: 'string' }, replicas: { type: 'integer' } }, { required: ['mariadb'], additionalProperties: { type: 'string' } }) }));
    expect(text).toContain(
      [
        '  mariadb: string;',
        '  replicas?: number;',
        '  /** Widened to the types of the named properties, as TypeScript requires. */',
        '  [key: string]: string | number | undefined;',
      ].join('\n'),
    );
  });

  test('additionalPropertiesByDefault opens objects that do not say', () => {
    const schema = props({ a: props({ b: { type: 'string' } }) });
    expect(gen(schema)).toContain('export interface ValuesA {\n  b?: string;\n}');
    expect(gen(schema, { additionalPropertiesByDefault: true })).toContain('export interface ValuesA {\n  b?: string;\n  [key: string]: unknown;\n}');
    const tags = props({ a: props({ b: { type: 'string' } }, { additionalProperties: { type: 'string' } }) });
    expect(gen(tags)).toContain(
      'export interface ValuesA {\n  b?: string;\n  /** With `undefined` for the optional properties, as TypeScript requires. */\n  [key: string]: string | undefined;\n}',
    );
  });

  test('arrays and tuples, in the draft-2020-12 and the older spelling', () => {
    const text = gen(
      props({
        list: { type: 'array', items: { type: 'string' } },
        untyped: { type: 'array' },
        objects: { type: 'array', items: props({ name: { type: 'string' } }) },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 2 },
        head: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } },
        old: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false, minItems: 1 },
        oldOpen: { type: 'array', items: [{ type: 'string' }] },
        capped: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'string' }], maxItems: 1 },
        empty: { type: 'array', items: false },
      }),
    );
    expect(text).toContain('  list?: string[];');
    expect(text).toContain('  untyped?: unknown[];');
    expect(text).toContain('  objects?: ValuesObjectsItem[];');
    expect(text).toContain('  pair?: [string, number];');
    expect(text).toContain('  head?: [string?, ...boolean[]];');
    expect(text).toContain('  old?: [string, number?];');
    expect(text).toContain('  oldOpen?: [string?, ...unknown[]];');
    expect(text).toContain('  capped?: [string?];');
    expect(text).toContain('  empty?: [];');
  });

  test('$ref to definitions and $defs, recursive and to the root', () => {
    const text = gen({
      type: 'object',
      properties: {
        a: { $ref: '#/definitions/tls-config' },
        b: { $ref: '#/$defs/node' },
        c: { $ref: '#' },
        d: { $ref: '#/properties/a' },
        e: { $ref: '#tls' },
      },
      definitions: { 'tls-config': { $anchor: 'tls', type: 'object', properties: { cert: { type: 'string' } } } },
      $defs: { node: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/$defs/node' } } } } },
    });
    expect(text).toContain('  a?: ValuesTlsConfig;\n  b?: ValuesNode;\n  c?: Values;\n  d?: ValuesA;\n  e?: ValuesTlsConfig;');
    // `#/properties/a` is the property's schema, itself a reference.
    expect(text).toContain('export type ValuesA = ValuesTlsConfig;');
    expect(text).toContain('export interface ValuesNode {\n  children?: ValuesNode[];\n}');
    expect(text.match(/export interface ValuesTlsConfig/g)).toHaveLength(1);
  });

  test('a recursive union through arrays and maps stays typed', () => {
    const text = gen({
      type: 'object',
      properties: { data: { $ref: '#/definitions/json' } },
      definitions: { json: { anyOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'array', items: { $ref: '#/definitions/json' } }, { type: 'object', additionalProperties: { $ref: '#/definitions/json' } }] } },
    });
    expect(text).toContain(['export type ValuesJson =', '  | string', '  | number', '  | boolean', '  | null', '  | ValuesJson[]', '  | { [key: string]: ValuesJson };'].join('\n'));
  });

  test('readOnly properties, and everything readonly on request', () => {
    const schema = props({ status: props({ ok: { type: 'boolean' } }, { readOnly: true }), list: { type: 'array', items: { type: 'string' } }, map: { type: 'object' } });
    expect(gen(schema)).toContain('  readonly status?: ValuesStatus;\n  list?: string[];');
    const text = gen(schema, { readonly: true });
    expect(text).toContain('  readonly status?: ValuesStatus;\n  readonly list?: readonly string[];\n  readonly map?: { readonly [key: string]: unknown };');
    expect(text).toContain('  readonly ok?: boolean;');
  });

  test('OpenAPI and Kubernetes extensions: nullable, int-or-string, preserve-unknown-fields', () => {
    const text = gen(
      props({
        n: { type: 'string', nullable: true },
        port: { 'x-kubernetes-int-or-string': true },
        raw: props({ a: { type: 'string' } }, { 'x-kubernetes-preserve-unknown-fields': true }),
      }),
    );
    expect(text).toContain('  n?: string | null;\n  port?: number | string;\n  raw?: ValuesRaw;');
    expect(text).toContain('export interface ValuesRaw {\n  a?: string;\n  [key: string]: unknown;\n}');
  });

  test('the root: an open map without a schema, a type alias when it is not a plain object', () => {
    expect(gen(undefined)).toBe('/** The chart has no values schema: any values. */\nexport type Values = { [key: string]: unknown };\n');
    expect(gen({})).toBe('export type Values = { [key: string]: unknown };\n');
    expect(gen(true)).toBe('export type Values = { [key: string]: unknown };\n');
    expect(gen({ $ref: '#/definitions/v', definitions: { v: props({ a: { type: 'string' } }) } })).toContain('export type Values = ValuesV;');
    expect(gen({ type: ['object', 'null'], properties: { a: { type: 'string' } } })).toContain('export type Values = ValuesObject | null;\n\nexport interface ValuesObject {');
  });
});

describe('what cannot be typed becomes unknown, with the reason', () => {
  test('external refs, unknown types, refs to nowhere, and values that are not schemas', () => {
    const text = gen(
      props({
        ext: { $ref: 'common.json#/definitions/image' },
        odd: { type: 'decimal' },
        odd2: { type: 7 } as unknown as JsonSchema,
        gone: { $ref: '#/definitions/missing' },
        anchor: { $ref: '#nothing' },
        dyn: { $dynamicRef: '#meta' },
        junk: 'yes' as unknown as JsonSchema,
      }),
    );
    expect(text).toContain('  ext?: unknown /* unsupported $ref "common.json#/definitions/image": only references inside this schema are supported */;');
    expect(text).toContain('  odd?: unknown /* unsupported type "decimal" */;');
    expect(text).toContain('  odd2?: unknown /* unsupported type 7 */;');
    expect(text).toContain('  gone?: unknown /* $ref "#/definitions/missing" points to nothing in this schema */;');
    expect(text).toContain('  anchor?: unknown /* $ref "#nothing": no such anchor */;');
    expect(text).toContain('  dyn?: unknown /* unsupported $dynamicRef "#meta" */;');
    expect(text).toContain('  junk?: unknown /* not a schema */;');
  });

  test('aliases that would refer to themselves', () => {
    const text = gen({
      type: 'object',
      properties: { a: { $ref: '#/definitions/a' }, self: { $ref: '#/definitions/self' } },
      definitions: {
        a: { anyOf: [{ $ref: '#/definitions/b' }, { type: 'null' }] },
        b: { anyOf: [{ $ref: '#/definitions/a' }, { type: 'string' }] },
        self: { allOf: [{ $ref: '#/definitions/self' }, { type: 'string' }] },
      },
    });
    expect(text).toContain('export type ValuesA = unknown /* circular $ref "#/definitions/b" */;');
    expect(text).toContain('export type ValuesB = ValuesA | string;');
    expect(text).toContain('export type ValuesSelf = string;');
  });

  test('malformed keywords never throw', () => {
    const schema = {
      type: 'object',
      properties: { a: { properties: 3, required: 'x', items: 'x', enum: 'x', allOf: {}, anyOf: [1, null], patternProperties: [] } },
      definitions: 5,
    } as unknown as JsonSchema;
    expect(() => gen(schema)).not.toThrow();
    expect(gen(schema)).toContain('  a?: ');
  });
});

describe('deep schemas', () => {
  test('nested free-form objects print in linear time (each literal was printed twice per level: 2^depth)', () => {
    let schema: JsonSchema = { type: 'string' };
    for (let i = 0; i < 60; i++) schema = { type: 'object', additionalProperties: schema };
    const t = Date.now();
    const code = generateValuesTypes({ type: 'object', properties: { a: schema } }, { typeName: 'V' });
    expect(Date.now() - t).toBeLessThan(2000);
    expect(code).toContain('  a?: {\n    [key: string]: {\n');
    // Short ones still fit on one line.
    expect(generateValuesTypes({ type: 'object', properties: { a: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'number' } } } } }, { typeName: 'V' })).toContain(
      '  a?: { [key: string]: { [key: string]: number } };',
    );
  });
});
