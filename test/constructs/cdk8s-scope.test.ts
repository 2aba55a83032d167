// This file deliberately does not import 'armada-cdk/cdk8s': nothing registers a renderer.
import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup } from '../../src';
import { base } from '../helpers/site';

test('a manifest inside a cdk8s Chart with nothing to render it is an error that says what to import', () => {
  const app = new cdk8s.App();
  const chart = new cdk8s.Chart(app, 'site');
  const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(site, 'g'), 'c', base('c'));
  expect(() => app.synthYaml()).toThrow("site/site: this manifest is inside a cdk8s Chart but nothing renders it: import 'armada-cdk/cdk8s'");
});
