/**
 * The CRDs of an operator API, in a chart of their own beside the first operator's. In the
 * bundle, `kubectl delete -f` of the bundle would delete the CRDs, so every custom resource,
 * whose finalizers then make the operator uninstall every release. One chart per app and API:
 * the CRDs are cluster-scoped, the same for every operator of the API, and written once.
 */
import * as cdk8s from 'cdk8s';
import { IConstruct } from 'constructs';
import type { OperatorApi } from '../operator-api';
import { RenderedObject } from '../rendered-object';
import { operatorCrds } from './crds';

/** A CRD chart and its objects, in file order. */
export interface OperatorCrdChart {
  readonly chart: cdk8s.Chart;
  readonly crds: readonly cdk8s.ApiObject[];
}

// Keyed by app: two apps in one process (tests, a monorepo's synth) each write their own file.
const byApp = new WeakMap<IConstruct, Map<OperatorApi, OperatorCrdChart>>();

/**
 * The app's CRD chart for `api`, created beside `operatorChart` (`<chart>-crds`, which sorts
 * before `<chart>-release-namespaces` and `<chart>`, as `kubectl apply -f` of a directory
 * applies them) by the first operator of the API.
 */
export function operatorCrdChart(operatorChart: cdk8s.Chart, api: OperatorApi, where: string): OperatorCrdChart {
  const app = operatorChart.node.root;
  let charts = byApp.get(app);
  if (!charts) byApp.set(app, (charts = new Map()));
  const existing = charts.get(api);
  if (existing) return existing;
  const chart = new cdk8s.Chart(freeSiblingScope(operatorChart, 'crds', where), `${operatorChart.node.id}-crds`);
  const crds = operatorCrds(api).map((crd) =>
    new RenderedObject(chart, `crd-${crd.metadata.name.split('.')[0]}`, { apiVersion: crd.apiVersion, kind: crd.kind, name: crd.metadata.name }, crd as unknown as Record<string, unknown>),
  );
  const created = { chart, crds };
  charts.set(api, created);
  return created;
}

/**
 * Where the operator's sibling chart `<chart>-<suffix>` goes (beside the operator's chart), once
 * it is known that the user has no construct of that id there: constructs' own error ("There is
 * already a Construct with name ...") would not say that the operator needs the name, or why.
 */
export function freeSiblingScope(operatorChart: cdk8s.Chart, suffix: string, where: string): IConstruct {
  const scope = operatorChart.node.scope ?? operatorChart.node.root;
  const id = `${operatorChart.node.id}-${suffix}`;
  const taken = scope.node.tryFindChild(id);
  if (taken !== undefined) {
    throw new Error(
      `${where}: the construct ${taken.node.path} has the id ${JSON.stringify(id)}, which the operator needs for its chart of ${suffix === 'crds' ? 'CRDs' : 'release namespaces'} (written to ${id}.k8s.yaml beside the chart ${operatorChart.node.path}); rename that construct, or create the ArmadaOperator in a chart of another name`,
    );
  }
  return scope;
}
