/**
 * `values-types` with the chart's values.yaml: a key the schema requires but values.yaml already
 * sets need not be written (Helm merges the user's values over it before validating).
 */
import { generateValuesTypes, JsonSchema } from '../../src/values-schema';
import { typeCheck } from './typecheck';

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['image', 'replicas'],
  properties: {
    image: {
      type: 'object',
      required: ['repository', 'tag'],
      properties: { repository: { type: 'string' }, tag: { type: 'string' }, pullPolicy: { type: 'string' } },
    },
    replicas: { type: 'integer' },
    probe: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
  },
};
const DEFAULTS = { image: { repository: 'docker.io/library/nginx', tag: '1.27' }, probe: null };

test('a required key that values.yaml sets is optional, with a note; its nested required keys too; others stay required', () => {
  const code = generateValuesTypes(SCHEMA, { typeName: 'WebValues', defaults: DEFAULTS, header: [] });
  expect(code).toBe(
    [
      'export interface WebValues {',
      '  /** Required by the schema; optional here because the chart\'s values.yaml sets it. */',
      '  image?: WebValuesImage;',
      '  replicas: number;',
      '  probe?: WebValuesProbe;',
      '}',
      '',
      'export interface WebValuesImage {',
      '  /** Required by the schema; optional here because the chart\'s values.yaml sets it. */',
      '  repository?: string;',
      '  /** Required by the schema; optional here because the chart\'s values.yaml sets it. */',
      '  tag?: string;',
      '  pullPolicy?: string;',
      '}',
      '',
      'export interface WebValuesProbe {',
      '  path: string;',
      '}',
      '',
    ].join('\n'),
  );
});

test('what the user writes compiles without the defaulted keys (TS2741 before), and still fails without the others', () => {
  const files = {
    'types.ts': generateValuesTypes(SCHEMA, { typeName: 'WebValues', defaults: DEFAULTS }),
    'ok.ts': "import type { WebValues } from './types';\nexport const v: WebValues = { replicas: 2, image: { tag: '1.28' } };\n",
    'missing.ts': "import type { WebValues } from './types';\nexport const v: WebValues = { image: { tag: '1.28' } };\n",
  };
  const r = typeCheck(files);
  expect(r['types.ts']).toEqual([]);
  expect(r['ok.ts']).toEqual([]);
  expect(r['missing.ts']).toEqual([expect.stringMatching(/^2:14 TS2741 Property 'replicas' is missing in type/)]);
  // Without the defaults, `image` is required as the schema says.
  const strict = typeCheck({ ...files, 'types.ts': generateValuesTypes(SCHEMA, { typeName: 'WebValues' }) });
  expect(strict['ok.ts']).toEqual([expect.stringMatching(/TS2741 Property 'repository' is missing/)]);
});
