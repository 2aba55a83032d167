import { ArmadaManifest, Chart, ChartGroup } from '../../../src';
import { isSystemNamespace, machineryNamespace } from '../../../src/model/system-namespaces';
import { base } from '../../helpers/site';
import { ids, rbacOf, synthOperator } from './helpers';

/** A site with one chart in each of `namespaces` (named `<namespace>-chart`) and one in openstack. */
function site(...namespaces: string[]) {
  const s = new ArmadaManifest(undefined, 'site', { releasePrefix: 'airship' });
  const g = new ChartGroup(s, 'g', { sequenced: true });
  for (const ns of namespaces) new Chart(g, `${ns}-chart`, base(`${ns}-chart`, ns));
  new Chart(g, 'mariadb', base('mariadb'));
  return s;
}

describe('namespaces of cluster machinery are sensitive, as kube-system is', () => {
  test('a release in flux-system: a warning naming the chart, and no Namespace that would relabel it baseline', () => {
    // The repro: a Namespace flux-system with enforce: baseline, and Secrets CRUD there, without a word.
    const { warnings, namespaces, objects } = synthOperator({ manifest: site('flux-system') });
    expect(warnings.filter((w) => w.code === 'sensitive-namespace').map((w) => w.message)).toEqual([
      'charts "flux-system-chart" install into namespace "flux-system": the operator gets Secrets, ServiceAccounts and Roles there, which in flux-system (Flux\'s controllers, which apply what they reconcile as cluster-admin) is close to cluster-admin for anyone who can create an ArmadaChart; move those releases to a namespace of their own',
    ]);
    expect(ids(namespaces)).toEqual(['Namespace openstack']);
    expect(ids(objects)).not.toContain('Namespace flux-system');
    // The Role the release needs is still written: the warning says what it gives.
    expect(Object.keys(rbacOf(objects))).toContain('Role flux-system/armada-operator');
  });

  test('each namespace of machinery warns with its reason, one warning per namespace, in the order of the releases', () => {
    const { warnings, namespaces } = synthOperator({ manifest: site('argocd', 'cert-manager', 'kube-public') });
    expect(warnings.filter((w) => w.code === 'sensitive-namespace').map((w) => w.message.replace(/: the operator gets .* which in /, ': ').replace(/ is close to .*$/, ''))).toEqual([
      'charts "argocd-chart" install into namespace "argocd": argocd (Argo CD\'s application controller, cluster-admin by default)',
      'charts "cert-manager-chart" install into namespace "cert-manager": cert-manager (cert-manager, which reads and writes Secrets in every namespace)',
      'charts "kube-public-chart" install into namespace "kube-public": kube-public (readable by every user, unauthenticated ones included)',
    ]);
    expect(ids(namespaces)).toEqual(['Namespace openstack']);
  });

  test('an ordinary namespace is not machinery, and the API server keeps only its own', () => {
    expect(machineryNamespace('openstack')).toBeUndefined();
    expect(machineryNamespace('toString')).toBeUndefined();
    expect(machineryNamespace('flux-system')).toContain('Flux');
    expect(isSystemNamespace('flux-system')).toBe(false);
  });
});
