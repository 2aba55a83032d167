/** `armada-cdk import --pulumi` and `--pulumi-takeover`: the generated module also deploys the site with Pulumi. */
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared } from '../helpers/shared';

const site = write(tmpdir('armada-cdk-import-pulumi-'), 'site.yaml', readShared('corpus', 'armada__examples__simple.yaml'));

test('--pulumi-takeover writes the ManifestDeployment that takes over the releases Armada installed', async () => {
  const r = await cli(['import', site, '--pulumi-takeover']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^import \{ ManifestDeployment \} from 'armada-cdk\/pulumi';$/m);
  expect(r.stdout).toMatch(/^export const deployment = new ManifestDeployment\('[^']+', \{ manifest: site, takeover: true \}\);$/m);
});

test('--pulumi writes it without takeover; without either there is none', async () => {
  const withPulumi = await cli(['import', site, '--pulumi']);
  expect(withPulumi.code).toBe(0);
  expect(withPulumi.stdout).toMatch(/^export const deployment = new ManifestDeployment\('[^']+', \{ manifest: site \}\);$/m);
  const plain = await cli(['import', site]);
  expect(plain.code).toBe(0);
  expect(plain.stdout).not.toContain('ManifestDeployment');
});
