/** Violations of a values schema: one per problem, each with the value's path and a message. */
import { JsonSchema, loadValuesSchema, validateValues, ValuesSchemaError } from '../../src/values-schema';
import { compileValuesSchema } from '../../src/values-schema/compile';
import { violationsFromErrors } from '../../src/values-schema/messages';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chartDir, chartValues } from './helpers';

describe('the mariadb chart', () => {
  const schema = loadValuesSchema(chartDir('mariadb'));

  test('its own values.yaml is valid', () => {
    expect(validateValues(schema, chartValues('mariadb'))).toEqual([]);
  });

  test('several violations are reported together, each with its path', () => {
    const values = {
      images: {
        tags: { mariadb: 'mariadb:10.6', 'db-init': 42 },
        pull_policy: 'Sometimes',
        pullPolicy: 'Always',
        local_registry: { active: 'yes', exclude: ['dep_check', 'dep_check'] },
      },
      pod: {
        replicas: { server: 'three', replicaCount: 3 },
        resources: { server: { limits: { cpu: '2 cores' } } },
        tolerations: { mariadb: { tolerations: [{ operator: 'Exists' }, { operator: 'exists' }] } },
      },
      labels: { server: { node_selector_key: 'openstack-control-plane' } },
      conf: { galera: { cluster_name: 'OpenStack', wsrep_provider_options: ['gcache.size=1G', 'x', 'gcs.fc_limit'] }, backup: { days_to_keep: 0 } },
      endpoints: { oslo_db: { port: { mysql: { default: 70000 } } } },
      manifests: { statefulset: 'true' },
    };
    expect(validateValues(schema, values)).toEqual([
      { path: 'labels.server', message: 'missing required key "node_selector_value"' },
      { path: 'images.pullPolicy', message: 'unknown key "pullPolicy" (did you mean "pull_policy"?); allowed: "tags", "pull_policy", "local_registry"' },
      { path: 'images.tags["db-init"]', message: 'received 42; must be string' },
      { path: 'images.pull_policy', message: 'received "Sometimes"; must be one of "Always", "IfNotPresent", "Never"' },
      { path: 'images.local_registry.active', message: 'received "yes"; must be boolean' },
      { path: 'images.local_registry.exclude', message: 'received equal items [0] and [1]; items must be unique' },
      { path: 'pod.replicas.replicaCount', message: 'unknown key "replicaCount"; allowed: "server", "ingress"' },
      { path: 'pod.replicas.server', message: 'received "three"; must be integer' },
      { path: 'pod.resources.server.limits.cpu', message: 'received "2 cores"; must match pattern "^[0-9]+(\\\\.[0-9]+)?(m|k|Ki|M|Mi|G|Gi|T|Ti)?$"' },
      { path: 'pod.tolerations.mariadb.tolerations[1].operator', message: 'received "exists"; must be one of "Exists", "Equal"' },
      { path: 'conf.galera.cluster_name', message: 'received "OpenStack"; must match pattern "^[a-z][a-z0-9-]*$"' },
      { path: 'conf.galera.wsrep_provider_options[1]', message: 'received "x"; must match pattern "^[a-z._]+=.+$"' },
      { path: 'conf.galera.wsrep_provider_options[2]', message: 'received "gcs.fc_limit"; must match pattern "^[a-z._]+=.+$"' },
      { path: 'conf.backup.days_to_keep', message: 'received 0; must be >= 1' },
      { path: 'endpoints.oslo_db.port.mysql.default', message: 'received 70000; must be <= 65535' },
      { path: 'manifests.statefulset', message: 'received "true"; must be boolean' },
    ]);
  });

  test('missing required keys name the key, at the path of the object that lacks it', () => {
    expect(validateValues(schema, { images: { tags: {} } })).toEqual([
      { path: '', message: 'missing required key "pod"' },
      { path: 'images.tags', message: 'missing required key "mariadb"' },
    ]);
  });

  test('a near miss of an allowed key is pointed out', () => {
    expect(validateValues(schema, { images: { tags: { mariadb: 'x' }, pul_policy: 'Always' }, pod: { replicas: { sever: 1 } } })).toEqual([
      { path: 'images.pul_policy', message: 'unknown key "pul_policy" (did you mean "pull_policy"?); allowed: "tags", "pull_policy", "local_registry"' },
      { path: 'pod.replicas.sever', message: 'unknown key "sever" (did you mean "server"?); allowed: "server", "ingress"' },
    ]);
  });
});

describe('the keystone chart (draft 2020-12)', () => {
  const schema = loadValuesSchema(chartDir('keystone'));

  test('its own values.yaml is valid', () => {
    expect(validateValues(schema, chartValues('keystone'))).toEqual([]);
  });

  test('tuples, patternProperties, const, oneOf and recursive rules', () => {
    const values = {
      images: { tags: { 'keystone-api': 'k', 'ks_user': 'u' } },
      bootstrap: { region: ['RegionOne', 'https://keystone', 'extra'] },
      pod: { lifecycle: { upgrades: { deployments: { rolling_update: { max_unavailable: '10 percent', max_surge: -1 } } } } },
      conf: {
        logging: { logger_root: { level: 'TRACE' }, root: {} },
        policy: { ok: { all_of: ['role:admin', { any_of: ['a', 7] }] }, bad: { none_of: [] } },
      },
      endpoints: { identity: { scheme: 'http' } },
    };
    expect(validateValues(schema, values)).toEqual([
      { path: 'images.tags.ks_user', message: 'unknown key "ks_user" (did you mean "ks-user"?); allowed: "keystone-api", "db-init", "ks-user"' },
      { path: 'pod.lifecycle.upgrades.deployments.rolling_update.max_unavailable', message: 'received "10 percent"; must be exactly one of integer or string matching pattern "^[0-9]+%$"' },
      { path: 'pod.lifecycle.upgrades.deployments.rolling_update.max_surge', message: 'received -1; must be exactly one of integer or string matching pattern "^[0-9]+%$"' },
      { path: 'bootstrap.region', message: 'received 3 items; must have at most 2 items' },
      { path: 'conf.logging.root', message: 'unknown key "root"; allowed: keys matching "^logger_", "^handler_"' },
      { path: 'conf.logging.logger_root.level', message: 'received "TRACE"; must be one of "DEBUG", "INFO", "WARNING", "ERROR"' },
      { path: 'conf.policy.ok.all_of[1].any_of[1]', message: 'received 7; must be string, object with key "all_of" or object with key "any_of"' },
      { path: 'conf.policy.bad', message: 'received an object; must be string, object with key "all_of" or object with key "any_of"' },
      { path: 'endpoints.identity.scheme', message: 'received "http"; must be "https"' },
    ]);
  });
});

describe('the memcached chart (draft-04)', () => {
  const schema = loadValuesSchema(chartDir('memcached'));

  test('its own values.yaml is valid', () => {
    expect(validateValues(schema, chartValues('memcached'))).toEqual([]);
  });

  test('boolean exclusiveMinimum and additionalProperties false at the root', () => {
    expect(validateValues(schema, { conf: { memcached: { max_connections: 0, memory: 100000 } }, replicas: 2 })).toEqual([
      { path: 'replicas', message: 'unknown key "replicas"; allowed: "images", "conf", "pod"' },
      { path: 'conf.memcached.max_connections', message: 'received 0; must be > 0' },
      { path: 'conf.memcached.memory', message: 'received 100000; must be <= 65536' },
    ]);
  });
});

describe('no schema', () => {
  test('a chart without a schema accepts any values', () => {
    expect(loadValuesSchema(chartDir('ingress'))).toBeUndefined();
    expect(validateValues(undefined, { anything: [1, 'two'] })).toEqual([]);
  });

  test('boolean schemas', () => {
    expect(validateValues(true, { a: 1 })).toEqual([]);
    expect(validateValues(false, { a: 1 })).toEqual([{ path: '', message: 'received an object; no value is allowed here' }]);
  });
});

describe('drafts are chosen from $schema', () => {
  const tuple = { type: 'object', properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }], items: false } } };

  test('prefixItems is a keyword from 2020-12 on, unknown (and ignored) before', () => {
    const values = { pair: ['a', 'b'] };
    expect(validateValues({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...tuple }, values)).toEqual([
      { path: 'pair', message: 'received 2 items; must have at most 1 item' },
    ]);
    // In draft-07, `items: false` forbids every item.
    expect(validateValues({ $schema: 'http://json-schema.org/draft-07/schema#', ...tuple }, values)).toEqual([
      { path: 'pair[0]', message: 'received "a"; no value is allowed here' },
      { path: 'pair[1]', message: 'received "b"; no value is allowed here' },
    ]);
  });

  test('draft-04: exclusiveMaximum is a boolean', () => {
    const schema = { $schema: 'http://json-schema.org/draft-04/schema#', properties: { n: { type: 'number', maximum: 10, exclusiveMaximum: true } } };
    expect(validateValues(schema, { n: 10 })).toEqual([{ path: 'n', message: 'received 10; must be < 10' }]);
  });

  test('draft-06: exclusiveMaximum is a number, const exists', () => {
    const schema = { $schema: 'http://json-schema.org/draft-06/schema#', properties: { n: { exclusiveMaximum: 10 }, k: { const: 'x' } } };
    expect(validateValues(schema, { n: 10, k: 'y' })).toEqual([
      { path: 'n', message: 'received 10; must be < 10' },
      { path: 'k', message: 'received "y"; must be "x"' },
    ]);
  });

  test('2019-09: dependentRequired and unevaluatedProperties', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      type: 'object',
      allOf: [{ properties: { tls: { type: 'boolean' }, cert: { type: 'string' } } }],
      properties: { name: { type: 'string' } },
      dependentRequired: { tls: ['cert'] },
      unevaluatedProperties: false,
    };
    expect(validateValues(schema, { name: 'n', tls: true, extra: 1 })).toEqual([
      { path: '', message: 'missing required key "cert" (required when "tls" is set)' },
      { path: 'extra', message: 'unknown key "extra"; allowed: "name", "tls", "cert"' },
    ]);
  });

  test('no $schema, or one that names no known draft, is draft-07', () => {
    const schema = { properties: { n: { type: 'integer' } } };
    expect(validateValues(schema, { n: 'x' })).toEqual([{ path: 'n', message: 'received "x"; must be integer' }]);
    expect(validateValues({ $schema: 'http://json-schema.org/draft-03/schema#', ...schema }, { n: 'x' })).toEqual([
      { path: 'n', message: 'received "x"; must be integer' },
    ]);
  });
});

describe('messages for each kind of violation', () => {
  function check(schema: JsonSchema, value: unknown): { path: string; message: string }[] {
    return validateValues({ type: 'object', properties: { v: schema } }, { v: value });
  }

  test.each([
    [{ type: ['string', 'null'] }, 3, 'received 3; must be string or null'],
    [{ type: 'object' }, [1], 'received an array; must be object'],
    [{ type: 'array' }, {}, 'received an object; must be array'],
    [{ enum: ['only'] }, 'other', 'received "other"; must be "only"'],
    [{ minLength: 3 }, 'ab', 'received "ab" (2 characters); must be at least 3 characters long'],
    [{ maxLength: 1 }, 'ab', 'received "ab" (2 characters); must be at most 1 character long'],
    [{ minItems: 2 }, [1], 'received 1 item; must have at least 2 items'],
    [{ minProperties: 1 }, {}, 'received 0 keys; must have at least 1 key'],
    [{ maxProperties: 1 }, { a: 1, b: 2 }, 'received 2 keys; must have at most 1 key'],
    [{ multipleOf: 2 }, 3, 'received 3; must be a multiple of 2'],
    [{ exclusiveMinimum: 0 }, 0, 'received 0; must be > 0'],
    [{ not: { type: 'string' } }, 'x', 'received "x"; must not be string'],
    [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 1.5, 'received 1.5; must be string or integer'],
    [{ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1, 'received 1; matches more than one alternative (1: number, 2: integer) but must match exactly one'],
    [{ type: 'string' }, 'x'.repeat(100), null],
  ] as [JsonSchema, unknown, string | null][])('%j with %j', (schema, value, message) => {
    if (message === null) expect(check(schema, value)).toEqual([]);
    else expect(check(schema, value)).toEqual([{ path: 'v', message }]);
  });

  test('long strings are cut in messages', () => {
    const [violation] = check({ type: 'integer' }, 'x'.repeat(100));
    expect(violation?.message).toBe(`received "${'x'.repeat(57)}…"; must be integer`);
  });

  test('keys that break propertyNames, dependencies, and keys forbidden by a false schema', () => {
    expect(
      validateValues(
        {
          type: 'object',
          properties: {
            labels: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
            tls: { type: 'object', dependencies: { cert: ['key'] } },
            legacy: false,
          },
        },
        { labels: { ok: 1, Bad: 2 }, tls: { cert: 'c' }, legacy: 1 },
      ),
    ).toEqual([
      { path: 'labels.Bad', message: 'invalid key "Bad": must match pattern "^[a-z]+$"' },
      { path: 'tls', message: 'missing required key "key" (required when "cert" is set)' },
      { path: 'legacy', message: 'key "legacy" is not allowed here' },
    ]);
  });

  test('if/then reports what then requires, not the if', () => {
    const schema = {
      type: 'object',
      properties: { backup: { type: 'object', if: { properties: { enabled: { const: true } } }, then: { required: ['path'] } } },
    };
    expect(validateValues(schema, { backup: { enabled: true } })).toEqual([{ path: 'backup', message: 'missing required key "path"' }]);
  });

  test('the anyOf branch whose shape matched reports its own errors', () => {
    const schema = {
      type: 'object',
      properties: {
        image: {
          anyOf: [{ type: 'string' }, { type: 'object', properties: { repository: { type: 'string' }, tag: { type: 'string' } }, additionalProperties: false }],
        },
      },
    };
    expect(validateValues(schema, { image: { repository: 'r', tag: 1, digest: 'd' } })).toEqual([
      { path: 'image.digest', message: 'unknown key "digest"; allowed: "repository", "tag"' },
      { path: 'image.tag', message: 'received 1; must be string' },
    ]);
  });

  test('an object that fits one alternative but for a missing key is told the key', () => {
    const schema = {
      type: 'object',
      properties: { image: { anyOf: [{ type: 'string' }, { type: 'object', required: ['repository'], properties: { tag: { type: 'string' } } }] } },
    };
    expect(validateValues(schema, { image: { tag: 'x' } })).toEqual([{ path: 'image', message: 'missing required key "repository"' }]);
  });

  test('when no alternative is clearly meant, the alternatives are listed', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        backend: {
          oneOf: [
            { type: 'object', required: ['s3'], properties: { s3: { type: 'object' } } },
            { type: 'object', required: ['pvc'], properties: { pvc: { type: 'object' } } },
          ],
        },
      },
    };
    expect(validateValues(schema, { backend: { nfs: {} } })).toEqual([
      { path: 'backend', message: 'received an object; must be exactly one of object with key "s3" or object with key "pvc"' },
    ]);
  });

  test('without branch validators, alternatives are still summarised and the branch errors kept', () => {
    const compiled = compileValuesSchema({ properties: { v: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } });
    compiled.validate({ v: true });
    expect(violationsFromErrors(compiled.validate.errors ?? [], { v: true }, {}, () => undefined)).toEqual([
      { path: 'v', message: 'received true; must be string' },
      { path: 'v', message: 'received true; must be integer' },
      { path: 'v', message: 'received true; must be string or integer' },
    ]);
  });

  test('paths quote keys that are not identifiers and index arrays; a key "0" of an object stays a key', () => {
    const schema = { type: 'object', additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: { type: 'string' } } } };
    expect(validateValues(schema, { 'a.b': [{ '0': 1 }], list: [{}, { 'x y': 2 }] })).toEqual([
      { path: '["a.b"][0]["0"]', message: 'received 1; must be string' },
      { path: 'list[1]["x y"]', message: 'received 2; must be string' },
    ]);
  });
});

describe('compiling', () => {
  test('schemas are compiled once per content', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    const first = compileValuesSchema(schema);
    expect(compileValuesSchema(JSON.parse(JSON.stringify(schema)) as JsonSchema)).toBe(first);
    // A schema changed in place is compiled again.
    schema.properties.n.type = 'string';
    expect(compileValuesSchema(schema)).not.toBe(first);
    expect(validateValues(schema, { n: 'x' })).toEqual([]);
  });

  test('different schemas with the same $id do not clash', () => {
    const id = 'https://charts.example.org/same/values.schema.json';
    const a = { $id: id, properties: { n: { type: 'integer' } } };
    const b = { $id: id, properties: { n: { type: 'string' } } };
    expect(validateValues(a, { n: 'x' })).toEqual([{ path: 'n', message: 'received "x"; must be integer' }]);
    expect(validateValues(b, { n: 1 })).toEqual([{ path: 'n', message: 'received 1; must be string' }]);
    expect(validateValues(a, { n: 1 })).toEqual([]);
  });

  test('an invalid schema is an error that names its file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'values-schema-'));
    try {
      const file = path.join(dir, 'values.schema.json');
      fs.writeFileSync(file, JSON.stringify({ properties: { n: { type: 'int' } } }));
      const schema = loadValuesSchema(dir);
      expect(() => validateValues(schema, {})).toThrow(ValuesSchemaError);
      expect(() => validateValues(schema, {})).toThrow(`${file}: not a valid JSON Schema: schema is invalid: data/properties/n/type must be equal to one of the allowed values`);
      expect(() => validateValues({ properties: { n: { $ref: '#/definitions/none' } } }, {})).toThrow(/^values schema: not a valid JSON Schema: can't resolve reference #\/definitions\/none/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
