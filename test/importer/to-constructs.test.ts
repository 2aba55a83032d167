import { Testing } from '../../src';
import { buildPlan } from '../../src/model/plan';
import { SchemaVersion } from '../../src/model/spec';
import { toArmadaDocuments } from '../../src/model/wire/documents';
import { documentsToSpec } from '../../src/model/wire/from-documents';
import { specToConstructs } from '../../src/importer/to-constructs';
import { parseDocuments } from '../helpers/documents';
import { corpusFiles, readShared } from '../helpers/shared';

const complete = corpusFiles().filter((f) => f.complete).map((f) => f.file);

describe('imported documents as constructs', () => {
  test.each(complete)('%s: constructs give the same documents and the same plan', (file) => {
    const { spec } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
    const manifest = specToConstructs(spec!);
    const direct = toArmadaDocuments(spec!, { version: SchemaVersion.V1 }).documents;
    const viaConstructs = Testing.documents(manifest, { version: SchemaVersion.V1 });
    // Groups the manifest does not list are not created (Armada ignores them).
    const listed = new Set(spec!.chartGroups);
    const expected = direct.filter((d) => d.schema !== 'armada/ChartGroup/v1' || listed.has(d.metadata.name));
    const key = (d: { schema: string; metadata: { name: string } }) => `${d.schema} ${d.metadata.name}`;
    expect(new Map(viaConstructs.map((d) => [key(d), d]))).toEqual(new Map(expected.map((d) => [key(d), d])));
    expect(Testing.plan(manifest).toJSON()).toEqual(buildPlan(spec!).toJSON());
  });
});
