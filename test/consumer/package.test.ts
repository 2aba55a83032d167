/**
 * Acceptance: the packed package in fresh projects, as a new user meets it. A cdk8s project made
 * from cdk8s's own TypeScript app template (its tsconfig as is: "module": "CommonJS" with classic
 * resolution, noUnusedLocals, no skipLibCheck) with the oldest supported `constructs`, whose
 * main.ts is the README's first sample; and a Pulumi program run under Pulumi's mocks. Offline:
 * everything is installed from the npm cache (see offline-project.ts).
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { installOffline, lowestConstructs, pack, REPO_ROOT } from './offline-project';
import { readmeBlocks } from './readme-samples';
import { sharedPath } from '../helpers/shared';

// Packing builds the package, and each project installs a few hundred packages from the cache.
jest.setTimeout(300_000);

const TEMPLATE = path.join(REPO_ROOT, 'node_modules', 'cdk8s-cli', 'templates', 'typescript-app');
const version = (name: string): string => JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
/** Runs a command in a project; a failure carries its output. */
function run(dir: string, args: string[]): string {
  try {
    return execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stdout?: string | undefined; stderr?: string | undefined; message: string };
    throw new Error(`${args.join(' ')} failed in ${path.basename(dir)}:\n${err.stdout ?? ''}${err.stderr ?? err.message}`);
  }
}
const tsc = (dir: string, ...args: string[]) => run(dir, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), ...args]);
/** The `error TS` lines of a compile that may fail. */
function tscErrors(dir: string, ...args: string[]): string[] {
  let out: string;
  try {
    out = tsc(dir, ...args);
  } catch (e) {
    out = (e as Error).message;
  }
  return out.split('\n').filter((l) => /error TS/.test(l));
}

let work: string;
let tarball: string;
let cdk8sProject: { dir: string; installed: Promise<void> };
let pulumiProject: { dir: string; installed: Promise<void> };

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-consumer-'));
  tarball = path.join(work, pack(work));
  // Both projects install side by side; each test waits for its own.
  cdk8sProject = createCdk8sProject(path.join(work, 'my-site'));
  pulumiProject = createPulumiProject(path.join(work, 'my-stack'));
  // A failed install is reported by the test that needs it.
  cdk8sProject.installed.catch(() => undefined);
  pulumiProject.installed.catch(() => undefined);
});

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** The template rendered as `cdk8s init typescript-app` renders it (sscaff's {{ }} placeholders). */
function renderTemplate(dir: string, vars: Record<string, string>): void {
  const render = (s: string) =>
    s.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (_, key: string) => {
      if (key === '') return '';
      if (!(key in vars)) throw new Error(`the template uses {{ ${key} }}, which this test does not know`);
      return vars[key];
    });
  const copy = (from: string, to: string) => {
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      if (entry.name === '.hooks.sscaff.js') continue; // the post hook runs npm install and cdk8s import: done below, offline
      const target = path.join(to, render(entry.name));
      if (entry.isDirectory()) {
        fs.mkdirSync(target, { recursive: true });
        copy(path.join(from, entry.name), target);
      } else fs.writeFileSync(target, render(fs.readFileSync(path.join(from, entry.name), 'utf8')));
    }
  };
  copy(TEMPLATE, dir);
}

/** The template rendered and installed, with main.test.ts (a test of the template's placeholder chart) removed. */
function createCdk8sProject(dir: string): { dir: string; installed: Promise<void> } {
  fs.mkdirSync(dir);
  renderTemplate(dir, {
    $base: path.basename(dir),
    cdk8s_core_version: version('cdk8s'),
    cdk8s_plus_version: version('cdk8s-plus-33'),
    constructs_version: lowestConstructs(),
    cdk8s_cli_spec: `^${version('cdk8s-cli')}`,
  });
  const rendered = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  fs.rmSync(path.join(dir, 'main.test.ts'));
  fs.rmSync(path.join(dir, '__snapshots__'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'main.ts'), readmeBlocks('ts')[0].code);
  // The template's dependencies as rendered; of its tooling only the compiler (at this
  // repository's versions): `cdk8s import` and jest are not what is tested, and the app runs as
  // compiled JavaScript rather than through ts-node.
  const installed = installOffline(dir, {
    tarball,
    pkg: { name: rendered.name, version: rendered.version, private: true, license: rendered.license, main: rendered.main },
    dependencies: rendered.dependencies,
    devDependencies: { typescript: version('typescript'), '@types/node': version('@types/node') },
  });
  return { dir, installed };
}

test('a project from cdk8s init typescript-app, with the oldest supported constructs, synthesizes the README sample', async () => {
  const { dir } = cdk8sProject;
  const constructs = lowestConstructs();
  const tsconfig = fs.readFileSync(path.join(dir, 'tsconfig.json'), 'utf8');
  expect(tsconfig).toBe(fs.readFileSync(path.join(TEMPLATE, 'tsconfig.json'), 'utf8'));
  expect(JSON.parse(tsconfig).compilerOptions).toMatchObject({ module: 'CommonJS', noUnusedLocals: true });
  expect(JSON.parse(tsconfig).compilerOptions.moduleResolution).toBeUndefined(); // classic node10 resolution: no `exports`
  const rendered = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  expect(rendered.dependencies).toEqual({ 'armada-cdk': `file:${tarball}`, cdk8s: `^${version('cdk8s')}`, 'cdk8s-plus-33': `^${version('cdk8s-plus-33')}`, constructs: `^${constructs}` });
  await cdk8sProject.installed;
  expect(JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'constructs', 'package.json'), 'utf8')).version).toBe(constructs);
  // One copy of constructs: the project's.
  expect(fs.existsSync(path.join(dir, 'node_modules', 'armada-cdk', 'node_modules', 'constructs'))).toBe(false);

  tsc(dir, '--build'); // the template's `npm run compile`
  // The README's first sample asks for no warning (it acknowledges the one it accepts): it prints nothing.
  const synth = spawnSync(process.execPath, ['main.js'], { cwd: dir, encoding: 'utf8' });
  expect([synth.status, synth.stdout, synth.stderr]).toEqual([0, '', '']);
  // A project that turns on the strictest optional-property checks (no skipLibCheck either): our
  // declarations compile under them, and optional props take an explicit undefined.
  fs.writeFileSync(
    path.join(dir, 'exact-optional.ts'),
    [
      "import { ArmadaManifest, Chart, ChartGroup, ChartSource } from 'armada-cdk';",
      "export const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship', name: process.env.SITE_NAME });",
      "new Chart(new ChartGroup(site, 'g', { sequenced: undefined }), 'c', { namespace: 'ns', source: ChartSource.git('https://example.org/c.git', { reference: process.env.REF }) });",
      '',
    ].join('\n'),
  );
  expect(tscErrors(dir, '--noEmit', '-p', '.', '--exactOptionalPropertyTypes', '--noUncheckedIndexedAccess')).toEqual([]);
  const objects = YAML.parseAllDocuments(fs.readFileSync(path.join(dir, 'dist', 'site.k8s.yaml'), 'utf8')).map((d) => d.toJS());
  expect(objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['armada.airshipit.org/v1 ArmadaChart openstack/airship-mariadb']);
  expect(objects[0].data.wait.timeout).toBe(600);

  // The subpaths' types under the other module settings a project may use.
  fs.writeFileSync(
    path.join(dir, 'entry-points.ts'),
    [
      "import { ArmadaManifest } from 'armada-cdk';",
      "import { ArmadaChartOutput } from 'armada-cdk/cdk8s';",
      "import type { ManifestDeploymentArgs } from 'armada-cdk/pulumi';",
      'export const used: [typeof ArmadaManifest, typeof ArmadaChartOutput, ManifestDeploymentArgs | undefined] = [ArmadaManifest, ArmadaChartOutput, undefined];',
      '',
    ].join('\n'),
  );
  for (const [module, resolution] of [['commonjs', 'node10'], ['node16', 'node16'], ['nodenext', 'nodenext'], ['preserve', 'bundler']]) {
    // @pulumi/* are not installed in this project: the pulumi entry point's types must not need them for a type-only import.
    expect([module, tscErrors(dir, '--noEmit', '--strict', '--skipLibCheck', '--module', module, '--moduleResolution', resolution, '--types', 'node', 'entry-points.ts')]).toEqual([module, []]);
  }

  // An ES module project imports the same names: Node's CommonJS interop must see every export.
  fs.writeFileSync(
    path.join(dir, 'esm-check.mjs'),
    [
      "import * as root from 'armada-cdk';",
      "import * as cdk8s from 'armada-cdk/cdk8s';",
      "import { ArmadaManifest, ChartSource } from 'armada-cdk';",
      "import { ArmadaChartOutput } from 'armada-cdk/cdk8s';",
      "import { createRequire } from 'module';",
      // Node.js 23 and later add "module.exports" to the names of an imported CommonJS module.
      'const names = (m) => Object.keys(m).filter((k) => k !== "default" && k !== "__esModule" && k !== "module.exports").sort();',
      'const required = names(createRequire(import.meta.url)("armada-cdk"));',
      'console.log(JSON.stringify({ root: names(root), required, cdk8s: names(cdk8s), named: [typeof ArmadaManifest, typeof ChartSource, typeof ArmadaChartOutput] }));',
      '',
    ].join('\n'),
  );
  const esm = JSON.parse(run(dir, ['esm-check.mjs']));
  expect(esm.named).toEqual(['function', 'function', 'function']);
  expect(esm.root).toEqual(esm.required);
  expect(esm.root).toEqual(expect.arrayContaining(['ArmadaManifest', 'Chart', 'ChartGroup', 'ChartSource', 'Duration', 'WaitResource', 'mergeValues']));
  expect(esm.cdk8s).toEqual(expect.arrayContaining(['ArmadaChartOutput', 'ArmadaDocuments', 'ArmadaOperator', 'FluxOutput']));
});

/** A program as `pulumi new typescript` creates it, installed. */
function createPulumiProject(dir: string): { dir: string; installed: Promise<void> } {
  fs.mkdirSync(dir);
  // What `pulumi new typescript` creates.
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        outDir: 'bin',
        target: 'es2020',
        module: 'commonjs',
        moduleResolution: 'node',
        sourceMap: true,
        experimentalDecorators: true,
        pretty: true,
        noFallthroughCasesInSwitch: true,
        noImplicitReturns: true,
        forceConsistentCasingInFileNames: true,
      },
      files: ['index.ts'],
    }),
  );
  fs.writeFileSync(
    path.join(dir, 'index.ts'),
    `import * as k8s from '@pulumi/kubernetes';
import { ArmadaManifest, Chart, ChartGroup, ChartSource } from 'armada-cdk';
import { ManifestDeployment } from 'armada-cdk/pulumi';

const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
const infra = new ChartGroup(site, 'infra', { sequenced: true });
for (const name of ['mariadb', 'memcached']) {
  new Chart(infra, name, { namespace: 'openstack', source: ChartSource.tar(\`https://charts.example.org/\${name}-0.1.0.tgz\`) });
}
const provider = new k8s.Provider('cluster', {});
const deployment = new ManifestDeployment('site', { manifest: site, resolveChart: async (chart) => \`/charts/\${chart.name}\` }, { provider });
export const releases = deployment.releases;
`,
  );
  fs.writeFileSync(
    path.join(dir, 'mocks.js'),
    `const pulumi = require('@pulumi/pulumi');
const seen = [];
pulumi.runtime.setMocks({
  newResource: (args) => {
    seen.push(args.type + ' ' + args.name);
    return { id: args.name + '-id', state: args.type === 'kubernetes:helm.sh/v3:Release' ? { ...args.inputs, status: { status: 'deployed' } } : args.inputs };
  },
  call: (args) => args.inputs,
}, 'my-stack', 'test', false);
const program = require('./bin/index.js');
program.releases.apply((releases) => {
  setTimeout(() => process.stdout.write(JSON.stringify({ releases, seen: seen.sort() }) + '\\n'), 100);
});
`,
  );
  const installed = installOffline(dir, {
    tarball,
    pkg: { name: 'my-stack', version: '1.0.0', private: true, main: 'bin/index.js' },
    dependencies: { '@pulumi/pulumi': `^${version('@pulumi/pulumi')}`, '@pulumi/kubernetes': `^${version('@pulumi/kubernetes')}`, constructs: `^${lowestConstructs()}` },
    devDependencies: { typescript: version('typescript'), '@types/node': version('@types/node') },
  });
  return { dir, installed };
}

test('the installed armada-cdk command runs from its bundle', async () => {
  const { dir } = cdk8sProject;
  await cdk8sProject.installed;
  const installed = path.join(dir, 'node_modules', 'armada-cdk');
  expect(fs.existsSync(path.join(installed, 'lib', 'armada-cdk-cli.js'))).toBe(true);
  // Each run reports the files it loaded (require.cache) when it exits.
  const loaded = path.join(dir, 'loaded.json');
  const report = path.join(dir, 'report-loaded.js');
  fs.writeFileSync(report, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache))));\n`);
  const cli = (...args: string[]) => spawnSync(process.execPath, ['-r', report, path.join(dir, 'node_modules', '.bin', 'armada-cdk'), ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  expect(cli('--version')).toMatchObject({ status: 0, stdout: `${JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version}\n`, stderr: '' });
  const site = sharedPath('corpus', 'armada__examples__simple.yaml');
  const validate = cli('validate', site);
  expect(validate.status).toBe(0);
  expect(validate.stderr).toMatch(/^valid: manifest simple-armada, 2 charts, 1 group: 0 errors, 2 warnings$/m);
  // it ran the bundle, not the compiled modules beside it
  const ours = (JSON.parse(fs.readFileSync(loaded, 'utf8')) as string[]).filter((f) => f.startsWith(fs.realpathSync(installed) + path.sep)).map((f) => path.relative(fs.realpathSync(installed), f));
  expect(ours).toContain(path.join('lib', 'armada-cdk-cli.js'));
  expect(ours.filter((f) => f.startsWith(path.join('lib', 'src')))).toEqual([]);
  // again (from Node's compile cache, where Node has one), to the same result
  expect(cli('validate', site)).toMatchObject({ status: 0, stdout: validate.stdout, stderr: validate.stderr });
  // keleustes-v1alpha1 reads the closed values schema, a JSON file beside the compiled modules
  const convert = cli('convert', site, '--to', 'keleustes-v1alpha1');
  expect(convert.status).toBe(0);
  expect(convert.stdout.match(/^kind: \w+$/gm)).toEqual(['kind: ArmadaChart', 'kind: ArmadaChart', 'kind: ArmadaChartGroup', 'kind: ArmadaManifest']);
  const imported = cli('import', site, '-o', path.join(dir, 'imported-site.ts'));
  expect(imported.status).toBe(0);
  expect(fs.readFileSync(path.join(dir, 'imported-site.ts'), 'utf8')).toMatch(/^import \{ ArmadaManifest, Chart, ChartGroup, ChartSource \} from 'armada-cdk';$/m);
});

test('a Pulumi program deploys the site under mocks', async () => {
  const { dir } = pulumiProject;
  await pulumiProject.installed;
  tsc(dir, '-p', '.');
  // The README's Pulumi sample passes environment variables, which may be undefined, to optional
  // arguments: that compiles also with exactOptionalPropertyTypes (and no skipLibCheck).
  fs.writeFileSync(
    path.join(dir, 'exact-optional.ts'),
    [
      "import { ArmadaManifest } from 'armada-cdk';",
      "import type { ManifestDeploymentArgs } from 'armada-cdk/pulumi';",
      "const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });",
      'export const args: ManifestDeploymentArgs = { manifest: site, kubeconfig: process.env.KUBECONFIG, context: process.env.KUBE_CONTEXT };',
      '',
    ].join('\n'),
  );
  expect(tscErrors(dir, '--noEmit', '--strict', '--exactOptionalPropertyTypes', '--target', 'es2020', '--module', 'commonjs', '--moduleResolution', 'node', 'exact-optional.ts')).toEqual([]);
  const out = JSON.parse(run(dir, ['mocks.js']));
  expect(out.releases).toEqual({ 'airship-mariadb': 'deployed', 'airship-memcached': 'deployed' });
  expect(out.seen.filter((s: string) => s.startsWith('kubernetes:helm.sh/v3:Release'))).toEqual(['kubernetes:helm.sh/v3:Release site/infra/mariadb', 'kubernetes:helm.sh/v3:Release site/infra/memcached']);
  // and from an ES module
  fs.writeFileSync(path.join(dir, 'esm-check.mjs'), "import { ManifestDeployment, ChartSourceError } from 'armada-cdk/pulumi';\nconsole.log(typeof ManifestDeployment, typeof ChartSourceError);\n");
  expect(run(dir, ['esm-check.mjs'])).toBe('function function\n');
});
