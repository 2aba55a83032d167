/**
 * `convert --to flux-v2` builds each HelmRelease only when it writes it (fluxObjectsAsRead), so
 * that a large site never holds them all. The objects read that way, and every finding, are those
 * of toFluxObjects; every finding exists before the first object is read (the report is printed,
 * and an error stops the run, before any output); and each read builds the releases anew.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { resolveInputs } from '../../src/importer/resolve';
import { Diagnostic } from '../../src/model/diagnostics';
import { buildPlan } from '../../src/model/plan';
import { fluxObjectsAsRead, FluxOptions, HelmReleasePlacement, toFluxObjects } from '../../src/model/wire/flux-v2';
import { toYamlStream } from '../../src/model/wire/yaml';
import { cli, tmpdir, write } from '../helpers/cli';
import { corpusFiles, sharedPath } from '../helpers/shared';

const plain = (ds: readonly Diagnostic[]) => ds.map((d) => ({ severity: d.severity, location: d.location, field: d.field, code: d.code, message: d.message }));

const OPTIONS: FluxOptions[] = [{}, { placement: HelmReleasePlacement.CHART_NAMESPACE }, { sourceNamespace: 'sources', suspend: true }];

async function compare(file: string, options: FluxOptions): Promise<number> {
  const r = await resolveInputs([file]);
  if (r.spec === undefined) return 0;
  const eager = toFluxObjects(r.spec, buildPlan(r.spec), options);
  const lazy = fluxObjectsAsRead(r.spec, buildPlan(r.spec), options);
  const before = plain(lazy.diagnostics.all);
  const first = [...lazy.objects];
  // Nothing is found while the objects are read.
  expect(plain(lazy.diagnostics.all)).toEqual(before);
  expect(before).toEqual(plain(eager.diagnostics.all));
  expect(first).toEqual(eager.objects);
  expect(lazy.count).toBe(eager.objects.length);
  // Read again: equal objects, built anew (the writer lets each go once written).
  const second = [...lazy.objects];
  expect(second).toEqual(first);
  const releases = first.filter((o) => o.kind === 'HelmRelease');
  releases.forEach((o) => expect(second).not.toContain(o));
  return releases.length;
}

describe('Flux objects as read', () => {
  test('equal toFluxObjects on every corpus site, with every option of placement', async () => {
    let releases = 0;
    for (const { file } of corpusFiles()) for (const options of OPTIONS) releases += await compare(sharedPath('corpus', file), options);
    expect(releases).toBeGreaterThanOrEqual(OPTIONS.length * 20);
  });

  test('equal toFluxObjects on the generated site (thousands of findings)', async () => {
    const f = write(tmpdir(), 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '60'], { encoding: 'utf8' }));
    for (const options of OPTIONS) expect(await compare(f, options)).toBe(60);
  });

  test('the CLI writes what toFluxObjects makes, to stdout and to a directory, and counts the objects', async () => {
    const dir = tmpdir();
    const f = write(dir, 'site.yaml', execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '30'], { encoding: 'utf8' }));
    const r = await resolveInputs([f]);
    const expected = toFluxObjects(r.spec!, buildPlan(r.spec!), {}).objects;
    const out = await cli(['convert', f, '--to', 'flux-v2'], { cwd: dir });
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(toYamlStream(expected));
    const toDir = await cli(['convert', f, '--to', 'flux-v2', '-o', 'out', '--single-file'], { cwd: dir });
    expect(toDir.code).toBe(0);
    expect(toDir.stderr).toContain(`wrote out/bench-site.flux-v2.yaml (${expected.length} objects)`);
    expect(fs.readFileSync(path.join(dir, 'out', 'bench-site.flux-v2.yaml'), 'utf8')).toBe(toYamlStream(expected));
  });
});
