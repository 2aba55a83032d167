// The Pulumi program of the end-to-end test: `examples/pulumi/index.ts`'s shape (a provider for the
// cluster, one ManifestDeployment with the same kubeconfig), over a site whose charts come from the
// harness's chart sources on 127.0.0.1. Plain JavaScript that loads `armada-cdk` as installed from
// the packed tarball in this folder's node_modules, as a user's program does.
'use strict';
const fs = require('node:fs');
const pulumi = require('@pulumi/pulumi');
const k8s = require('@pulumi/kubernetes');
const { ArmadaManifest, Chart, ChartGroup, ChartSource, Duration, WaitResource } = require('armada-cdk');
const { ManifestDeployment } = require('armada-cdk/pulumi');

/** A chart source of the site file: a tarball of the Helm repository or a path in a git repository. */
function source(s) {
  if (s.type === 'tar') return ChartSource.tar(s.url, { subpath: s.subpath });
  if (s.type === 'git') return ChartSource.git(s.url, { subpath: s.subpath, reference: s.reference });
  if (s.type === 'local') return ChartSource.local(s.path);
  throw new Error(`unknown chart source type ${JSON.stringify(s.type)}`);
}

function waitResource(r) {
  return WaitResource.of(r.type, r.minReady !== undefined ? { minReady: r.minReady } : {});
}

/** The site: groups of charts, as `examples/site.ts` builds them, from the test's description. */
function defineSite(desc) {
  const site = new ArmadaManifest(undefined, 'site', { releasePrefix: desc.releasePrefix });
  const subcharts = {};
  for (const c of desc.subcharts || []) subcharts[c.id] = new Chart(site, c.id, { namespace: c.namespace, source: source(c.source) });
  for (const g of desc.groups) {
    const group = new ChartGroup(site, g.id, { description: g.description, sequenced: g.sequenced });
    for (const c of g.charts) {
      new Chart(group, c.id, {
        namespace: c.namespace,
        source: source(c.source),
        ...(c.dependencies ? { dependencies: c.dependencies.map((d) => subcharts[d]) } : {}),
        ...(c.values ? { values: c.values } : {}),
        wait: {
          timeout: Duration.seconds(c.wait.timeoutSeconds),
          labels: c.wait.labels,
          ...(c.wait.resources ? { resources: c.wait.resources.map(waitResource) } : {}),
          ...(c.wait.native !== undefined ? { native: { enabled: c.wait.native } } : {}),
        },
        test: c.test ? { enabled: true, timeout: Duration.seconds(120) } : { enabled: false },
      });
    }
  }
  return site;
}

/** The inline program the driver runs. */
exports.program = async () => {
  const desc = JSON.parse(fs.readFileSync(process.env.ARMADA_CDK_E2E_SITE, 'utf8'));
  const config = new pulumi.Config();
  const kubeconfig = config.get('kubeconfig') || undefined;
  const context = config.get('context') || undefined;
  const provider = new k8s.Provider('cluster', { kubeconfig, context });
  const deployment = new ManifestDeployment(
    'site',
    {
      manifest: defineSite(desc),
      kubeconfig,
      context,
      helmCommand: desc.helmCommand,
      // `pulumi destroy` uninstalls the releases, as `--enable-chart-cleanup` would.
      chartCleanup: true,
      sources: { cacheDir: desc.chartCacheDir },
      ...(desc.takeover ? { takeover: true } : {}),
    },
    { provider },
  );
  return { releases: deployment.releases };
};
