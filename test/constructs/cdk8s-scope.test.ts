// This file deliberately does not import 'armada-cdk/cdk8s': the constructs never need it.
import * as cdk8s from 'cdk8s';
import { ArmadaManifest, Chart, ChartGroup } from '../../src';
import { base } from '../helpers/site';

test('a manifest inside a cdk8s Chart with nothing to render it is an error that says which output to add', () => {
  const app = new cdk8s.App();
  const chart = new cdk8s.Chart(app, 'site');
  const site = new ArmadaManifest(chart, 'site', { releasePrefix: 'p' });
  new Chart(new ChartGroup(site, 'g'), 'c', base('c'));
  expect(() => app.synthYaml()).toThrow(
    "site/site: this manifest is inside a cdk8s Chart but nothing renders it: add an output of armada-cdk/cdk8s for it, such as new ArmadaChartOutput(chart, 'crs', { manifest: site }) for airship v1 ArmadaCharts, ArmadaDocuments or FluxOutput",
  );
});
