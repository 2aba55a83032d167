import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as os from 'os';
import * as path from 'path';
import { CRD_DIR, generateCrds, renderCrd, staleCrdFiles, TYPES_FILE } from '../../../scripts/generate-crds';
import { createSchemaProgram, schemasFor } from '../../../scripts/ts-schema';
import { readShared } from '../../helpers/shared';
import { crdDefinitionErrors, schemaDifferences, structuralSchemaErrors } from './crd-checks';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function committed(file: string): any {
  return JSON.parse(fs.readFileSync(path.join(ROOT, CRD_DIR, file), 'utf8'));
}
function upstream(dir: string, plural: string): any {
  return yaml.load(readShared('schemas', 'operator', dir, `armada.airshipit.org_${plural}.yaml`));
}
const schemaOf = (crd: any) => crd.spec.versions[0].schema.openAPIV3Schema;

/** Ours against upstream, by generated file. */
const PAIRS: [file: string, dir: string, plural: string][] = [
  ['airship-v1-armadacharts.json', 'airship-v1', 'armadacharts'],
  ['keleustes-v1alpha1-armadacharts.json', 'keleustes-v1alpha1', 'armadacharts'],
  ['keleustes-v1alpha1-armadachartgroups.json', 'keleustes-v1alpha1', 'armadachartgroups'],
  ['keleustes-v1alpha1-armadamanifests.json', 'keleustes-v1alpha1', 'armadamanifests'],
];

/** A scratch project root holding a types file (and what it imports), for generator tests. */
function scratchRoot(types: string): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-crds-'));
  fs.mkdirSync(path.join(root, 'src', 'model', 'wire'), { recursive: true });
  for (const f of ['source.ts', 'brand.ts']) fs.copyFileSync(path.join(ROOT, 'src', 'model', f), path.join(root, 'src', 'model', f));
  fs.writeFileSync(path.join(root, TYPES_FILE), types);
  return root;
}

describe('CRD generation from the wire types', () => {
  test('the committed CRDs are exactly what the types generate (regenerate with scripts/generate-crds.ts)', () => {
    expect(staleCrdFiles(ROOT)).toEqual([]);
    expect(fs.readdirSync(path.join(ROOT, CRD_DIR)).sort()).toEqual(PAIRS.map(([f]) => f).sort());
  });

  test('a field added to the types appears in the CRD, with its doc comment, required when not optional', () => {
    const original = fs.readFileSync(path.join(ROOT, TYPES_FILE), 'utf8');
    const marker = '  /** Helm tests after the wait. */\n  readonly test?: AirshipChartTest;\n';
    expect(original).toContain(marker);
    const changed = original.replace(
      marker,
      `${marker}  /**\n   * Seconds between two reconciliations.\n   * @integer\n   * @minimum 1\n   */\n  readonly resync_period: number;\n`,
    );
    const generated = generateCrds(scratchRoot(changed));
    const data = schemaOf(generated['airship-v1-armadacharts.json']).properties.data;
    expect(data.properties.resync_period).toEqual({ description: 'Seconds between two reconciliations.', type: 'integer', minimum: 1 });
    expect(data.required).toEqual(['release', 'namespace', 'source', 'resync_period']);
    // Nothing else moved.
    const before = schemaOf(generateCrds(scratchRoot(original))['airship-v1-armadacharts.json']).properties.data;
    delete data.properties.resync_period;
    data.required = data.required.filter((r: string) => r !== 'resync_period');
    expect(data).toEqual(before);
  });

  test('the generator refuses what a structural schema cannot express, naming the type and the path', () => {
    const file = path.join(scratchRoot(''), 'src', 'model', 'wire', 'bad.ts');
    fs.writeFileSync(
      file,
      [
        'export interface Tree { readonly name: string; readonly children?: readonly Tree[] }',
        'export interface Mixed { readonly known: string; readonly [key: string]: string }',
        'export interface Either { readonly value: string | boolean }',
        'export interface Empty { readonly nothing: {} }',
      ].join('\n'),
    );
    const program = createSchemaProgram([file]);
    const gen = (name: string) => () => schemasFor(program, file, [name], { mode: 'inline' });
    expect(gen('Tree')).toThrow('schema generator: Tree.children.[]: Tree refers to itself, which a structural schema cannot express');
    expect(gen('Mixed')).toThrow('has both properties and an index signature');
    expect(gen('Either')).toThrow('schema generator: Either.value: unsupported union string | boolean');
    expect(gen('Empty')).toThrow('schema generator: Empty.nothing: {} has no properties; use Record<string, unknown> for a free-form object');
    expect(gen('Missing')).toThrow('exports no type named Missing');
  });

  test('CRD files are stable, two-space JSON with a final newline', () => {
    for (const [file] of PAIRS) {
      const text = fs.readFileSync(path.join(ROOT, CRD_DIR, file), 'utf8');
      expect(text).toBe(renderCrd(JSON.parse(text)));
    }
  });
});

describe('generated CRDs are valid apiextensions.k8s.io/v1 CRDs', () => {
  test.each(PAIRS)('%s: CRD object and structural schema rules', (file) => {
    expect(crdDefinitionErrors(committed(file))).toEqual([]);
  });

  test('no $ref, every node typed (or int-or-string / preserve-unknown-fields), values free-form', () => {
    const walk = (s: any, p: string, out: string[]) => {
      if ('$ref' in s) out.push(`${p} $ref`);
      if (!('type' in s) && !s['x-kubernetes-int-or-string'] && !s['x-kubernetes-preserve-unknown-fields']) out.push(`${p} untyped`);
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, `${p}.${k}`, out);
      if (s.items) walk(s.items, `${p}[]`, out);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${p}.*`, out);
      return out;
    };
    for (const [file] of PAIRS) expect([file, walk(schemaOf(committed(file)), '', [])]).toEqual([file, []]);
    expect(schemaOf(committed('airship-v1-armadacharts.json')).properties.data.properties.values).toEqual({
      description: 'Helm values for the release, free-form (passed to Helm as written).',
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(schemaOf(committed('keleustes-v1alpha1-armadacharts.json')).properties.spec.properties.values['x-kubernetes-preserve-unknown-fields']).toBe(true);
  });

  test('names, shortNames, scope, printer columns and the status subresource are upstream\'s; the version is apiextensions v1 for keleustes too', () => {
    for (const [file, dir, plural] of PAIRS) {
      const ours = committed(file);
      const theirs = upstream(dir, plural);
      expect(ours.apiVersion).toBe('apiextensions.k8s.io/v1');
      expect(ours.metadata.name).toBe(theirs.metadata.name);
      expect(ours.spec.names).toEqual(theirs.spec.names);
      expect(ours.spec.scope).toBe(theirs.spec.scope);
      const [v] = ours.spec.versions;
      const [u] = theirs.spec.versions;
      expect([v.name, v.served, v.storage, v.subresources]).toEqual([u.name, true, true, { status: {} }]);
      expect(v.additionalPrinterColumns).toEqual(u.additionalPrinterColumns);
    }
    expect(committed('keleustes-v1alpha1-armadacharts.json').spec.names.shortNames).toEqual(['act']);
    expect(committed('keleustes-v1alpha1-armadachartgroups.json').spec.names.shortNames).toEqual(['acg']);
    expect(committed('keleustes-v1alpha1-armadamanifests.json').spec.names.shortNames).toEqual(['amf']);
    // The keleustes operator itself ships these as apiextensions v1beta1, which Kubernetes 1.22+ rejects.
    const shipped = yaml.load(readShared('schemas', 'operator', 'keleustes-v1alpha1-v1beta1', 'armada.airshipit.org_armadacharts.yaml')) as any;
    expect(crdDefinitionErrors(shipped)[0]).toBe('apiVersion "apiextensions.k8s.io/v1beta1": only apiextensions.k8s.io/v1 is served since Kubernetes 1.22');
  });

  test('the status schemas are upstream\'s, so that the operators\' status updates pass unchanged', () => {
    for (const [file, dir, plural] of PAIRS) {
      expect([file, schemaDifferences(schemaOf(committed(file)).properties.status, schemaOf(upstream(dir, plural)).properties.status)]).toEqual([file, []]);
    }
  });

  test('deliberate differences from the upstream CRDs: exactly these', () => {
    const diff = (file: string, dir: string, plural: string) =>
      schemaDifferences(schemaOf(committed(file)), schemaOf(upstream(dir, plural))).map((d) => `${d.path}: ${d.what}`);
    expect(diff(...PAIRS[0])).toEqual([
      // Stricter: a CR without these does nothing useful (the operator needs the download URL and
      // the release namespace; armada-go requires release and namespace).
      '(root): required data: ours only',
      'data: required release: ours only',
      'data: required namespace: ours only',
      'data: required source: ours only',
      'data.source: required location: ours only',
      // Stricter: Armada's own source types only.
      'data.source.type: enum: ours ["local","tar","git"], theirs unset',
      // Stricter: the operator cannot wait on a resource without a type (it builds "<type>s").
      'data.wait.resources[]: required type: ours only',
      // Pruned by ours: fields this library never writes.
      // Stricter: what the operator's strconv.Atoi accepts after dropping "%".
      'data.wait.resources[].min_ready: pattern: ours "^[0-9]+%?$", theirs unset',
      // Stricter: Helm values are a map (upstream accepts any JSON value there).
      'data.values: type: ours "object", theirs unset',
    ]);
    expect(diff(...PAIRS[1])).toEqual([
      // revisionHistoryLimit and upgrade.options.recreate_pods are kept, as upstream keeps them.
      '(root): required spec: ours only',
      'spec.source.type: enum: ours ["local","tar","git"], theirs unset',
      // Looser, the point of generating the CRD: upstream's closed OSH-shaped schema drops every
      // other chart value silently; ours passes values to Helm as written.
      'spec.values: ours free-form; theirs closed (33 known properties, unknown keys pruned)',
    ]);
    expect(diff(...PAIRS[2])).toEqual(['(root): required spec: ours only']);
    expect(diff(...PAIRS[3])).toEqual(['(root): required spec: ours only']);
  });
});

describe('structural schema checker', () => {
  test('accepts the upstream apiextensions v1 CRDs', () => {
    for (const [, dir, plural] of PAIRS) expect([dir, plural, crdDefinitionErrors(upstream(dir, plural))]).toEqual([dir, plural, []]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['$ref', { type: 'object', properties: { a: { $ref: '#/definitions/A' } } }, 'openAPIV3Schema.properties.a: $ref is not allowed in a structural schema'],
    ['untyped node', { type: 'object', properties: { a: { description: 'x' } } }, 'openAPIV3Schema.properties.a: every node needs a type (unless x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields)'],
    ['properties with additionalProperties', { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: { type: 'string' } } } }, 'openAPIV3Schema.properties.a: properties and additionalProperties are mutually exclusive'],
    ['additionalProperties false', { type: 'object', properties: { a: { type: 'object', additionalProperties: false } } }, 'openAPIV3Schema.properties.a: additionalProperties must be a schema (a boolean is not allowed)'],
    ['array without items', { type: 'object', properties: { a: { type: 'array' } } }, 'openAPIV3Schema.properties.a: an array needs items'],
    ['int-or-string with a type', { type: 'object', properties: { a: { type: 'string', 'x-kubernetes-int-or-string': true } } }, 'openAPIV3Schema.properties.a: x-kubernetes-int-or-string must not have a type'],
    ['type inside anyOf', { type: 'object', properties: { a: { type: 'string', anyOf: [{ type: 'string' }] } } }, 'openAPIV3Schema.properties.a.anyOf[0]: type is not allowed inside allOf/anyOf/oneOf/not'],
    ['junctor field not specified outside', { type: 'object', properties: { a: { type: 'object', properties: {}, oneOf: [{ properties: { b: { minLength: 1 } } }] } } }, 'openAPIV3Schema.properties.a.oneOf[0]: property b is not specified outside the junctor'],
    ['uniqueItems', { type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, uniqueItems: true } } }, 'openAPIV3Schema.properties.a: uniqueItems true is not allowed'],
    ['metadata restrictions', { type: 'object', properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } } }, 'openAPIV3Schema.properties.metadata: only type object and restrictions of name and generateName are allowed'],
    ['unknown format', { type: 'object', properties: { a: { type: 'string', format: 'semver' } } }, 'openAPIV3Schema.properties.a: format "semver" is not a format the API server knows'],
    ['enum of the wrong type', { type: 'object', properties: { a: { type: 'integer', enum: ['1'] } } }, 'openAPIV3Schema.properties.a: enum value "1" is not of type integer'],
    ['root not an object', { type: 'string' }, 'openAPIV3Schema: the root must have type object'],
    ['definitions', { type: 'object', definitions: {} }, 'openAPIV3Schema: definitions is not allowed in a structural schema'],
  ])('rejects %s', (_name, schema, message) => {
    expect(structuralSchemaErrors(schema)).toContain(message);
  });

  test('rejects CRD objects the API server rejects', () => {
    const good = committed('airship-v1-armadacharts.json');
    const mutate = (f: (c: any) => void) => {
      const c = JSON.parse(JSON.stringify(good));
      f(c);
      return crdDefinitionErrors(c);
    };
    expect(mutate((c) => (c.metadata.name = 'charts.armada.airshipit.org'))).toEqual(['metadata.name "charts.armada.airshipit.org" must be <plural>.<group>']);
    expect(mutate((c) => (c.spec.versions[0].storage = false))).toEqual(['exactly one version must have storage: true']);
    expect(mutate((c) => delete c.spec.versions[0].schema)).toEqual(['spec.versions[0].schema.openAPIV3Schema is required in apiextensions v1']);
    expect(mutate((c) => (c.spec.versions[0].additionalPrinterColumns[0].type = 'timestamp'))).toEqual(['spec.versions[0].additionalPrinterColumns[0].type "timestamp"']);
    expect(mutate((c) => (c.spec.names.shortNames = ['ACT']))).toEqual(['spec.names.shortNames "ACT" must be lowercase DNS-1035 labels']);
    expect(mutate((c) => (c.spec.scope = 'Global'))).toEqual(['spec.scope "Global" must be Namespaced or Cluster']);
  });
});
