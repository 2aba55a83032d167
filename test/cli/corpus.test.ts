import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { armadaSchemaErrors, crdErrors } from '../helpers/schemas';
import { corpusFiles, sharedPath } from '../helpers/shared';
import { cli, tmpdir } from '../helpers/cli';

const files = corpusFiles();
const complete = files.filter((f) => f.complete).map((f) => f.file);
const corpus = (f: string) => sharedPath('corpus', f);
/** Complete manifests the current Armada schemas reject (INDEX.md): reported, not converted. */
const SCHEMA_REJECTED = new Set(['openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml']);

describe('the CLI on the real corpus', () => {
  test.each(complete.filter((f) => !SCHEMA_REJECTED.has(f)))('%s: validates, plans and converts to every target', async (file) => {
    const v = await cli(['validate', corpus(file)]);
    expect(v.stdout).toBe('');
    expect(v.stderr).toMatch(/^valid: manifest .*: 0 errors, \d+ warnings?\n$/m);
    expect(v.code).toBe(0);

    const plan = await cli(['plan', corpus(file), '--format', 'json']);
    expect(plan.code).toBe(0);
    const json = JSON.parse(plan.stdout);
    expect(Object.keys(json)).toEqual(['manifest', 'releasePrefix', 'steps']);
    for (const step of json.steps) for (const r of step.releases) expect(r.name.startsWith(`${json.releasePrefix}-`)).toBe(true);

    for (const to of ['documents-v1', 'documents-v2']) {
      const c = await cli(['convert', corpus(file), '--to', to]);
      expect([to, c.code]).toEqual([to, 0]);
      for (const doc of YAML.parseAllDocuments(c.stdout, { version: '1.1' }).map((d) => d.toJS())) {
        expect([doc.metadata.name, armadaSchemaErrors(doc)]).toEqual([doc.metadata.name, []]);
      }
    }
    const airship = await cli(['convert', corpus(file), '--to', 'airship-v1']);
    expect(airship.code).toBe(0);
    for (const o of YAML.parseAllDocuments(airship.stdout, { version: '1.1' }).map((d) => d.toJS())) expect(crdErrors('airship-v1', o)).toEqual([]);
    const keleustes = await cli(['convert', corpus(file), '--to', 'keleustes-v1alpha1']);
    // Some corpus sites span namespaces, or set values the closed keleustes values schema rejects
    // (`replicas: 3` where it wants an object): errors then, and no output.
    if (keleustes.code === 0) {
      for (const o of YAML.parseAllDocuments(keleustes.stdout, { version: '1.1' }).map((d) => d.toJS())) {
        // Keys the closed values schema drops are warnings (with their path), not CRD errors.
        const pruned = crdErrors('keleustes-v1alpha1', o).filter((e) => /^spec\.values\..* pruned/.test(e));
        expect(crdErrors('keleustes-v1alpha1', o).filter((e) => !pruned.includes(e))).toEqual([]);
        for (const p of pruned) expect(keleustes.stderr).toContain(`data.${p.split(' ')[0].slice('spec.'.length)}: cannot be expressed for the keleustes operator`);
      }
    } else {
      expect(keleustes.stderr).toMatch(/cannot be expressed for the keleustes operator: .*namespaces|the keleustes ArmadaChart CRD rejects values/);
      expect(keleustes.stdout).toBe('');
    }
  });

  test('files the current schemas reject are reported exactly as Armada does (recreate_pods)', async () => {
    const v = await cli(['validate', corpus('openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml'), '--format', 'json']);
    expect(v.code).toBe(1);
    const out = JSON.parse(v.stdout);
    expect(out.diagnostics.filter((d: any) => d.severity === 'error').map((d: any) => [d.line, d.document, d.field, d.message.split(': ')[0]])).toEqual([
      [243, 'armada/Chart/v1 rabbitmq', 'data.upgrade.options.recreate_pods', "Additional properties are not allowed ('recreate_pods' was unexpected)"],
    ]);
  });

  test.each(files.filter((f) => !f.complete).map((f) => f.file))('%s: a fragment gives the unrendered-documents (or incomplete-set) error', async (file) => {
    const v = await cli(['validate', corpus(file)]);
    expect(v.code).toBe(1);
    expect(v.stderr).toMatch(/looks like an unrendered Deckhand\/Pegleg fragment|look like fragments of an unrendered site|looks unrendered|holds no documents of a site at all/);
  });

  test('convert -o writes one file; a failing convert leaves the directory as it was', async () => {
    const dir = tmpdir();
    fs.writeFileSync(path.join(dir, 'keep.txt'), 'mine');
    const ok = await cli(['convert', corpus('armada__examples__simple.yaml'), '--to', 'airship-v1', '-o', dir]);
    expect(ok.code).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['keep.txt', 'simple-armada.airship-v1.yaml']);
    const before = fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]);
    const bad = await cli(['convert', corpus('openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml'), '--to', 'airship-v1', '-o', dir]);
    expect(bad.code).toBe(1);
    expect(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')])).toEqual(before);
  });
});
