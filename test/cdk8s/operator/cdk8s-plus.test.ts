import { execFileSync } from 'child_process';
import * as path from 'path';
import { defineSite } from '../../../examples/site';
import { OperatorApi } from '../../../src/cdk8s';
import { loadCdk8sPlus, SUPPORTED_CDK8S_PLUS } from '../../../src/cdk8s/operator/cdk8s-plus';
import { bundleErrors } from './bundle-checks';
import { keleustesSite, synthOperator } from './helpers';
import { kubernetesSchemaErrors } from './k8s-schemas';
import { REGISTER_TS } from '../../helpers/ts-child';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('cdk8s-plus: loaded only for ArmadaOperator, any supported version', () => {
  test('importing armada-cdk/cdk8s and rendering a site loads no cdk8s-plus', () => {
    const script = [
      "const cdk8s = require('cdk8s');",
      "const { ArmadaChartOutput } = require('./src/cdk8s');",
      "const { ArmadaManifest, Chart, ChartGroup, ChartSource } = require('./src');",
      "const site = new ArmadaManifest(undefined, 'site', { releasePrefix: 'p' });",
      "new Chart(new ChartGroup(site, 'g'), 'c', { namespace: 'n', source: ChartSource.tar('https://x.example/c.tgz') });",
      "const app = new cdk8s.App();",
      "new ArmadaChartOutput(new cdk8s.Chart(app, 'site'), 'crs', { manifest: site });",
      "const n = cdk8s.Testing.synth(app.charts[0]).length;",
      "console.log(JSON.stringify({ n, plus: Object.keys(require.cache).filter((k) => k.includes('node_modules/cdk8s-plus')).length }));",
    ].join('\n');
    const out = execFileSync(process.execPath, ['-r', REGISTER_TS, '-e', script], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ n: 1, plus: 0 });
  });

  test.each(['cdk8s-plus-28', 'cdk8s-plus-33', 'cdk8s-plus-34'])('%s: the same bundle, valid, for both operators', (name) => {
    for (const props of [{ manifest: defineSite() }, { api: OperatorApi.KELEUSTES_V1ALPHA1, manifest: keleustesSite() }]) {
      const withIt = synthOperator({ ...props, cdk8sPlus: name });
      const reference = synthOperator({ ...props, cdk8sPlus: 'cdk8s-plus-28' });
      expect(withIt.objects).toEqual(reference.objects);
      expect(withIt.namespaces).toEqual(reference.namespaces);
      for (const o of withIt.objects) expect(kubernetesSchemaErrors(o, '33')).toEqual([]);
      expect(bundleErrors(withIt.objects, withIt.namespaces)).toEqual([]);
    }
  });

  test('by default the newest installed; a clear message naming the package otherwise', () => {
    expect(SUPPORTED_CDK8S_PLUS[0]).toBe('cdk8s-plus-34');
    expect(loadCdk8sPlus('ArmadaOperator op').name).toBe('cdk8s-plus-34');
    expect(() => loadCdk8sPlus('ArmadaOperator op', 'cdk8s-plus-31')).toThrow('ArmadaOperator op: cdk8sPlus "cdk8s-plus-31" is not installed; run "npm install cdk8s-plus-31"');
    expect(() => loadCdk8sPlus('ArmadaOperator op', 'cdk8s-plus-27')).toThrow('ArmadaOperator op: cdk8sPlus "cdk8s-plus-27": not a supported package; use one of cdk8s-plus-34, cdk8s-plus-33, cdk8s-plus-32, cdk8s-plus-31, cdk8s-plus-30, cdk8s-plus-29, cdk8s-plus-28');
    jest.isolateModules(() => {
      for (const n of SUPPORTED_CDK8S_PLUS) {
        jest.doMock(n, () => {
          throw Object.assign(new Error(`Cannot find module '${n}' from 'src/cdk8s/operator/cdk8s-plus.ts'`), { code: 'MODULE_NOT_FOUND' });
        }, { virtual: true });
      }
      const isolated = require('../../../src/cdk8s/operator/cdk8s-plus') as typeof import('../../../src/cdk8s/operator/cdk8s-plus');
      expect(() => isolated.loadCdk8sPlus('ArmadaOperator op')).toThrow(
        'ArmadaOperator op: ArmadaOperator needs cdk8s-plus, which is not installed; run "npm install cdk8s-plus-33" (any of cdk8s-plus-34, cdk8s-plus-33, cdk8s-plus-32, cdk8s-plus-31, cdk8s-plus-30, cdk8s-plus-29, cdk8s-plus-28 works)',
      );
    });
  });
});
