/**
 * Helmfile (issue 46's engine), built from its module: a smoke test that it runs against the
 * stack with the harness's Helm, and that Helm 3 and 4 load the helm-diff plugin its `apply` runs. The deployment tests are helmfile-site.e2e.test.ts and wait.e2e.test.ts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { engineBinaries } from '../build/engines';
import { HELM_DIFF_VERSION } from '../build/helm-diff';
import { HELMFILE_VERSION } from '../build/helmfile';
import { createNamespace, runTool, stack } from '../stack';

describe('helmfile', () => {
  test('reports the pinned release', async () => {
    const r = await runTool(engineBinaries('helmfile').helmfile, ['--version']);
    expect(r.stdout).toContain(HELMFILE_VERSION.replace(/^v/, ''));
  });

  test.each(['helm3', 'helm4'] as const)('%s loads the helm-diff plugin of the build (HELM_PLUGINS)', async (helm) => {
    const r = await runTool(helm, ['diff', 'version'], { env: { HELM_PLUGINS: engineBinaries('helmDiff').helmPlugins } });
    expect(r.stdout.trim()).toBe(HELM_DIFF_VERSION.replace(/^v/, ''));
  });

  test('lists a release of the fixture repository against the stack', async () => {
    const s = stack();
    const namespace = await createNamespace('helmfile');
    const dir = path.join(s.dir, 'work', 'helmfile');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'helmfile.yaml');
    fs.writeFileSync(
      file,
      [
        'repositories:',
        '- name: fixtures',
        `  url: ${s.helmRepository.url}`,
        'releases:',
        '- name: hf-db',
        `  namespace: ${namespace}`,
        '  chart: fixtures/e2e-db',
        `  version: ${s.helmRepository.charts['e2e-db']}`,
        '',
      ].join('\n'),
    );
    const r = await runTool(engineBinaries('helmfile').helmfile, ['--file', file, '--helm-binary', s.binaries.helm3, 'list', '--output', 'json'], { cwd: dir });
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ name: 'hf-db', namespace, enabled: true, installed: true, chart: 'fixtures/e2e-db' })]);
  });
});
