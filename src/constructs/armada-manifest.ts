import { Construct, IConstruct } from 'constructs';
import { brand, isBranded } from '../model/brand';
import { ArmadaValidationError, ConstructOrigin, Diagnostic, Diagnostics, errorsOf, formatDiagnostic, hasErrors } from '../model/diagnostics';
import { buildPlan, Plan } from '../model/plan';
import { ManifestSpec, SchemaVersion } from '../model/spec';
import type { ValidateOptions } from '../model/validate';
import { Chart } from './chart';
import { ChartGroup, constructListProblems } from './chart-group';
import { DiagnosticCodes } from '../model/codes';
import { definitionVersion, kindSymbol, touch } from './tree';
import { validateSite } from './validate-site';

/** Props of an {@link ArmadaManifest}: the fields of an `armada/Manifest` document, in camelCase. */
export interface ArmadaManifestProps {
  /** Prefix of every Helm release: a chart with release `keystone` installs `${releasePrefix}-keystone`. */
  readonly releasePrefix: string;
  /**
   * The document's `metadata.name` (what `armada apply --target-manifest` selects).
   * @default - the construct id
   */
  readonly name?: string | undefined;
  /**
   * The Armada document schema whose defaults the definition follows (native wait, default waits).
   * @default SchemaVersion.V1
   */
  readonly schemaVersion?: SchemaVersion | undefined;
  /**
   * Groups defined elsewhere to deploy, before the ones created inside the manifest.
   * @default - only the groups created inside the manifest, in creation order
   */
  readonly chartGroups?: readonly ChartGroup[] | undefined;
}

/** A resolved manifest: its spec and every diagnostic found while resolving and validating it. */
export interface ResolvedManifest {
  readonly spec: ManifestSpec;
  readonly diagnostics: readonly Diagnostic[];
  /** The deployment plan; only meaningful when `diagnostics` has no errors. */
  readonly plan: Plan;
}

/**
 * A site (`armada/Manifest`): chart groups deployed one at a time, in order. It can live in any
 * construct tree: inside a `cdk8s.Chart` (it then synthesizes with `cdk8s synth`), or on its own
 * (`new ArmadaManifest(undefined, 'site', ...)`) to be shared by a cdk8s app and a Pulumi program.
 */
export class ArmadaManifest extends Construct {
  /** True when `x` is an ArmadaManifest (also across copies of this library). */
  public static isArmadaManifest(x: unknown): x is ArmadaManifest {
    return isBranded(x, kindSymbol('manifest'));
  }

  /** The closest ArmadaManifest that contains `c` (or is `c`). Throws when there is none. */
  public static of(c: IConstruct): ArmadaManifest {
    for (let s: IConstruct | undefined = c; s; s = s.node.scope) if (ArmadaManifest.isArmadaManifest(s)) return s;
    throw new Error(`${c.node.path || '<root>'} is not inside an ArmadaManifest`);
  }

  public readonly name: string;
  public readonly releasePrefix: string;
  public readonly schemaVersion: SchemaVersion;
  private readonly groupOrder: ChartGroup[] = [];
  private readonly outputs: IConstruct[] = [];
  private readonly chartGroupsProp: unknown;
  private cache?: { version: number; opaque: ValidateOptions['opaqueValues']; result: ResolvedManifest } | undefined;

  constructor(scope: Construct | undefined, id: string, props: ArmadaManifestProps) {
    // A manifest without a scope is the root of its own tree (shared by cdk8s and Pulumi code).
    super(scope as Construct, id);
    brand(this, kindSymbol('manifest'));
    if (props === undefined || props === null) {
      throw new Error(`ArmadaManifest ${id}: props are required (at least releasePrefix)`);
    }
    this.name = props.name ?? id;
    this.releasePrefix = props.releasePrefix;
    this.schemaVersion = props.schemaVersion ?? SchemaVersion.V1;
    // Anything but a list of ChartGroup constructs is reported at validation (see toSpec).
    this.chartGroupsProp = props.chartGroups;
    if (Array.isArray(props.chartGroups)) this.addChartGroup(...props.chartGroups.filter((g) => ChartGroup.isChartGroup(g)));
    this.node.addValidation({ validate: () => this.validationErrors() });
    touch(this);
  }

  /** The groups in deployment order. */
  public get chartGroups(): readonly ChartGroup[] {
    return [...this.groupOrder];
  }

  /** Every chart defined in the manifest (deployed, subchart-only or unused), in tree order. */
  public get charts(): Chart<any>[] {
    return this.node.findAll().filter((c): c is Chart<any> => Chart.isChart(c));
  }

  /**
   * Per-site value overrides for a shared definition: merges `overrides[chartName]` over each
   * named chart's values with Helm's semantics (maps merge, lists replace, `null` removes a key),
   * as `chart.overrideValues` does. Throws at once for a name that is no chart of the manifest.
   */
  public overrideValues(overrides: Readonly<Record<string, Record<string, unknown>>>): this {
    const charts = new Map(this.charts.map((c) => [c.name, c]));
    const unknown = Object.keys(overrides).filter((n) => !charts.has(n));
    if (unknown.length > 0) {
      throw new Error(`ArmadaManifest ${this.node.path}: overrideValues: no chart named ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the charts are ${[...charts.keys()].join(', ')}`);
    }
    for (const [name, values] of Object.entries(overrides)) charts.get(name)!.overrideValues(values);
    return this;
  }

  /**
   * Places groups last in the deployment order. A group already in it (created inside the
   * manifest, or added before) moves there: the manifest deploys each group once, however often
   * it is added.
   */
  public addChartGroup(...groups: ChartGroup[]): void {
    for (const g of groups) {
      if (!ChartGroup.isChartGroup(g)) throw new Error(`ArmadaManifest ${this.node.path}: addChartGroup expects ChartGroup constructs; received ${typeof g}`);
      const at = this.groupOrder.indexOf(g);
      if (at >= 0) this.groupOrder.splice(at, 1);
      this.groupOrder.push(g);
    }
    touch(this);
  }

  /** @internal Called by a ChartGroup created inside this manifest. */
  public _adopt(child: IConstruct): void {
    if (ChartGroup.isChartGroup(child)) {
      this.groupOrder.push(child);
      touch(this);
    }
  }

  /** @internal An output target that renders this manifest registers itself here. */
  public _claim(output: IConstruct): void {
    if (!this.outputs.includes(output)) this.outputs.push(output);
    touch(this);
  }

  /** @internal The output targets that render this manifest. */
  public get _outputs(): readonly IConstruct[] {
    return this.outputs;
  }

  /**
   * Resolves the tree into a spec, validates it and builds the plan. Cached until the definition
   * changes, so validation at synth and rendering do the work once.
   */
  public resolve(options: ValidateOptions = {}): ResolvedManifest {
    const version = definitionVersion();
    if (this.cache && this.cache.version === version && this.cache.opaque === options.opaqueValues) return this.cache.result;
    const d = new Diagnostics();
    const spec = this.toSpec(d);
    d.addAll(validateSite(spec, options));
    const result: ResolvedManifest = { spec, diagnostics: d.all, plan: buildPlan(spec) };
    this.cache = { version, opaque: options.opaqueValues, result };
    return result;
  }

  /** The deployment plan. Throws an {@link ArmadaValidationError} listing every error when the definition is invalid. */
  public plan(): Plan {
    const r = this.resolve();
    if (hasErrors(r.diagnostics)) throw new ArmadaValidationError(r.diagnostics, `ArmadaManifest ${this.node.path}`);
    return r.plan;
  }

  private toSpec(d: Diagnostics): ManifestSpec {
    const inside = new Set<IConstruct>(this.node.findAll());
    const inManifest = (c: IConstruct) => inside.has(c);
    const foreign = new Map<string, string>();
    const all = this.node.findAll();
    const charts = all.filter((c): c is Chart<any> => Chart.isChart(c));
    const groups = all.filter((c): c is ChartGroup => ChartGroup.isChartGroup(c));
    const origin = new ConstructOrigin(this.node.path);
    constructListProblems(this.chartGroupsProp, 'chartGroups', 'ChartGroup', ChartGroup.isChartGroup, (field, message) => d.error(origin, field, DiagnosticCodes.PROP_TYPE, message));
    const chartGroups = this.groupOrder.map((g) => {
      if (!inManifest(g)) foreign.set(g.name, `chart group ${JSON.stringify(g.name)} is defined at ${g.node.path}, outside this manifest`);
      return g.name;
    });
    const spec: ManifestSpec = {
      name: this.name,
      releasePrefix: this.releasePrefix,
      schemaVersion: this.schemaVersion,
      chartGroups,
      groups: groups.map((g) => g._toSpec(inManifest, foreign, d)),
      charts: charts.map((c) => c._toSpec(inManifest, foreign, d)),
      origin,
      foreignDefinitions: Object.fromEntries(foreign),
    };
    // A construct outside the manifest that shares a name with one inside would silently resolve
    // to the inside one: say so.
    const insideNames = new Set([...charts.map((c) => c.name), ...groups.map((g) => g.name)]);
    for (const [name, where] of foreign) {
      if (insideNames.has(name)) d.error(origin, undefined, 'foreign-reference', `${where}, and another one with the same name is inside it; define it once, inside the manifest`);
    }
    // Outputs are explicit (a manifest renders as nothing until one is added), as a cdk8s-plus
    // construct is: a manifest placed in a cdk8s Chart without one is most likely a forgotten one.
    if (this.outputs.length === 0 && insideCdk8sChart(this)) {
      d.error(origin, undefined, DiagnosticCodes.NO_OUTPUT, "this manifest is inside a cdk8s Chart but nothing renders it: add an output of armada-cdk/cdk8s for it, such as new ArmadaChartOutput(chart, 'crs', { manifest: site }) for airship v1 ArmadaCharts, ArmadaDocuments or FluxOutput");
    }
    return spec;
  }

  private validationErrors(): string[] {
    return errorsOf(this.resolve().diagnostics).map((x) => formatDiagnostic(x, 'bare'));
  }
}

/** Detected by cdk8s's own brand, so that the constructs never import cdk8s. */
function insideCdk8sChart(c: IConstruct): boolean {
  const chartSymbol = Symbol.for('cdk8s.Chart');
  for (let s = c.node.scope; s; s = s.node.scope) if ((s as unknown as Record<symbol, unknown>)[chartSymbol]) return true;
  return false;
}
