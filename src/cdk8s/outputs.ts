import * as cdk8s from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { ArmadaManifest } from '../constructs/armada-manifest';
import { DiagnosticCodes } from '../model/codes';
import { Diagnostic, errorsOf, formatDiagnostic } from '../model/diagnostics';
import { SchemaVersion } from '../model/spec';
import { toAirshipCharts } from '../model/wire/airship-v1';
import { toArmadaDocuments } from '../model/wire/documents';
import { armadaRetypedValues } from '../model/armada-retyped';
import { KeleustesReleaseNaming, toKeleustesObjects } from '../model/wire/keleustes-v1alpha1';
import { firstByName } from '../model/first-by-name';
import { OperatorApi } from './operator-api';
import { yamlHazards } from './yaml-hazards';
import { watchClashes } from './app-clashes';
import { RenderedIdentity, RenderedObject } from './rendered-object';
import { reportWarnings, WarningHandler } from './warning-handler';

export { OperatorApi } from './operator-api';

export type { WarningHandler } from './warning-handler';

/** Options shared by the outputs. */
export interface OutputProps {
  /** The manifest to render; it may live in another construct tree (a shared site module). */
  readonly manifest: ArmadaManifest;
  /**
   * Where the warnings nobody acknowledged go (see `Warnings.of(scope).acknowledge`), one call each.
   * @default - printed to stderr, each kind of warning found more than three times as one line
   */
  readonly onWarning?: WarningHandler | undefined;
}

/** Props of {@link ArmadaChartOutput}. */
export interface ArmadaChartOutputProps extends OutputProps {
  /**
   * The operator API to synthesize for.
   * @default OperatorApi.AIRSHIP_V1
   */
  readonly api?: OperatorApi | undefined;
  /**
   * AIRSHIP_V1 only: add `argocd.argoproj.io/sync-wave` annotations from the plan step, so that
   * Argo CD applies the charts in Armada's order. `true` with KELEUSTES_V1ALPHA1 throws.
   * @default false
   */
  readonly syncWaves?: boolean | undefined;
  /**
   * KELEUSTES_V1ALPHA1 only: how `spec.release` (that operator's Helm release name) is written.
   * `AS_WRITTEN` with AIRSHIP_V1 throws (that operator's release names are always prefixed).
   * @default KeleustesReleaseNaming.PREFIXED
   */
  readonly releaseNaming?: KeleustesReleaseNaming | undefined;
}

/** Props of {@link ArmadaDocuments}. */
export interface ArmadaDocumentsProps extends OutputProps {
  /**
   * The Armada document schema version to write, for every document.
   * @default - each document's own: the manifest's schemaVersion, or a chart's or group's own `schemaVersion`
   */
  readonly version?: SchemaVersion | undefined;
}

const reported = new WeakSet<object>();

/** One object an output writes: who it is, and its whole body as written to the file. */
export interface RenderedManifestObject {
  /** What makes it the same object to Kubernetes (or the same Armada document). */
  readonly identity: RenderedIdentity;
  /** The object as written, `apiVersion`, `kind` and `metadata` included. */
  readonly body: Record<string, unknown>;
}

/** What {@link ManifestOutput.render} returns. */
export interface Rendered {
  /** The objects to write into the enclosing cdk8s Chart's file, in this order. */
  readonly objects: readonly RenderedManifestObject[];
  /** What the target cannot express (warnings) or refuses (errors, which fail the synth). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The base of every output: renders a manifest into the enclosing cdk8s Chart, once, at cdk8s
 * validation (which runs before any file is written), so that the objects reflect the finished
 * tree and a failed synth writes nothing.
 *
 * It is the extension point for a target of your own: implement {@link ManifestOutput.render}
 * from `this.manifest.resolve()` (the spec and the deployment plan). The base reports the
 * manifest's errors and warnings, the errors and warnings `render` returns (left out when
 * acknowledged), and objects that another construct writes into the same file too.
 */
export abstract class ManifestOutput extends Construct {
  /** The manifest this output renders. */
  public readonly manifest: ArmadaManifest;
  /** @internal */
  public readonly _reportsSameFile = true;
  private rendered = false;
  /** Kept: a second synth of the app must fail as the first did. */
  private clashErrors: string[] = [];
  private readonly onWarning: WarningHandler | undefined;

  constructor(scope: Construct, id: string, props: OutputProps) {
    super(scope, id);
    if (!props || !ArmadaManifest.isArmadaManifest(props.manifest)) {
      throw new Error(`${this.node.path}: props.manifest must be an ArmadaManifest`);
    }
    if (!cdk8s.Chart.isChart(findChart(this))) {
      throw new Error(`${this.node.path}: an Armada output must be created inside a cdk8s Chart (its objects are written to that chart's file)`);
    }
    this.manifest = props.manifest;
    this.onWarning = props.onWarning;
    this.manifest._claim(this);
    this.node.addValidation({ validate: () => this.renderOnce() });
    watchClashes(this);
  }

  /** @internal */
  public _renderNow(): void {
    this.renderOnce();
  }

  /**
   * @internal Renders now (once, as synth does) and returns every error that stops it: the
   * manifest's own and the output's, one line each.
   */
  protected _renderErrors(): string[] {
    const modelErrors = errorsOf(this.manifest.resolve().diagnostics);
    if (modelErrors.length > 0) return modelErrors.map(line);
    return this.renderOnce();
  }

  /** @internal */
  public _describe(): string {
    return `the ${this._kindName()} ${this.node.path}`;
  }

  /** @internal What errors call this output. */
  protected _kindName(): string {
    return 'output';
  }

  /**
   * The objects of the manifest in this target's form, and what the target cannot express.
   * Called once, at synth, and only when the manifest has no errors.
   */
  protected abstract render(): Rendered;

  private renderOnce(): string[] {
    if (this.rendered) return this.clashErrors;
    const resolved = this.manifest.resolve();
    // The manifest reports its own errors when cdk8s validates its tree; when it lives in another
    // tree (a shared site module), this output is the only one that can.
    const sameTree = this.node.root === this.manifest.node.root;
    const modelErrors = errorsOf(resolved.diagnostics);
    if (modelErrors.length > 0) return sameTree ? [] : modelErrors.map(line);
    const out = this.render();
    const errors = errorsOf(out.diagnostics);
    if (errors.length > 0) return errors.map(line);
    this.rendered = true;
    // Several outputs may render one manifest: its own warnings are reported once.
    const modelWarnings = reported.has(resolved) ? [] : resolved.diagnostics;
    reported.add(resolved);
    const groups = this.manifest.chartGroups;
    reportWarnings(this, [this.manifest, ...groups, ...groups.flatMap((g) => g.charts)], [...modelWarnings, ...out.diagnostics], this.onWarning);
    const ids = new Set<string>();
    const created = new Map<string, RenderedObject>();
    for (const { identity, body } of out.objects) {
      const base = [identity.kind, identity.namespace, identity.name].filter(Boolean).join('-');
      let id = base;
      for (let i = 2; ids.has(id); i++) id = `${base}-${i}`;
      ids.add(id);
      const o = new RenderedObject(this, id, identity, body);
      created.set(objectKey(o), o);
    }
    this.clashErrors = this.clashes(created);
    return this.clashErrors;
  }

  /**
   * Objects of this output that another construct also writes into the same file (two outputs of
   * one manifest, two manifests with the same names, an object of the user's own): applied, the
   * last would silently replace the first.
   */
  private clashes(created: ReadonlyMap<string, RenderedObject>): string[] {
    const chart = findChart(this)!;
    const errors: string[] = [];
    for (const other of chart.node.findAll()) {
      if (!cdk8s.ApiObject.isApiObject(other) || other.node.scope === this) continue;
      const clash = created.get(objectKey(other));
      if (clash === undefined) continue;
      const what = `${clash.kind} ${clash.metadata.namespace === undefined ? '' : `${clash.metadata.namespace}/`}${clash.name}`;
      errors.push(`${this.node.path}: ${what} is written into ${chart.node.path}'s file by ${other.node.path} as well; applied, one would replace the other: render each manifest into its own cdk8s.Chart, or once`);
    }
    return errors;
  }
}

// cdk8s prefixes each validation message with the error label itself.
const line = (d: Diagnostic): string => formatDiagnostic(d, 'bare');

/** What makes two objects the same object to Kubernetes (or two Armada documents the same document). */
function objectKey(o: cdk8s.ApiObject): string {
  return `${o.apiVersion}\u0000${o.kind}\u0000${o.metadata.namespace ?? ''}\u0000${o.name}`;
}

function findChart(c: IConstruct): IConstruct | undefined {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) if (cdk8s.Chart.isChart(s)) return s;
  return undefined;
}

/**
 * Renders a manifest as operator custom resources into the enclosing cdk8s Chart: ArmadaChart
 * objects for the airship operator (default), or the keleustes ArmadaChart/ArmadaChartGroup/
 * ArmadaManifest set.
 */
export class ArmadaChartOutput extends ManifestOutput {
  public readonly api: OperatorApi;
  private readonly props: ArmadaChartOutputProps;

  constructor(scope: Construct, id: string, props: ArmadaChartOutputProps) {
    super(scope, id, props);
    this.props = props;
    this.api = props.api ?? OperatorApi.AIRSHIP_V1;
    // An option of the other operator would be left out of the objects without a word (what
    // either operator does anyway, sync waves off and prefixed names, is no mistake).
    const keleustes = this.api === OperatorApi.KELEUSTES_V1ALPHA1;
    if (keleustes && props.syncWaves === true) {
      throw new Error(`${this.node.path}: syncWaves: received ${JSON.stringify(props.syncWaves)} with api ${this.api}; it applies to OperatorApi.AIRSHIP_V1 only (the keleustes operator orders the charts itself)`);
    }
    if (!keleustes && props.releaseNaming !== undefined && props.releaseNaming !== KeleustesReleaseNaming.PREFIXED) {
      throw new Error(`${this.node.path}: releaseNaming: received ${JSON.stringify(props.releaseNaming)} with api ${this.api}; it applies to OperatorApi.KELEUSTES_V1ALPHA1 only (the airship operator names each release as Armada does)`);
    }
  }

  /** @internal */
  protected override _kindName(): string {
    return `ArmadaChartOutput (api ${this.api})`;
  }

  protected render(): Rendered {
    const { spec, plan } = this.manifest.resolve();
    const r = this.api === OperatorApi.KELEUSTES_V1ALPHA1
      ? toKeleustesObjects(spec, plan, { releaseNaming: this.props.releaseNaming })
      : toAirshipCharts(spec, plan, { syncWaves: this.props.syncWaves });
    const diagnostics = [...r.diagnostics.all];
    const charts = firstByName(spec.charts);
    // An airship ArmadaChart is named after its release, a keleustes one after its chart.
    const byRelease = new Map(plan.releases.map((x) => [x.name, charts.get(x.chart)]));
    const target = this.api === OperatorApi.KELEUSTES_V1ALPHA1 ? 'keleustes-v1alpha1' : 'airship-v1';
    for (const o of r.objects) {
      // Values are the free-form part of these objects; names and labels are validated.
      if (o.kind !== 'ArmadaChart') continue;
      const body = (o.spec ?? o.data) as { values?: unknown };
      const chart = this.api === OperatorApi.KELEUSTES_V1ALPHA1 ? charts.get(o.metadata.name) : byRelease.get(o.metadata.name);
      for (const h of yamlHazards(body.values, 'values', 'go-yaml', `armada-cdk convert --to ${target}`)) {
        diagnostics.push({ severity: 'error', ...(chart?.origin ?? spec.origin).locate(), field: h.field, code: DiagnosticCodes.YAML_1_1, message: h.message });
      }
    }
    return {
      objects: r.objects.map((o) => ({
        identity: { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace },
        body: o as Record<string, unknown>,
      })),
      diagnostics,
    };
  }
}

/** Renders a manifest as classic Armada documents (`schema`/`metadata`/`data`) for `armada apply`. */
export class ArmadaDocuments extends ManifestOutput {
  private readonly version?: SchemaVersion | undefined;

  constructor(scope: Construct, id: string, props: ArmadaDocumentsProps) {
    super(scope, id, props);
    this.version = props.version;
  }

  /** @internal */
  protected override _kindName(): string {
    return 'ArmadaDocuments';
  }

  protected render(): Rendered {
    const { spec, plan } = this.manifest.resolve();
    const r = toArmadaDocuments(spec, { version: this.version });
    // Armada dumps the values anew for Helm, which then reads some strings as booleans or
    // numbers: only this target hands them to Armada (a site read from Armada YAML was warned
    // when read, by the CLI).
    const diagnostics = [...r.diagnostics.all, ...armadaRetypedValues(spec, 'deployed-by-armada', plan).all];
    const charts = firstByName(spec.charts);
    const groups = firstByName(spec.groups);
    for (const doc of r.documents) {
      const kind = doc.schema.split('/')[1];
      const origin = (kind === 'Chart' ? charts.get(doc.metadata.name)?.origin : kind === 'ChartGroup' ? groups.get(doc.metadata.name)?.origin : undefined) ?? spec.origin;
      for (const h of yamlHazards(doc.data, 'data', 'pyyaml', 'armada-cdk convert')) {
        diagnostics.push({ severity: 'error', ...origin.locate(), field: h.field, code: DiagnosticCodes.YAML_1_1, message: h.message });
      }
    }
    return {
      objects: r.documents.map((doc) => ({
        // Documents have no apiVersion/kind; cdk8s still needs an identity for each object.
        identity: { apiVersion: `armada/${doc.schema.split('/')[2]}`, kind: doc.schema.split('/')[1], name: doc.metadata.name },
        body: doc as unknown as Record<string, unknown>,
      })),
      diagnostics,
    };
  }
}
