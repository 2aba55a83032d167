import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { publishChart } from '../../src/pulumi/chart-resolver';

let tmp: string;
beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'armada-cdk-publish-'));
});
afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

test('a published chart changed since it was published is copied again before the Release uses it', async () => {
  const src = path.join(tmp, 'src');
  await fs.mkdir(path.join(src, 'templates'), { recursive: true });
  await fs.writeFile(path.join(src, 'Chart.yaml'), 'apiVersion: v2\nname: mariadb\nversion: 0.1.0\n');
  await fs.writeFile(path.join(src, 'templates', 'cm.yaml'), 'kind: ConfigMap\n');
  const cacheDir = path.join(tmp, 'cache');
  const published = await publishChart(src, 'mariadb', { cacheDir });
  await fs.writeFile(path.join(published, 'templates', 'cm.yaml'), 'kind: Secret\n');
  await fs.writeFile(path.join(published, 'templates', 'planted.yaml'), 'kind: ClusterRoleBinding\n');

  expect(await publishChart(src, 'mariadb', { cacheDir })).toBe(published);
  expect(await fs.readFile(path.join(published, 'templates', 'cm.yaml'), 'utf8')).toBe('kind: ConfigMap\n');
  expect((await fs.readdir(path.join(published, 'templates'))).sort()).toEqual(['cm.yaml']);
  expect((await fs.readdir(path.join(cacheDir, 'charts'))).filter((n) => n.startsWith('.'))).toEqual([]);
});
