/**
 * `armada-cdk import`: readable, idiomatic TypeScript for a resolved manifest, using the
 * constructs (one `Chart` per chart document, values as object literals, `ChartSource.*`,
 * `Duration.*`, `WaitResource.*`). The code builds the same tree as `specToConstructs`, so it
 * synthesizes back to documents equal in meaning to the input.
 */
import { Duration } from '../model/duration';
import { firstByName } from '../model/first-by-name';
import { SourceType } from '../model/source';
import { ChartGroupSpec, ChartSpec, ManifestSpec, SchemaVersion, TestOptions, UpgradeOptions, WaitOptions, HookAction } from '../model/spec';
import { CONTROLLER_TYPES, WaitResource } from '../model/wait';
import { isYamlTimestamp } from '../model/values';
import { withoutDefaults } from './codegen-defaults';

/** Options of {@link generateTypeScript}. */
export interface CodegenOptions {
  /**
   * Where the documents came from, for the header comment.
   * @default - no source line
   */
  readonly sources?: readonly string[] | undefined;
  /**
   * Module the constructs are imported from.
   * @default 'armada-cdk'
   */
  readonly importFrom?: string | undefined;
  /**
   * Name of the exported manifest constant; `default` makes it the module's default export.
   * Anything else must be an identifier that is not a reserved word (see {@link exportNameProblem}).
   * @default 'site'
   */
  readonly exportName?: string | undefined;
  /**
   * Secret chart values (a Pegleg site's passwords, keys and certificates): for each chart name,
   * the paths inside its values. Each is written as a `siteSecret(chart, path)` call that reads the
   * value when the program runs, never as a literal.
   * @default - none: every value is written as it is
   */
  readonly secretValues?: ReadonlyMap<string, readonly (readonly (string | number)[])[]> | undefined;
  /**
   * Also write the site's Pulumi deployment, for a Pulumi program's entry point: an exported
   * `deployment = new ManifestDeployment(<manifest name>, { manifest })` from
   * `<importFrom>/pulumi`. With `takeover: true` it takes over the releases Armada installed
   * (`ManifestDeploymentArgs.takeover`) instead of installing them.
   * @default - no deployment: the module only builds the manifest
   */
  readonly pulumi?: { readonly takeover?: boolean | undefined } | undefined;
}

/** A value written as code that reads it at run time (see CodegenOptions.secretValues). */
class SecretReference {
  constructor(public readonly code: string) {}
}

/**
 * Why `name` cannot be the exported manifest constant, or undefined when it can: it must be a
 * JavaScript identifier, not a reserved word, and not a name the generated module imports.
 */
export function exportNameProblem(name: string): string | undefined {
  if (name === 'default') return undefined;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) return 'it is not a JavaScript identifier (letters, digits, _ and $, not starting with a digit)';
  if (IMPORTED.has(name)) return `the generated module imports ${name} from armada-cdk`;
  if (RESERVED.has(name)) return 'it is a reserved word of JavaScript or TypeScript';
  return undefined;
}

const INDENT = '  ';
const MAX_LINE = 100;

export function generateTypeScript(spec: ManifestSpec, options: CodegenOptions = {}): string {
  const problem = options.exportName === undefined ? undefined : exportNameProblem(options.exportName);
  if (problem) throw new Error(`exportName ${JSON.stringify(options.exportName)} cannot name the manifest constant: ${problem}`);
  const g = new Generator(spec, options);
  return g.run();
}

class Generator {
  private readonly names = new Map<string, string>();
  private readonly taken = new Set<string>(['site', 'manifest']);
  private readonly imports = new Set<string>(['ArmadaManifest']);
  private readonly out: string[] = [];

  constructor(
    private readonly spec: ManifestSpec,
    private readonly options: CodegenOptions,
  ) {
    this.taken.add(this.siteVar());
    // Before any chart or group takes the name.
    if (options.pulumi !== undefined) this.deploymentVar = this.declare('deployment', 'chart');
  }

  /** The deployment's variable, when the Pulumi deployment is written. */
  private readonly deploymentVar: string | undefined;

  /** The manifest's variable: the export name, or `site` under a default export. */
  private siteVar(): string {
    const name = this.options.exportName ?? 'site';
    return name === 'default' ? 'site' : name;
  }

  /** Where each chart or group variable is declared in `out`, and whether later code uses it. */
  private readonly declarations = new Map<string, { line: number; used: boolean }>();

  public run(): string {
    const spec = this.spec;
    const site = this.siteVar();
    const exportDefault = this.options.exportName === 'default';
    const groups = firstByName(spec.groups);
    const charts = firstByName(spec.charts);
    const listed = new Set(spec.chartGroups.flatMap((n) => groups.get(n)?.charts ?? []));
    const manifestProps: [string, string][] = [['releasePrefix', str(spec.releasePrefix)]];
    if (spec.schemaVersion !== SchemaVersion.V1) {
      this.imports.add('SchemaVersion');
      manifestProps.push(['schemaVersion', 'SchemaVersion.V2']);
    }
    this.out.push(`${exportDefault ? '' : 'export '}const ${site} = new ArmadaManifest(undefined, ${str(spec.name)}, ${obj(manifestProps, 0)});`);

    const created = new Set<string>();
    const unlisted = spec.charts.filter((c) => !listed.has(c.name) && charts.get(c.name) === c);
    if (unlisted.length > 0) {
      this.out.push('', '// Charts in no group: subcharts of the deployed charts (or unused), never deployed on their own.');
      for (const c of unlisted) this.chart(c, site, created);
    }
    const done = new Set<string>();
    for (const gName of spec.chartGroups) {
      const group = groups.get(gName);
      if (!group || done.has(gName)) continue;
      done.add(gName);
      const gVar = this.group(group, site);
      for (const cName of group.charts) {
        const c = charts.get(cName);
        if (!c) continue;
        if (created.has(cName)) this.out.push(`${this.use(gVar)}.addChart(${this.varOf(cName)});`);
        else this.chart(c, gVar, created);
      }
    }
    const late = spec.charts.filter((c) => charts.get(c.name) === c && this.lateDependencies(c).length > 0);
    if (late.length > 0) {
      this.out.push('', '// Subcharts defined after the charts that use them.');
      for (const c of late) this.out.push(`${this.varOf(c.name)}.addSubchart(${this.lateDependencies(c).map((d) => this.varOf(d)).join(', ')});`);
    }

    if (this.deploymentVar !== undefined) {
      const takeover = this.options.pulumi?.takeover === true;
      const props: [string, string][] = [['manifest', site], ...(takeover ? [['takeover', 'true'] as [string, string]] : [])];
      this.out.push(
        '',
        takeover
          ? '// Its first `pulumi up` takes over the releases Armada installed, then upgrades each in place; remove takeover once it succeeded.'
          : '// `pulumi up` installs every release; see ManifestDeploymentArgs.takeover for a site Armada already deployed.',
        `export const ${this.deploymentVar} = new ManifestDeployment(${str(spec.name)}, ${obj(props, 0)});`,
      );
    }
    if (exportDefault) this.out.push('', `export default ${site};`);
    // A construct is kept by its scope: a variable nothing refers to is left out (noUnusedLocals).
    for (const [v, d] of this.declarations) if (!d.used) this.out[d.line] = this.out[d.line].replace(`const ${v} = new `, 'new ');

    const header = [
      '// Generated by `armada-cdk import`' + (this.options.sources?.length ? ` from ${this.options.sources.map(commentText).join(', ')}` : '') + '.',
      '// Render it with an output of armada-cdk/cdk8s, or deploy it with armada-cdk/pulumi.',
      ...(this.imports.has('siteSecret') ? ['// Secret values are not written here: siteSecret() reads each from the rendered site named by ARMADA_CDK_SITE when the program runs.'] : []),
      `import { ${[...this.imports].sort().join(', ')} } from ${str(this.options.importFrom ?? 'armada-cdk')};`,
      ...(this.deploymentVar !== undefined ? [`import { ManifestDeployment } from ${str(`${this.options.importFrom ?? 'armada-cdk'}/pulumi`)};`] : []),
      '',
    ];
    return [...header, ...this.out, ''].join('\n');
  }

  /** Dependencies that are defined after the chart in the generated code (see `chart`). */
  private readonly lateDeps = new Map<string, string[]>();
  private lateDependencies(c: ChartSpec): string[] {
    return this.lateDeps.get(c.name) ?? [];
  }

  private readonly ids = new Map<string, Set<string>>();
  /** Construct ids are unique per scope; a chart and a group may share a document name. */
  private idIn(scope: string, name: string): string {
    const used = this.ids.get(scope) ?? new Set<string>();
    this.ids.set(scope, used);
    let id = name;
    for (let i = 2; used.has(id); i++) id = `${name}-${i}`;
    used.add(id);
    return id;
  }

  private varOf(name: string): string {
    return this.use(this.names.get(name)!);
  }

  private use(v: string): string {
    const d = this.declarations.get(v);
    if (d) d.used = true;
    return v;
  }

  private declare(name: string, kind: 'chart' | 'group'): string {
    let base = camel(name) || kind;
    if (RESERVED.has(base) || MODULE_SCOPE.has(base) || /^\d/.test(base)) base = `${kind}${base.charAt(0).toUpperCase()}${base.slice(1)}`;
    let v = base;
    for (let i = 2; this.taken.has(v); i++) v = `${base}${i}`;
    this.taken.add(v);
    return v;
  }

  private group(g: ChartGroupSpec, site: string): string {
    this.imports.add('ChartGroup');
    const v = this.declare(g.name, 'group');
    const props: [string, string][] = [];
    if (g.description !== undefined) props.push(['description', str(g.description)]);
    if (g.sequenced !== undefined) props.push(['sequenced', String(g.sequenced)]);
    if (g.testCharts !== undefined) props.push(['testCharts', String(g.testCharts)]);
    if (g.schemaVersion !== undefined) {
      this.imports.add('SchemaVersion');
      props.push(['schemaVersion', `SchemaVersion.V${g.schemaVersion}`]);
    }
    if (g.displayName !== undefined) props.push(['displayName', str(g.displayName)]);
    const id = this.idIn(site, g.name);
    if (id !== g.name) props.unshift(['name', str(g.name)]);
    this.out.push('', `const ${v} = new ChartGroup(${site}, ${str(id)}${props.length ? `, ${obj(props, 0)}` : ''});`);
    this.declarations.set(v, { line: this.out.length - 1, used: false });
    return v;
  }

  private chart(written: ChartSpec, scope: string, created: Set<string>): void {
    // Fields equal to the construct's default are left out (see codegen-defaults.ts).
    const c = withoutDefaults(written);
    this.imports.add('Chart');
    const v = this.declare(c.name, 'chart');
    const props: [string, string][] = [];
    if (c.schemaVersion !== undefined) {
      this.imports.add('SchemaVersion');
      props.push(['schemaVersion', `SchemaVersion.V${c.schemaVersion}`]);
    }
    if (c.chartName !== undefined && c.chartName !== c.name) props.push(['chartName', str(c.chartName)]);
    if (c.release !== c.name) props.push(['release', str(c.release)]);
    props.push(['namespace', str(c.namespace)]);
    props.push(['source', this.source(c)]);
    if (c.timeout !== undefined) props.push(['timeout', this.duration(c.timeout)]);
    if (c.wait !== undefined) props.push(['wait', this.wait(c.wait)]);
    if (c.test !== undefined) props.push(['test', typeof c.test === 'boolean' ? String(c.test) : this.test(c.test)]);
    if (c.protected !== undefined) props.push(['protected', obj(c.protected.continueProcessing === undefined ? [] : [['continueProcessing', String(c.protected.continueProcessing)]], 1)]);
    if (c.install !== undefined) props.push(['install', literal(c.install, 1)]);
    if (c.upgrade !== undefined) props.push(['upgrade', this.upgrade(c.upgrade)]);
    if (c.delete !== undefined) props.push(['delete', obj(c.delete.timeout === undefined ? [] : [['timeout', this.duration(c.delete.timeout)]], 1)]);
    if (c.dependencies !== undefined) {
      // A subchart defined further down is added after it exists; all of them then, to keep the order.
      const late = c.dependencies.some((d) => !created.has(d));
      if (late) this.lateDeps.set(c.name, [...c.dependencies]);
      props.push(['dependencies', late ? '[]' : `[${c.dependencies.map((d) => this.varOf(d)).join(', ')}]`]);
    }
    if (c.values !== undefined) props.push(['values', literal(this.secretsReferenced(c), 1)]);
    // The construct id is the document name; `name` only when the id had to differ.
    const id = this.idIn(scope, c.name);
    if (id !== c.name) props.unshift(['name', str(c.name)]);
    this.use(scope);
    this.out.push('', `const ${v} = new Chart(${scope}, ${str(id)}, ${obj(props, 0)});`);
    this.declarations.set(v, { line: this.out.length - 1, used: false });
    this.names.set(c.name, v);
    created.add(c.name);
  }

  /** The chart's values with each secret value replaced by a reference to it. */
  private secretsReferenced(c: ChartSpec): unknown {
    const paths = this.options.secretValues?.get(c.name);
    if (!paths?.length || c.values === undefined) return c.values;
    let values: unknown = c.values;
    for (const p of paths) {
      if (p.length === 0) continue;
      values = replaced(values, p, 0, new SecretReference(`siteSecret(${str(c.name)}, [${p.map((s) => (typeof s === 'number' ? String(s) : str(s))).join(', ')}])`));
    }
    if (values !== c.values) this.imports.add('siteSecret');
    return values;
  }

  private source(c: ChartSpec): string {
    this.imports.add('ChartSource');
    const s = c.source;
    const opts: [string, string][] = [];
    if (s.subpath !== undefined) opts.push(['subpath', str(s.subpath)]);
    if (s.reference !== undefined) opts.push(['reference', str(s.reference)]);
    if (s.proxyServer !== undefined) opts.push(['proxyServer', str(s.proxyServer)]);
    if (s.authMethod !== undefined) opts.push(['authMethod', str(s.authMethod)]);
    const fn = s.type === SourceType.GIT ? 'git' : s.type === SourceType.TAR ? 'tar' : 'local';
    return `ChartSource.${fn}(${str(s.location)}${opts.length ? `, ${obj(opts, 1)}` : ''})`;
  }

  private duration(d: Duration): string {
    this.imports.add('Duration');
    const s = d.toSeconds();
    if (s % 3600 === 0 && s >= 3600) return `Duration.hours(${s / 3600})`;
    if (s % 60 === 0 && s >= 60) return `Duration.minutes(${s / 60})`;
    return `Duration.seconds(${s})`;
  }

  private wait(w: WaitOptions): string {
    const props: [string, string][] = [];
    if (w.timeout !== undefined) props.push(['timeout', this.duration(w.timeout)]);
    if (w.labels !== undefined) props.push(['labels', literal(w.labels, 2)]);
    if (w.resources !== undefined) props.push(['resources', list(w.resources.map((r) => this.resource(r)), 2)]);
    if (w.native !== undefined) props.push(['native', obj(w.native.enabled === undefined ? [] : [['enabled', String(w.native.enabled)]], 2)]);
    return obj(props, 1);
  }

  private resource(r: WaitResource): string {
    this.imports.add('WaitResource');
    const o = r.options;
    const props: [string, string][] = [];
    if (o.labels !== undefined) props.push(['labels', literal(o.labels, 3)]);
    if (o.minReady !== undefined) props.push(['minReady', literal(o.minReady, 3)]);
    if (o.required !== undefined) props.push(['required', String(o.required)]);
    if (o.allowAsyncUpdates !== undefined) props.push(['allowAsyncUpdates', String(o.allowAsyncUpdates)]);
    const args = props.length ? obj(props, 3) : '';
    const factory = Object.hasOwn(FACTORY, r.type) ? FACTORY[r.type] : undefined;
    // A typed factory when the options fit it; `of` keeps what the factory would not accept.
    const fits = factory !== undefined &&
      (o.minReady === undefined || CONTROLLER_TYPES.includes(r.type)) &&
      (o.allowAsyncUpdates === undefined || r.type === 'daemonset' || r.type === 'statefulset') &&
      (typeof o.minReady !== 'string' || /^\d+%$/.test(o.minReady));
    if (fits) return `WaitResource.${factory}(${args})`;
    return `WaitResource.of(${str(r.type)}${args ? `, ${args}` : ''})`;
  }

  private test(t: TestOptions): string {
    const props: [string, string][] = [];
    if (t.enabled !== undefined) props.push(['enabled', String(t.enabled)]);
    if (t.timeout !== undefined) props.push(['timeout', this.duration(t.timeout)]);
    if (t.cleanup !== undefined) props.push(['cleanup', String(t.cleanup)]);
    return obj(props, 1);
  }

  private upgrade(u: UpgradeOptions): string {
    const hooks = (list: readonly HookAction[] | undefined, depth: number) =>
      list === undefined ? undefined : list.map((h) => obj([
        ...(h.name !== undefined ? [['name', str(h.name)] as [string, string]] : []),
        ['type', str(h.type)],
        ...(h.labels !== undefined ? [['labels', literal(h.labels, depth + 1)] as [string, string]] : []),
      ], depth));
    const props: [string, string][] = [];
    if (u.noHooks !== undefined) props.push(['noHooks', String(u.noHooks)]);
    if (u.pre !== undefined) {
      const pre: [string, string][] = [];
      for (const k of ['delete', 'update', 'create'] as const) {
        const h = hooks(u.pre[k], 4);
        if (h) pre.push([k, list(h, 3)]);
      }
      props.push(['pre', obj(pre, 2)]);
    }
    if (u.post !== undefined) {
      const h = hooks(u.post.create, 4);
      props.push(['post', obj(h ? [['create', list(h, 3)]] : [], 2)]);
    }
    if (u.options !== undefined) props.push(['options', obj(u.options.force === undefined ? [] : [['force', String(u.options.force)]], 2)]);
    return obj(props, 1);
  }
}

const FACTORY: Record<string, string | undefined> = {
  pod: 'pod',
  job: 'job',
  deployment: 'deployment',
  daemonset: 'daemonSet',
  statefulset: 'statefulSet',
};

const IMPORTED = new Set(['ArmadaManifest', 'Chart', 'ChartGroup', 'ChartSource', 'Duration', 'WaitResource', 'SchemaVersion', 'siteSecret', 'ManifestDeployment']);

/** `v` with the value at `path` (from `at`) replaced, the mappings and lists on the way copied; `v` itself when the path is not there. */
function replaced(v: unknown, path: readonly (string | number)[], at: number, ref: SecretReference): unknown {
  if (at === path.length) return ref;
  if (v === null || typeof v !== 'object' || v instanceof SecretReference || !Object.hasOwn(v, path[at])) return v;
  const inner = (v as Record<string | number, unknown>)[path[at]];
  const next = replaced(inner, path, at + 1, ref);
  if (next === inner) return v;
  const copy = (Array.isArray(v) ? [...v] : { ...v }) as Record<string | number, unknown>;
  copy[path[at]] = next;
  return copy;
}

const RESERVED = new Set([
  'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum', 'export',
  'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super',
  'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'let', 'static', 'await',
  'implements', 'interface', 'package', 'private', 'protected', 'public', 'Chart', 'ChartGroup', 'ArmadaManifest',
  'ChartSource', 'Duration', 'WaitResource', 'SchemaVersion', 'undefined', 'NaN', 'Infinity', 'arguments', 'eval', 'siteSecret',
  'ManifestDeployment',
]);

/**
 * Names a module's top-level `const` may not take, or should not shadow: TypeScript reserves
 * `require` and `exports` in a CommonJS module (TS2441), and the generated code calls `BigInt`.
 */
const MODULE_SCOPE = new Set(['require', 'exports', 'module', '__filename', '__dirname', 'global', 'globalThis', 'BigInt']);

function camel(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p, i) => (i === 0 ? p.charAt(0).toLowerCase() + p.slice(1) : p.charAt(0).toUpperCase() + p.slice(1)))
    .join('');
}

/**
 * Characters that end a `//` comment or a line in JavaScript or TypeScript although JSON leaves
 * them as they are (U+2028, U+2029), that other readers take as a line break (NEL), and the
 * invisible direction and byte-order marks that make code read differently from how it runs.
 * Written as `\uXXXX` escapes wherever text from an input reaches the generated code.
 */
const UNSAFE_IN_SOURCE = /[\u0085\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

const HAS_UNSAFE = new RegExp(UNSAFE_IN_SOURCE.source); // no `g`: `test` keeps no state

function escapeUnsafe(body: string): string {
  return body.replace(UNSAFE_IN_SOURCE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Text from an input (a file name) for a `//` comment: as it is when it is printable ASCII, else a
 * JSON string with every line terminator escaped, so that nothing after it becomes code.
 */
function commentText(s: string): string {
  return /^[\x20-\x7e]*$/.test(s) ? s : escapeUnsafe(JSON.stringify(s));
}

/** A single-quoted string literal: every control character and line terminator escaped. */
function quoted(s: string): string {
  const json = escapeUnsafe(JSON.stringify(s));
  return "'" + json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'") + "'";
}

/** A string literal, single-quoted; a template literal for multi-line text (scripts in values). */
function str(s: string): string {
  if (s.includes('\n') && !/[\u0000-\u0008\u000b-\u001f]/.test(s) && !HAS_UNSAFE.test(s)) {
    return '`' + s.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
  }
  return quoted(s);
}

function key(k: string): string {
  // `__proto__: v` and `'__proto__': v` in an object literal set its prototype; a computed key
  // is an ordinary property, as the YAML key was. A template literal cannot name a property
  // (TS1136): a key is always quoted.
  if (k === '__proto__') return `[${quoted(k)}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : quoted(k);
}

/** `{ a: 1, b: 2 }` on one line when it fits, one property per line otherwise. */
function obj(props: readonly (readonly [string, string])[], depth: number): string {
  if (props.length === 0) return '{}';
  const inline = `{ ${props.map(([k, v]) => `${key(k)}: ${v}`).join(', ')} }`;
  if (inline.length + depth * 2 + 20 <= MAX_LINE && !inline.includes('\n')) return inline;
  const pad = INDENT.repeat(depth + 1);
  return `{\n${props.map(([k, v]) => `${pad}${key(k)}: ${v},`).join('\n')}\n${INDENT.repeat(depth)}}`;
}

function list(items: readonly string[], depth: number): string {
  if (items.length === 0) return '[]';
  const inline = `[${items.join(', ')}]`;
  if (inline.length + depth * 2 + 20 <= MAX_LINE && !inline.includes('\n')) return inline;
  const pad = INDENT.repeat(depth + 1);
  return `[\n${items.map((i) => `${pad}${i},`).join('\n')}\n${INDENT.repeat(depth)}]`;
}

/** JSON data as a TypeScript literal (values, labels, install). */
function literal(v: unknown, depth: number): string {
  if (v === null) return 'null';
  if (v instanceof SecretReference) return v.code;
  if (typeof v === 'string') return str(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  // Exact beyond 2^53; a timestamp as the string Helm receives from Armada (its str()).
  if (typeof v === 'bigint') return `BigInt(${str(String(v))})`;
  if (isYamlTimestamp(v)) return str(String(v));
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return list(v.map((x) => literal(x, depth + 1)), depth);
  if (typeof v === 'object') return obj(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, literal(x, depth + 1)] as const), depth);
  return 'undefined';
}
