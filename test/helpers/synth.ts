import * as cdk8s from 'cdk8s';
import { ArmadaManifest } from '../../src';
import { ArmadaChartOutput, ArmadaChartOutputProps, ArmadaDocuments, ArmadaDocumentsProps } from '../../src/cdk8s';
import { Diagnostic } from '../../src/model/diagnostics';

/** Synthesizes one output of `manifest` into a fresh cdk8s app; returns the objects and the warnings. */
export function synthCrs(manifest: ArmadaManifest, props: Omit<ArmadaChartOutputProps, 'manifest'> = {}) {
  const warnings: Diagnostic[] = [];
  const app = new cdk8s.App();
  const chart = new cdk8s.Chart(app, 'out');
  new ArmadaChartOutput(chart, 'crs', { manifest, onWarning: (w) => warnings.push(w), ...props });
  return { objects: cdk8s.Testing.synth(chart) as any[], warnings, yaml: app.synthYaml() };
}

export function synthDocuments(manifest: ArmadaManifest, props: Omit<ArmadaDocumentsProps, 'manifest'> = {}) {
  const warnings: Diagnostic[] = [];
  const app = new cdk8s.App();
  const chart = new cdk8s.Chart(app, 'docs');
  new ArmadaDocuments(chart, 'docs', { manifest, onWarning: (w) => warnings.push(w), ...props });
  return { objects: cdk8s.Testing.synth(chart) as any[], warnings, yaml: app.synthYaml() };
}
