/**
 * The operator bundle of the example site (`npm run synth`'s output) against the real API server:
 * the CRDs install, every ArmadaChart passes the server's own validation (structural schema, CEL,
 * strict field validation) in a server-side dry run, and the operator's ServiceAccount, through
 * impersonation, may do what the site's releases need, and is refused what they do not.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { ResourceKinds } from '../src/cdk8s';
import { HELM_TOOLKIT_DEPENDENCY_RULE } from '../src/cdk8s/operator/rbac';
import { MANAGE } from '../src/cdk8s/operator/verbs';
import { createNamespace, endpoint, kubeOk, kubeRequest, runTool, stack } from './stack';
import { poll } from './workloads';

const ep = () => endpoint();
type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: any };

let out: string;
const read = (file: string): Obj[] => (yaml.loadAll(fs.readFileSync(path.join(out, file), 'utf8')) as Obj[]).filter(Boolean);

beforeAll(async () => {
  // The example's own entry point, synthesized where cdk8s is told to write (CDK8S_OUTDIR).
  out = path.join(stack().dir, 'work', 'synth');
  fs.mkdirSync(out, { recursive: true });
  process.env.CDK8S_OUTDIR = out;
  await jest.isolateModulesAsync(async () => {
    await import('../examples/cdk8s/main');
  });
});

describe('operator bundle of the example site', () => {
  test('the synthesized files are the ones the example documents', () => {
    expect(fs.readdirSync(out).sort()).toEqual(
      expect.arrayContaining(['operator-crds.k8s.yaml', 'operator-release-namespaces.k8s.yaml', 'operator.k8s.yaml', 'site.k8s.yaml']),
    );
  });

  test('the generated CRDs install, with structural schemas, and are established', async () => {
    const crds = read('operator-crds.k8s.yaml');
    expect(crds.length).toBeGreaterThan(0);
    await runTool('kubectl', ['apply', '--server-side', '-f', path.join(out, 'operator-crds.k8s.yaml')]);
    for (const crd of crds) {
      const got = await poll(
        `CRD ${crd.metadata.name} to be established`,
        () => kubeOk(ep(), 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`),
        (c) => (c.status?.conditions ?? []).some((x: any) => x.type === 'Established' && x.status === 'True'),
      );
      const conditions = Object.fromEntries((got.status.conditions as any[]).map((c) => [c.type, c.status]));
      expect(conditions).toMatchObject({ Established: 'True', NamesAccepted: 'True' });
      expect(conditions.NonStructuralSchema).toBeUndefined();
    }
  });

  test('the release namespaces and the operator apply', async () => {
    await runTool('kubectl', ['apply', '--server-side', '-f', path.join(out, 'operator-release-namespaces.k8s.yaml')]);
    await runTool('kubectl', ['apply', '--server-side', '-f', path.join(out, 'operator.k8s.yaml')]);
    const sa = read('operator.k8s.yaml').find((o) => o.kind === 'ServiceAccount')!;
    const got = await kubeOk(ep(), 'GET', `/api/v1/namespaces/${sa.metadata.namespace}/serviceaccounts/${sa.metadata.name}`);
    expect(got.metadata.name).toBe(sa.metadata.name);
  });

  test('every ArmadaChart of the site passes a server-side dry run with strict field validation', async () => {
    const crs = read('site.k8s.yaml');
    const crds = read('operator-crds.k8s.yaml');
    expect(crs.length).toBeGreaterThan(0);
    const refused: string[] = [];
    for (const cr of crs) {
      const [group, version] = cr.apiVersion.split('/');
      const crd = crds.find((c) => c.spec.group === group && c.spec.names.kind === cr.kind);
      if (!crd) {
        refused.push(`${cr.kind} ${cr.metadata.name}: no CRD of the bundle defines it`);
        continue;
      }
      const res = await kubeRequest(ep(), 'POST', `/apis/${group}/${version}/namespaces/${cr.metadata.namespace}/${crd.spec.names.plural}?dryRun=All&fieldValidation=Strict`, {
        body: cr,
      });
      if (res.status !== 201) refused.push(`${cr.kind} ${cr.metadata.namespace}/${cr.metadata.name}: ${res.status} ${res.body?.message ?? res.body}`);
    }
    expect(refused).toEqual([]);
  });

  describe("the operator's ServiceAccount, impersonated", () => {
    let account: { namespace: string; name: string };
    let releaseNamespaces: string[];
    const as = () => ({
      impersonate: `system:serviceaccount:${account.namespace}:${account.name}`,
      impersonateGroups: ['system:serviceaccounts', `system:serviceaccounts:${account.namespace}`, 'system:authenticated'],
    });

    beforeAll(async () => {
      const sa = read('operator.k8s.yaml').find((o) => o.kind === 'ServiceAccount')!;
      account = { namespace: sa.metadata.namespace!, name: sa.metadata.name };
      releaseNamespaces = [...new Set(read('site.k8s.yaml').map((cr) => cr.data?.namespace ?? cr.spec?.namespace))].sort();
    });

    test('may manage every kind of a Helm release in each release namespace (the real RBAC authorizer)', async () => {
      expect(releaseNamespaces).toEqual(['kube-system', 'openstack']);
      const denied: string[] = [];
      for (const namespace of releaseNamespaces) {
        for (const kind of ResourceKinds.HELM_RELEASE.filter((k) => !k.clusterScoped)) {
          for (const verb of MANAGE) {
            const review = await kubeOk(ep(), 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
              body: {
                apiVersion: 'authorization.k8s.io/v1',
                kind: 'SubjectAccessReview',
                spec: {
                  user: as().impersonate,
                  groups: as().impersonateGroups,
                  resourceAttributes: { namespace, verb, group: kind.apiGroup, resource: kind.resource },
                },
              },
            });
            if (!review.status.allowed) denied.push(`${verb} ${kind.apiGroup || 'core'}/${kind.resource} in ${namespace}`);
          }
        }
      }
      expect(denied).toEqual([]);
    });

    test("may create helm-toolkit's dependency-check Role and its binding where the charts have the default kinds (the escalation check)", async () => {
      // examples/cdk8s/main.ts lists the ingress charts' kinds by hand, which replaces the default
      // kinds and helm-toolkit's rules for them (ArmadaOperatorProps.resourceKinds); every other
      // chart gets both, and those are the namespaces the operator must hold the rules in.
      const handListed = new Set(['ingress-kube-system', 'ingress-openstack']);
      const namespaces = [...new Set(read('site.k8s.yaml').filter((cr) => !handListed.has(cr.data?.chart_name)).map((cr) => cr.data?.namespace))].sort();
      expect(namespaces).toEqual(['openstack']);
      const refused: string[] = [];
      for (const namespace of namespaces) {
        const role = {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'e2e-dependency-check', namespace },
          rules: [{ ...HELM_TOOLKIT_DEPENDENCY_RULE }],
        };
        const r = await kubeRequest(ep(), 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles?dryRun=All`, { body: role, ...as() });
        if (r.status !== 201) refused.push(`Role in ${namespace}: ${r.status} ${r.body?.message}`);
        // The binding's escalation check needs the Role to exist: create it as the admin, bind it as the operator.
        await kubeOk(ep(), 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`, { body: role });
        const binding = {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'e2e-dependency-check', namespace },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'e2e-dependency-check' },
          subjects: [{ kind: 'ServiceAccount', name: 'default', namespace }],
        };
        const b = await kubeRequest(ep(), 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings?dryRun=All`, { body: binding, ...as() });
        if (b.status !== 201) refused.push(`RoleBinding in ${namespace}: ${b.status} ${b.body?.message}`);
      }
      expect(refused).toEqual([]);
    });

    test("is refused helm-toolkit's dependency-check Role where a chart's kinds are listed by hand (kube-system: the ingress chart)", async () => {
      // What ArmadaOperatorProps.resourceKinds documents: a hand list replaces helm-toolkit's rules.
      // An OpenStack-Helm chart given one must list its Roles' rules too (fromRenderedChart does).
      const role = {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'e2e-dependency-check', namespace: 'kube-system' },
        rules: [{ ...HELM_TOOLKIT_DEPENDENCY_RULE }],
      };
      const r = await kubeRequest(ep(), 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/roles?dryRun=All', { body: role, ...as() });
      expect(r.status).toBe(403);
      expect(r.body.message).toMatch(/attempting to grant RBAC permissions not currently held/);
    });

    test('is refused a Role granting more than it holds, a ClusterRole, and anything in a namespace no release uses', async () => {
      const outside = await createNamespace('outside');
      const wider = await kubeRequest(ep(), 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/openstack/roles?dryRun=All`, {
        body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'e2e-wider' }, rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }] },
        ...as(),
      });
      const clusterRole = await kubeRequest(ep(), 'POST', `/apis/rbac.authorization.k8s.io/v1/clusterroles?dryRun=All`, {
        body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'e2e-cluster' }, rules: [] },
        ...as(),
      });
      const configMap = await kubeRequest(ep(), 'POST', `/api/v1/namespaces/${outside}/configmaps?dryRun=All`, {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e2e' } },
        ...as(),
      });
      expect([wider.status, clusterRole.status, configMap.status]).toEqual([403, 403, 403]);
      expect(wider.body.message).toMatch(/attempting to grant RBAC permissions not currently held/);
      expect(clusterRole.body.message).toMatch(/cannot create resource "clusterroles"/);
      expect(configMap.body.message).toMatch(new RegExp(`cannot create resource "configmaps" in API group "" in the namespace "${outside}"`));
    });
  });
});
