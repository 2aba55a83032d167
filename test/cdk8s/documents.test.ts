import { ArmadaManifest, Chart, ChartGroup, ChartSource } from '../../src';
import { jobDeletesWithoutCronJobs } from '../../src/model/effective';
import { buildPlan } from '../../src/model/plan';
import { SchemaVersion } from '../../src/model/spec';
import { validateManifest } from '../../src/model/validate';
import { documentsToSpec } from '../../src/model/wire/from-documents';
import { toArmadaDocuments } from '../../src/model/wire/documents';
import { parseDocuments } from '../helpers/documents';
import { armadaSchemaErrors } from '../helpers/schemas';
import { corpusFiles, readShared } from '../helpers/shared';

const complete = corpusFiles().filter((f) => f.complete).map((f) => f.file);

/** What Armada would do with a plan, without the object identities: for "same meaning" checks. */
function meaning(plan: ReturnType<typeof buildPlan>) {
  // The schema version itself is left out: writing v2 changes it, and the writer warns where that changes the pod wait.
  return plan.steps.map((s) => ({ group: s.group, sequenced: s.sequenced, releases: s.releases.map(({ schemaVersion: _v, ...r }) => ({ ...r, dependsOn: [...r.dependsOn] })) }));
}

describe('classic Armada documents', () => {
  test.each(complete)('%s: documents -> spec -> documents keeps every Armada document equal in data', (file) => {
    const input = parseDocuments(readShared('corpus', file), file);
    const { spec, diagnostics } = documentsToSpec(input);
    expect(diagnostics.errors).toEqual([]);
    const { documents } = toArmadaDocuments(spec!, { version: SchemaVersion.V1 });
    const byKey = new Map(documents.map((d) => [`${d.schema} ${d.metadata.name}`, d]));
    for (const doc of input) {
      const out = byKey.get(`${doc.schema} ${doc.name}`);
      expect(out).toBeDefined();
      const expected = normalize(doc.data);
      // Known loss: `recreate_pods` is rejected by the current schemas (Armada removed it with Helm 2).
      const upgrade = (expected as any).upgrade;
      if (upgrade?.options?.recreate_pods !== undefined) delete upgrade.options.recreate_pods;
      expect([doc.name, JSON.parse(JSON.stringify(out!.data))]).toEqual([doc.name, expected]);
    }
  });

  test.each(complete)('%s: v2 documents written from a v1 site mean the same thing (same plan, valid v2)', (file) => {
    const { spec } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
    const v2 = toArmadaDocuments(spec!, { version: SchemaVersion.V2 });
    for (const d of v2.documents) {
      if (file.includes('armada-osh') && d.metadata.name === 'rabbitmq') continue;
      expect([d.metadata.name, armadaSchemaErrors(d)]).toEqual([d.metadata.name, []]);
    }
    const back = documentsToSpec(v2.documents.map((d, i) => ({ schema: d.schema, name: d.metadata.name, data: d.data, origin: { locate: () => ({ location: `v2#${i}` }) } })));
    expect(back.spec!.schemaVersion).toBe(SchemaVersion.V2);
    expect(meaning(buildPlan(back.spec!))).toEqual(meaning(buildPlan(spec!)));
  });

  test.each(complete)('%s: complete corpus manifests validate (warnings only)', (file) => {
    const { spec } = documentsToSpec(parseDocuments(readShared('corpus', file), file));
    const errors = validateManifest(spec!).errors;
    expect(errors.map((e) => `${e.document} ${e.field}: ${e.message}`)).toEqual([]);
  });
});

/** The input as Armada's documents would be rewritten: v1's required defaults filled in. */
function normalize(data: Record<string, unknown>): unknown {
  const d = JSON.parse(JSON.stringify(data));
  if (d.source && d.source.subpath === undefined) d.source.subpath = '.';
  // Git-only fields on other sources are ignored by Armada and dropped.
  if (d.source && d.source.type !== 'git') {
    delete d.source.reference;
    delete d.source.auth_method;
    if (d.source.type === 'local') delete d.source.proxy_server;
  }
  return d;
}

describe('a pre-upgrade delete of `type: job` across schema versions', () => {
  // Armada v1 deletes a job item's CronJobs too, v2 only its Jobs (armada-format.md 4.1).
  const site = (version: SchemaVersion, del: { type: string; labels?: Record<string, string> }[]) => {
    const s = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p', schemaVersion: version });
    new Chart(new ChartGroup(s, 'g'), 'c', { namespace: 'n', source: ChartSource.tar('https://e.org/c.tgz'), upgrade: { pre: { delete: del } } });
    return s.resolve().spec;
  };
  const deletes = (r: ReturnType<typeof toArmadaDocuments>) => (r.documents.find((d) => d.schema.startsWith('armada/Chart/'))!.data as any).upgrade.pre.delete;

  test('v1 to v2: each job item gets a cronjob item after it, unless a cronjob item already selects its CronJobs', () => {
    const r = toArmadaDocuments(site(SchemaVersion.V1, [{ type: 'job', labels: { a: 'b' } }, { type: 'pod' }, { type: 'job' }, { type: 'job', labels: { a: 'b' } }]), { version: SchemaVersion.V2 });
    expect(deletes(r)).toEqual([{ type: 'job', labels: { a: 'b' } }, { type: 'cronjob', labels: { a: 'b' } }, { type: 'pod' }, { type: 'job' }, { type: 'cronjob' }, { type: 'job', labels: { a: 'b' } }]);
    expect(r.diagnostics.all.filter((d) => d.field?.startsWith('upgrade'))).toEqual([]);
    const covered = toArmadaDocuments(site(SchemaVersion.V1, [{ type: 'job', labels: { a: 'b', c: 'd' } }, { type: 'cronjob', labels: { c: 'd' } }]), { version: SchemaVersion.V2 });
    expect(deletes(covered)).toEqual([{ type: 'job', labels: { a: 'b', c: 'd' } }, { type: 'cronjob', labels: { c: 'd' } }]);
  });

  test('v2 to v1: a job item no cronjob item covers is a warning on its type (v1 cannot delete Jobs alone)', () => {
    const r = toArmadaDocuments(site(SchemaVersion.V2, [{ type: 'pod' }, { type: 'job', labels: { a: 'b' } }, { type: 'job', labels: { x: 'y' } }, { type: 'cronjob', labels: { x: 'y' } }]), { version: SchemaVersion.V1 });
    expect(deletes(r)).toEqual([{ type: 'pod' }, { type: 'job', labels: { a: 'b' } }, { type: 'job', labels: { x: 'y' } }, { type: 'cronjob', labels: { x: 'y' } }]);
    expect(r.diagnostics.all.filter((d) => d.field?.startsWith('upgrade')).map((d) => `${d.field}: ${d.message}`)).toEqual([
      'upgrade.pre.delete[1].type: cannot be expressed in armada/Chart/v1 documents: the v2 `type: job` delete removes Jobs only; as armada/Chart/v1 it also removes the CronJobs with the same labels, and v1 has no way to remove Jobs alone',
    ]);
  });

  test('the same version is written as it is', () => {
    for (const v of [SchemaVersion.V1, SchemaVersion.V2]) {
      const r = toArmadaDocuments(site(v, [{ type: 'job' }]), { version: v });
      expect(deletes(r)).toEqual([{ type: 'job' }]);
      expect(r.diagnostics.all.filter((d) => d.field?.startsWith('upgrade'))).toEqual([]);
    }
  });

  test('jobDeletesWithoutCronJobs: a cronjob item with a subset of the labels covers a job item', () => {
    expect(jobDeletesWithoutCronJobs([{ type: 'job', labels: { a: '1' } }, { type: 'cronjob' }])).toEqual([]);
    expect(jobDeletesWithoutCronJobs([{ type: 'job' }, { type: 'cronjob', labels: { a: '1' } }])).toEqual([0]);
    expect(jobDeletesWithoutCronJobs([{ type: 'job', labels: { a: '1' } }, { type: 'job', labels: { a: '1' } }, { type: 'job', labels: { a: '2' } }])).toEqual([0, 2]);
  });
});
