// `npm run synth`: the example site as airship ArmadaCharts (dist/site.k8s.yaml), as classic
// Armada documents for `armada apply` (dist/armada-documents.k8s.yaml), and the operator that
// reconciles those ArmadaCharts (dist/operator.k8s.yaml, after dist/operator-crds.k8s.yaml and
// dist/operator-release-namespaces.k8s.yaml: apply the three first, then the site); and the same
// site as a Flux GitOps directory (dist/<manifest>/, for a Flux Kustomization to point at).
import * as cdk8s from 'cdk8s';
import { ChartSource } from 'armada-cdk';
import { ArmadaChartOutput, ArmadaDocuments, ArmadaOperator, FluxLayout, FluxOutput, OperatorApi, PodSecurityLevel, ResourceKinds } from 'armada-cdk/cdk8s';
import { site } from '../site';

const app = new cdk8s.App();
new ArmadaChartOutput(new cdk8s.Chart(app, 'site'), 'armada-charts', { manifest: site, syncWaves: true });
new ArmadaDocuments(new cdk8s.Chart(app, 'armada-documents'), 'documents', { manifest: site });

// Least-privilege RBAC derived from the site: Roles in the namespaces its releases use only,
// holding what helm-toolkit's dependency-check Roles grant. An ingress controller also registers
// its (cluster-scoped) IngressClass, which the default kinds of a Helm release do not cover; a
// chart rendered with `helm template` can be read instead, Roles and ClusterRoles included, with
// ResourceKinds.fromRenderedChart('rendered/ingress.yaml').
const ingressKinds = [...ResourceKinds.HELM_RELEASE, { apiGroup: 'networking.k8s.io', resource: 'ingressclasses', clusterScoped: true }];
new ArmadaOperator(new cdk8s.Chart(app, 'operator'), 'armada-operator', {
  api: OperatorApi.AIRSHIP_V1,
  manifest: site,
  resourceKinds: { 'ingress-kube-system': ingressKinds, 'ingress-openstack': ingressKinds },
  // libvirt, openvswitch and the neutron agents run privileged pods in openstack.
  podSecurity: { openstack: PodSecurityLevel.PRIVILEGED },
});
// Flux reads no directory of the deployment host: the local charts come from the repository that
// holds that directory. The GitOps directory is written after the synth, into the app's outdir;
// its Kustomizations read it at `dist/` of the Git repository this project is committed to.
const flux = new FluxOutput(new cdk8s.Chart(app, 'flux'), 'flux', {
  manifest: site,
  layout: FluxLayout.DIRECTORY,
  repositoryPath: 'dist',
  localSources: { '/opt/charts/openstack-helm-infra': ChartSource.git('https://opendev.org/openstack/openstack-helm-infra', { reference: 'master' }) },
});
app.synth();
flux.writeDirectory();
