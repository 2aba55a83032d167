// `npm run synth`: the example site as airship ArmadaCharts (dist/site.k8s.yaml) and as classic
// Armada documents for `armada apply` (dist/armada-documents.k8s.yaml).
import * as cdk8s from 'cdk8s';
import { ArmadaChartOutput, ArmadaDocuments } from 'armada-cdk/cdk8s';
import { site } from '../site';

const app = new cdk8s.App();
new ArmadaChartOutput(new cdk8s.Chart(app, 'site'), 'armada-charts', { manifest: site, syncWaves: true });
new ArmadaDocuments(new cdk8s.Chart(app, 'armada-documents'), 'documents', { manifest: site });
app.synth();
