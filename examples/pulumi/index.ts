// `pulumi up` on the example site: the same module `npm run synth` turns into YAML, deployed as
// one Helm release per chart, in Armada's order, each waited for by Armada's rules.
import * as pulumi from '@pulumi/pulumi';
import * as k8s from '@pulumi/kubernetes';
import { ManifestDeployment } from 'armada-cdk/pulumi';
import { site } from '../site';

const config = new pulumi.Config();
// The readiness gates, pre-upgrade deletes and helm tests talk to the cluster themselves: give
// them the provider's kubeconfig and context, so both reach the same cluster.
const kubeconfig = config.get('kubeconfig') || undefined;
const context = config.get('context') || undefined;

const provider = new k8s.Provider('cluster', { kubeconfig, context });
const deployment = new ManifestDeployment('site', { manifest: site, kubeconfig, context }, { provider });

/** Helm release name -> Helm status. */
export const releases = deployment.releases;
