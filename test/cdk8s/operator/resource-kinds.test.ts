import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { defineSite } from '../../../examples/site';
import { ResourceKinds } from '../../../src/cdk8s';
import { rbacOf, synthOperator } from './helpers';

/** What `helm template` prints: `# Source:` comments, empty documents, a CRD and its resources, hooks. */
const RENDERED = `---
# Source: widget/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: widget
---
# Source: widget/templates/empty.yaml
---
# Source: widget/crds/gadgets.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.org
spec:
  group: example.org
  scope: Cluster
  names: { kind: Gadget, plural: gadgets }
---
apiVersion: example.org/v1
kind: Gadget
metadata:
  name: one
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: widget
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: widget
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: a }
  - apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: { name: b }
---
# Source: widget/templates/tests/test.yaml
apiVersion: v1
kind: Pod
metadata:
  name: widget-test
  annotations: { helm.sh/hook: test }
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: widget
---
apiVersion: example.org/v1
kind: Policy
metadata:
  name: guessed
`;

const EXPECTED = [
  { apiGroup: '', resource: 'configmaps' },
  { apiGroup: '', resource: 'pods' },
  { apiGroup: '', resource: 'serviceaccounts' },
  { apiGroup: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', clusterScoped: true },
  // A custom resource: name and scope from its CRD in the same output.
  { apiGroup: 'example.org', resource: 'gadgets', clusterScoped: true },
  // Unknown: Kubernetes' plural guess, namespaced.
  { apiGroup: 'example.org', resource: 'policies' },
  { apiGroup: 'monitoring.coreos.com', resource: 'servicemonitors' },
  { apiGroup: 'networking.k8s.io', resource: 'ingresses' },
  { apiGroup: 'policy', resource: 'poddisruptionbudgets' },
  { apiGroup: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', clusterScoped: true },
];

describe('ResourceKinds from a rendered chart', () => {
  test('helm template output: kinds, groups from apiVersion, CRD-defined resources, List items', () => {
    expect(ResourceKinds.fromManifests(RENDERED)).toEqual(EXPECTED);
  });

  test('a file, or a directory written by helm template --output-dir (recursive, one text)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'armada-cdk-rendered-'));
    const file = path.join(dir, 'rendered.yaml');
    fs.writeFileSync(file, RENDERED);
    expect(ResourceKinds.fromRenderedChart(file).kinds).toEqual(EXPECTED);

    const out = path.join(dir, 'out', 'widget');
    fs.mkdirSync(path.join(out, 'templates'), { recursive: true });
    fs.mkdirSync(path.join(out, 'crds'));
    const [head, ...rest] = RENDERED.split('# Source: widget/crds/gadgets.yaml');
    fs.writeFileSync(path.join(out, 'templates', 'a.yaml'), head);
    fs.writeFileSync(path.join(out, 'crds', 'gadgets.yaml'), rest.join(''));
    fs.writeFileSync(path.join(out, 'NOTES.txt'), 'not a manifest: {{ oops');
    fs.writeFileSync(path.join(out, 'templates', 'deploy.json'), JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }));
    expect(ResourceKinds.fromRenderedChart(path.join(dir, 'out')).kinds).toEqual([...EXPECTED.slice(0, 4), { apiGroup: 'apps', resource: 'deployments' }, ...EXPECTED.slice(4)]);
  });

  test('errors name the input', () => {
    expect(() => ResourceKinds.fromRenderedChart('/nonexistent/rendered.yaml')).toThrow('ResourceKinds.fromRenderedChart: /nonexistent/rendered.yaml does not exist; pass the output of "helm template"');
    expect(() => ResourceKinds.fromManifests('a: [1', 'keystone.yaml')).toThrow(/^ResourceKinds.fromManifests: keystone.yaml is not YAML: /);
  });

  test('read kinds drive the RBAC of their chart', () => {
    const { objects } = synthOperator({ manifest: defineSite(), resourceKinds: { 'ingress-kube-system': ResourceKinds.fromManifests(RENDERED) } });
    const rbac = rbacOf(objects);
    expect(rbac['Role kube-system/armada-operator']).toEqual([
      'core configmaps,pods,serviceaccounts: get,list,watch,create,update,patch,delete',
      'core secrets: get,list,create,update,delete',
      // The chart's deployment wait, and what Helm's own wait reads.
      'apps deployments: list,watch',
      'apps replicasets: get,list,watch',
      'example.org policies: get,list,watch,create,update,patch,delete',
      'monitoring.coreos.com servicemonitors: get,list,watch,create,update,patch,delete',
      'networking.k8s.io ingresses: get,list,watch,create,update,patch,delete',
      'policy poddisruptionbudgets: get,list,watch,create,update,patch,delete',
    ]);
    expect(rbac['ClusterRole armada-operator-armada-operator-system'].filter((l) => !l.startsWith('armada.airshipit.org'))).toEqual([
      'core namespaces: create',
      'apiextensions.k8s.io customresourcedefinitions: get,list,watch,create,update,patch,delete',
      'batch cronjobs,jobs: list,watch',
      'example.org gadgets: get,list,watch,create,update,patch,delete',
      'rbac.authorization.k8s.io clusterrolebindings: get,list,watch,create,update,patch,delete',
    ]);
  });
});
