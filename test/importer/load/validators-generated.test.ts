/**
 * The Armada schema validators are generated ahead of time: the committed module must be what
 * the bundled schemas generate, and each generated validator must report exactly the errors that
 * ajv's compiler gives at run time, on the corpus, on broken documents and on the generated site.
 */
import { execFileSync } from 'child_process';
import * as jsyaml from 'js-yaml';
import { generateValidators, staleValidators, VALIDATORS_DIR } from '../../../scripts/generate-armada-validators';
import { ARMADA_SCHEMAS, ArmadaSchema, compileArmadaSchema, compiledSchema, isArmadaSchema, validationSchema } from '../../../src/importer/load/schemas';
import { corpusFiles, readShared, sharedPath } from '../../helpers/shared';

function documents(text: string): { schema: ArmadaSchema; data: unknown }[] {
  const out: { schema: ArmadaSchema; data: unknown }[] = [];
  for (const d of jsyaml.loadAll(text) as any[]) if (d && isArmadaSchema(d.schema) && 'data' in d) out.push({ schema: d.schema, data: d.data });
  return out;
}

/** Edits that break a document's data in the ways the schemas check. */
const BREAKS: ((d: any) => unknown)[] = [
  (d) => ({ ...d, release: 12 }),
  (d) => ({ ...d, unknown_key: true }),
  (d) => ({ ...d, wait: { timeout: 'soon', resources: [{ labels: 1 }] } }),
  (d) => ({ ...d, test: 'yes' }),
  (d) => ({ ...d, source: { type: 3 } }),
  (d) => ({ ...d, upgrade: { pre: { delete: [{ labels: {} }] }, options: { recreate_pods: 1 } } }),
  (d) => ({ ...d, chart_group: 'x', sequenced: 'no' }),
  (d) => ({ ...d, chart_groups: [1], release_prefix: null }),
  () => [],
  () => 'text',
];

const runtimeValidators = new Map<ArmadaSchema, ReturnType<typeof compileArmadaSchema>['validate']>();

function sameErrors(schema: ArmadaSchema, data: unknown): void {
  const generated = compiledSchema(schema).validate;
  let runtime = runtimeValidators.get(schema);
  if (!runtime) runtimeValidators.set(schema, (runtime = compileArmadaSchema(schema).validate));
  const a = generated(data);
  const b = runtime(data);
  expect([schema, a, generated.errors ?? null]).toEqual([schema, b, runtime.errors ?? null]);
}

describe('generated Armada schema validators', () => {
  test(`${VALIDATORS_DIR} is what the schemas generate (regenerate with scripts/generate-armada-validators.ts)`, () => {
    expect(staleValidators()).toEqual([]);
    expect([...generateValidators().keys()]).toEqual(ARMADA_SCHEMAS.map((s) => s.replace(/\//g, '-').toLowerCase() + '.js'));
  });

  test('they carry the schemas the messages quote', () => {
    for (const name of ARMADA_SCHEMAS) expect(compiledSchema(name).schema).toEqual(validationSchema(name));
  });

  test('the same errors as run-time compiled validators: corpus, broken corpus documents, generated site', () => {
    const docs = corpusFiles().flatMap((f) => documents(readShared('corpus', f.file)));
    docs.push(...documents(execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '30'], { encoding: 'utf8' })));
    expect(docs.length).toBeGreaterThan(50);
    for (const { schema, data } of docs) {
      sameErrors(schema, data);
      for (const other of ARMADA_SCHEMAS) sameErrors(other, data);
      for (const b of BREAKS) sameErrors(schema, b(data));
    }
  });
});
