/**
 * Every ```ts sample of the README and of docs/*.md compiles as written, each as its own module, with the
 * repository's strict options (noUnusedLocals and noUnusedParameters among them): a sample that
 * imports a name only for its side effect, or uses an API that changed, fails here.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as cdk8s from 'cdk8s';
import * as ts from 'typescript';
import { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } from '../../src';
import { ArmadaChartOutput } from '../../src/cdk8s';
import { generateValuesTypes, loadValuesSchema } from '../../src/values-schema';
import { documentationBlocks, readmeBlocks, REPO_ROOT } from './readme-samples';

const readme = readmeBlocks('ts');
const blocks = documentationBlocks('ts');

test('the README has its samples, the first one a complete cdk8s app, and the guides theirs', () => {
  expect(readme.length).toBeGreaterThanOrEqual(3);
  expect(readme[0].code).toContain("import * as cdk8s from 'cdk8s';");
  expect(readme[0].code).toMatch(/new ArmadaChartOutput\(out, 'crs', \{ manifest: site \}\);/);
  expect(readme[0].code.trimEnd().split('\n').pop()).toMatch(/^app\.synth\(\);/);
  expect(blocks.length).toBeGreaterThanOrEqual(10);
});

test('every ts sample of the README and the docs type-checks with noUnusedLocals', () => {
  // Inside the checkout (in the ignored lib/), so that the samples resolve the installed packages.
  fs.mkdirSync(path.join(REPO_ROOT, 'lib'), { recursive: true });
  const dir = fs.mkdtempSync(path.join(REPO_ROOT, 'lib', 'readme-samples-'));
  const samples = path.join(dir, 'samples');
  fs.mkdirSync(samples);
  // What the samples import from "your" modules: the example site, and a values type generated
  // from a chart's schema the way the README says.
  const site = `export { defineSite, site } from ${JSON.stringify(path.join(REPO_ROOT, 'examples', 'site'))};\n`;
  fs.writeFileSync(path.join(dir, 'site.ts'), site);
  fs.writeFileSync(path.join(samples, 'site.ts'), site);
  const schema = loadValuesSchema(path.join(REPO_ROOT, 'test', 'fixtures', 'charts', 'mariadb'));
  fs.writeFileSync(path.join(samples, 'mariadb-values.ts'), generateValuesTypes(schema, { typeName: 'MariadbValues' }));
  const files = blocks.map((b, i) => {
    const f = path.join(samples, `sample-${i}.ts`);
    fs.writeFileSync(f, b.code);
    return f;
  });
  const config = ts.readConfigFile(path.join(REPO_ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT);
  const program = ts.createProgram(files, { ...options, noEmit: true, incremental: false, noUnusedLocals: true, noUnusedParameters: true });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && d.file.fileName.startsWith(samples))
    .map((d) => {
      const { line, character } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      const block = blocks[Number(/sample-(\d+)\.ts$/.exec(d.file!.fileName)?.[1] ?? 0)];
      return `${block.file}:${block.line + line}:${character + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
  fs.rmSync(dir, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

test("the guide's validation output is what synth prints for the mistakes it shows", () => {
  const block = documentationBlocks('').find((b) => b.code.startsWith('Validation failed with the following errors:'))!;
  const outdir = fs.mkdtempSync(path.join(REPO_ROOT, 'lib', 'readme-validation-'));
  const app = new cdk8s.App({ outdir });
  const site = new ArmadaManifest(new cdk8s.Chart(app, 'site'), 'site', { releasePrefix: 'airship' });
  const infra = new ChartGroup(site, 'infra');
  const source = ChartSource.tar('https://e.org/mariadb-1.0.0.tgz');
  new Chart(infra, 'MariaDB', { namespace: 'openstack', source, wait: { labels: { a: 'b' } } });
  new Chart(infra, 'mariadb', { namespace: 'openstack', source, wait: { timeout: Duration.seconds(-5), labels: { a: 'b' }, resources: [WaitResource.statefulSet({ minReady: '150%' })] } });
  new ArmadaChartOutput(site.node.scope as cdk8s.Chart, 'crs', { manifest: site });
  try {
    expect(() => app.synth()).toThrow(block.code.trimEnd());
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});
