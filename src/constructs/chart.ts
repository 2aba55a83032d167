import { Construct, IConstruct } from 'constructs';
import { DiagnosticCodes } from '../model/codes';
import { ConstructOrigin, Diagnostics, show } from '../model/diagnostics';
import { ChartSource } from '../model/source';
import { ChartOptions, ChartSpec } from '../model/spec';
import { cloneJson, mergeValues, Values } from '../model/values';
import { brand, isBranded } from '../model/brand';
import { nearest, touch } from './tree';

const CHART = Symbol.for('armada-cdk.Chart');

/** Every key optional, at every depth: the shape of a values override. `null` removes a key. */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { -readonly [K in keyof T]?: DeepPartial<T[K]> | null } : T;

/** Props of a {@link Chart}: the fields of an `armada/Chart` document, in camelCase. */
export interface ChartProps<V extends object = Values> extends ChartOptions {
  /** Namespace of the Helm release (also of its waits, pre-upgrade deletes and tests). */
  readonly namespace: string;
  /** Where the chart comes from: `ChartSource.git(...)`, `.tar(...)` or `.local(...)`. */
  readonly source: ChartSource;
  /**
   * The document's `metadata.name`, by which groups and other charts refer to it.
   * @default - the construct id
   */
  readonly name?: string | undefined;
  /**
   * Helm release name before the manifest's prefix: the release is `${releasePrefix}-${release}`.
   * @default - the chart name
   */
  readonly release?: string | undefined;
  /**
   * Helm values, typed per chart by `Chart<V>`.
   * @default - none (the chart's own values.yaml)
   */
  readonly values?: V | undefined;
  /**
   * Subcharts: other charts whose sources Armada places into this chart's `charts/`. This is not
   * ordering (see `addDependency`). `[]` removes the chart's own subcharts.
   * @default - the chart's own `charts/` directory is used as is
   */
  readonly dependencies?: readonly Chart<any>[] | undefined;
}

/**
 * One Helm chart of the site (`armada/Chart`). Create it inside a {@link ChartGroup} to deploy it
 * in that group (in creation order), or anywhere in the manifest when it only serves as a
 * subchart dependency (like helm-toolkit).
 */
export class Chart<V extends object = Values> extends Construct {
  /** True when `x` is a Chart (also across copies of this library). */
  public static isChart(x: unknown): x is Chart<any> {
    return isBranded(x, CHART);
  }

  /** The document's `metadata.name`. */
  public readonly name: string;
  /** The release before the prefix. */
  public readonly release: string;
  public readonly namespace: string;
  public readonly source: ChartSource;

  private readonly props: ChartProps<V>;
  private subcharts: Chart<any>[] | undefined;
  private valueLayers: readonly Values[] = [];
  private readonly orderAfter: Chart<any>[] = [];

  constructor(scope: Construct, id: string, props: ChartProps<V>) {
    super(scope, id);
    brand(this, CHART);
    if (props === undefined || props === null) {
      throw new Error(`Chart ${this.node.path}: props are required (at least namespace and source)`);
    }
    this.props = { ...props };
    // Anything but a list of Chart constructs is reported at validation (see _toSpec).
    this.subcharts = Array.isArray(props.dependencies) ? [...props.dependencies] : undefined;
    this.name = props.name ?? id;
    this.release = props.release ?? this.name;
    this.namespace = props.namespace;
    this.source = props.source;
    nearest(this, 'group')?._adopt(this);
  }

  /** The values as Helm receives them: the props' values with every override merged in. */
  public get values(): V | undefined {
    if (this.valueLayers.length === 0) return this.props.values;
    return mergeValues((this.props.values ?? {}) as Values, ...this.valueLayers) as V;
  }

  /**
   * Merges values over this chart's own, with Helm's semantics (maps merge, lists replace, `null`
   * removes a key), for per-site overrides of a shared definition. Later calls win.
   */
  public overrideValues(values: DeepPartial<V>): this {
    this.valueLayers = [...this.valueLayers, cloneJson(values) as Values];
    touch(this);
    return this;
  }

  /**
   * Adds subchart dependencies (see the `dependencies` prop), for charts defined after this one.
   * Once any is added, the chart's own `charts/` is replaced as with the prop.
   */
  public addSubchart(...charts: Chart<any>[]): void {
    for (const c of charts) {
      if (!Chart.isChart(c)) throw new Error(`Chart ${this.node.path}: addSubchart expects Chart constructs; received ${typeof c}`);
    }
    this.subcharts = [...(this.subcharts ?? []), ...charts];
    touch(this);
  }

  /** The subchart dependencies, or undefined when the chart keeps its own `charts/`. */
  public get dependencies(): readonly Chart<any>[] | undefined {
    return this.subcharts ? [...this.subcharts] : undefined;
  }

  /**
   * Makes this chart wait for the readiness of `charts` before it deploys. Armada orders only by
   * groups; this adds explicit edges (validated: acyclic, both deployed by the manifest, and
   * never against the group order). Not to be confused with `dependencies` (subcharts).
   */
  public addDependency(...charts: Chart<any>[]): void {
    for (const c of charts) {
      if (!Chart.isChart(c)) throw new Error(`Chart ${this.node.path}: addDependency expects Chart constructs; received ${typeof c}`);
      if (!this.orderAfter.includes(c)) this.orderAfter.push(c);
    }
    touch(this);
  }

  /** The charts this one waits for through `addDependency`. */
  public get orderedAfter(): readonly Chart<any>[] {
    return [...this.orderAfter];
  }

  /**
   * @internal Resolved spec; `foreign` collects charts referenced from outside the manifest, `d`
   * the subchart dependencies that are no Chart constructs (left out of the spec).
   */
  public _toSpec(inManifest: (c: IConstruct) => boolean, foreign: Map<string, string>, d: Diagnostics): ChartSpec {
    const p = this.props;
    const origin = new ConstructOrigin(this.node.path);
    if (p.dependencies !== undefined && !Array.isArray(p.dependencies)) {
      d.error(origin, ['dependencies'], DiagnosticCodes.PROP_TYPE, `received ${show(p.dependencies)}; dependencies must be a list of Chart constructs`);
    }
    const subcharts = this.subcharts?.filter((c, i) => {
      if (Chart.isChart(c)) return true;
      d.error(origin, ['dependencies', i], DiagnosticCodes.PROP_TYPE, `received ${show(c)}; dependencies[${i}] must be a Chart construct`);
      return false;
    });
    const ref = (c: Chart<any>) => {
      if (!inManifest(c)) foreign.set(c.name, `chart ${JSON.stringify(c.name)} is defined at ${c.node.path}, outside this manifest`);
      return c.name;
    };
    return {
      name: this.name,
      ...(p.schemaVersion !== undefined ? { schemaVersion: p.schemaVersion } : {}),
      chartName: p.chartName,
      release: this.release,
      namespace: this.namespace,
      source: this.source,
      values: this.values as Readonly<Record<string, unknown>> | undefined,
      dependencies: subcharts?.map(ref),
      protected: p.protected,
      test: p.test,
      wait: p.wait,
      upgrade: p.upgrade,
      delete: p.delete,
      install: p.install,
      timeout: p.timeout,
      dependsOn: this.orderAfter.map(ref),
      origin,
    };
  }
}
