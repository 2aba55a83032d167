import { Construct, IConstruct } from 'constructs';
import { brand, isBranded } from '../model/brand';
import { DiagnosticCodes } from '../model/codes';
import { ConstructOrigin, Diagnostics, show } from '../model/diagnostics';
import { ChartGroupSpec, SchemaVersion } from '../model/spec';
import { Chart } from './chart';
import { kindSymbol, nearest, touch } from './tree';

/** Props of a {@link ChartGroup}: the fields of an `armada/ChartGroup` document, in camelCase. */
export interface ChartGroupProps {
  /**
   * The document's `metadata.name`, by which the manifest refers to it.
   * @default - the construct id
   */
  readonly name?: string | undefined;
  /**
   * Free text, logged by Armada.
   * @default - none
   */
  readonly description?: string | undefined;
  /**
   * Deploy the charts one after another, in order, each waited for before the next; otherwise
   * all at once. Armada's `--wait` forces every group to be sequenced.
   * @default false
   */
  readonly sequenced?: boolean | undefined;
  /**
   * Deprecated (v1): default `test.enabled` for the group's charts.
   * @default - not written
   */
  readonly testCharts?: boolean | undefined;
  /**
   * The schema version of this group's own `armada/ChartGroup` document, when it differs from the
   * manifest's (a v2 manifest may list v1 groups, whose `testCharts` is then allowed).
   * @default - the manifest's schemaVersion
   */
  readonly schemaVersion?: SchemaVersion | undefined;
  /**
   * The document's `data.name` (unused by Armada; kept for round trips).
   * @default - not written
   */
  readonly displayName?: string | undefined;
  /**
   * Charts defined elsewhere to deploy in this group, before the ones created inside it.
   * @default - only the charts created inside the group, in creation order
   */
  readonly charts?: readonly Chart<any>[] | undefined;
}

/**
 * A group of charts (`armada/ChartGroup`). Groups deploy one at a time in the manifest's order;
 * within a group the charts deploy in parallel, or one by one when `sequenced`.
 */
export class ChartGroup extends Construct {
  /** True when `x` is a ChartGroup (also across copies of this library). */
  public static isChartGroup(x: unknown): x is ChartGroup {
    return isBranded(x, kindSymbol('group'));
  }

  public readonly name: string;
  private readonly props: ChartGroupProps;
  private readonly members: Chart<any>[] = [];

  constructor(scope: Construct, id: string, props: ChartGroupProps = {}) {
    super(scope, id);
    brand(this, kindSymbol('group'));
    this.props = { ...props };
    this.name = props.name ?? id;
    // Anything but a list of Chart constructs is reported at validation (see _toSpec).
    if (Array.isArray(props.charts)) this.addChart(...props.charts.filter((c) => Chart.isChart(c)));
    nearest(this, 'manifest')?._adopt(this);
    touch(this);
  }

  /** Whether the charts deploy one by one. */
  public get sequenced(): boolean {
    return this.props.sequenced === true;
  }

  /** The charts in deployment order. */
  public get charts(): readonly Chart<any>[] {
    return [...this.members];
  }

  /**
   * Places charts (defined anywhere in the manifest) last in the group's deployment order. A chart
   * already in the group (created inside it, or added before) moves there: the group deploys each
   * chart once, however often it is added.
   */
  public addChart(...charts: Chart<any>[]): void {
    for (const c of charts) {
      if (!Chart.isChart(c)) throw new Error(`ChartGroup ${this.node.path}: addChart expects Chart constructs; received ${typeof c}`);
      const at = this.members.indexOf(c);
      if (at >= 0) this.members.splice(at, 1);
      this.members.push(c);
    }
    touch(this);
  }

  /** @internal Called by a Chart created inside this group. */
  public _adopt(child: IConstruct): void {
    if (Chart.isChart(child)) {
      this.members.push(child);
      touch(this);
    }
  }

  /** @internal `d` collects the `charts` prop's items that are no Chart constructs (left out). */
  public _toSpec(inManifest: (c: IConstruct) => boolean, foreign: Map<string, string>, d: Diagnostics): ChartGroupSpec {
    const origin = new ConstructOrigin(this.node.path);
    constructListProblems(this.props.charts, 'charts', 'Chart', Chart.isChart, (field, message) => d.error(origin, field, DiagnosticCodes.PROP_TYPE, message));
    return {
      name: this.name,
      ...(this.props.schemaVersion !== undefined ? { schemaVersion: this.props.schemaVersion } : {}),
      description: this.props.description,
      sequenced: this.props.sequenced,
      testCharts: this.props.testCharts,
      displayName: this.props.displayName,
      charts: this.members.map((c) => {
        if (!inManifest(c)) foreign.set(c.name, `chart ${JSON.stringify(c.name)} is defined at ${c.node.path}, outside this manifest`);
        return c.name;
      }),
      origin,
    };
  }
}

/**
 * @internal Reports a list prop of constructs (`charts`, `chartGroups`) that is no list, or
 * its items that are not of `kind`.
 */
export function constructListProblems(list: unknown, field: string, kind: string, is: (x: unknown) => boolean, report: (field: (string | number)[], message: string) => void): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    report([field], `received ${show(list)}; ${field} must be a list of ${kind} constructs`);
    return;
  }
  list.forEach((x, i) => {
    if (!is(x)) report([field, i], `received ${show(x)}; ${field}[${i}] must be a ${kind} construct`);
  });
}
