/**
 * Values whose meaning Armada itself changes on the way to Helm. Armada writes a chart's values
 * for `helm --values` with PyYAML's `yaml.safe_dump` (`_TempValuesFile`, armada/handlers/helm.py),
 * which quotes only the strings PyYAML's own YAML 1.1 resolvers would read as something else. Helm
 * reads that file with go-yaml v2 (through sigs.k8s.io/yaml), whose resolvers differ: `y` and `n`
 * are booleans, `0o755`, `0X1F` and `0B11` integers, `09` and `1e3` floats. A key is read the same
 * way and then written back as a string by sigs.k8s.io/yaml (`y:` becomes `"true"`), so `y` and
 * `Y` collide.
 *
 * Two kinds of site are warned: one read from Armada YAML, which reached Helm so under Armada
 * while armada-cdk's targets pass the string as written (arguably right); and one written as
 * Armada documents for Armada to deploy, where Helm will receive the boolean or number whatever
 * the documents' quoting, since Armada dumps the values again itself. The other targets (the
 * operators, Flux, Helmfile, Pulumi) give Helm the values without PyYAML's dump: no warning.
 */
import { Diagnostics, show } from './diagnostics';
import { DiagnosticCodes } from './codes';
import { firstByName } from './first-by-name';
import { buildPlan, Plan } from './plan';
import { ManifestSpec } from './spec';
import { MAX_VALUES_DEPTH } from './armada-depth';
import { isPlainObject } from './values';
import { goFloat32Key } from './go-float32-key';

/**
 * PyYAML's implicit resolvers (bool, int, float, null, merge, value): strings it quotes. The last
 * one is looser than its timestamp resolver: what it adds, go-yaml v2 gives an interface{} as the string.
 */
const PYYAML_IMPLICIT = [
  /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/,
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/,
  /^(?:<<|=|~|null|Null|NULL|)$/,
  /^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?/,
];

/** What go-yaml v2 makes of a plain scalar that is no string, as Helm then has it. */
export interface HelmReading {
  /** `the boolean true`, `the number 493`. */
  readonly what: string;
  /** The key sigs.k8s.io/yaml writes for it, when it is a mapping key. */
  readonly key: string;
}

/** First characters go-yaml v2 resolves from (its resolve table); `~`, `t`, `f`, `o` only give what PyYAML quotes. */
const FIRST = 'yYnN.+-0123456789';
/** go-yaml v2's `yamlStyleFloat`. */
const GO_YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** Go's `strconv.ParseInt(s, 0, 64)` syntax: a sign, then a 0x, 0o or 0b prefix, a leading-0 octal, or decimal. */
const GO_INT = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/;

/**
 * What Helm receives under Armada for the string `s`: undefined when it stays that string (PyYAML
 * quotes it, or go-yaml v2 reads it as a string too). go-yaml v2's `resolve`, for what PyYAML
 * writes plain.
 */
export function helmReadingUnderArmada(s: string): HelmReading | undefined {
  // go-yaml's resolve table: only these first characters can make anything but a string.
  const c = s.charAt(0);
  if (!FIRST.includes(c) || c === '') return undefined;
  if (PYYAML_IMPLICIT.some((re) => re.test(s))) return undefined;
  if (s === 'y' || s === 'Y') return { what: 'the boolean true', key: 'true' };
  if (s === 'n' || s === 'N') return { what: 'the boolean false', key: 'false' };
  if (c === '.') return /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(s) ? float(Number(s)) : undefined;
  if (!/[-+0-9]/.test(c)) return undefined;
  const plain = s.replace(/_/g, '');
  const int = goInt(plain);
  if (int !== undefined) return { what: `the number ${int}`, key: String(int) };
  return GO_YAML_FLOAT.test(plain) ? float(Number(plain)) : undefined;
}

/** A float go-yaml read; one past float64's range fails ParseFloat and stays a string. */
function float(n: number): HelmReading | undefined {
  return Number.isFinite(n) ? { what: `the number ${n}`, key: goFloat32Key(n) } : undefined;
}

/** `strconv.ParseInt(plain, 0, 64)`, then `ParseUint` (no sign): the integer, or undefined. */
function goInt(plain: string): bigint | undefined {
  const m = GO_INT.exec(plain);
  if (!m) return undefined;
  const body = m[2];
  const digits = /^0[0-7]+$/.test(body) ? `0o${body.slice(1)}` : body.length > 1 && /[xXoObB]/.test(body[1]) ? `0${body[1].toLowerCase()}${body.slice(2)}` : body;
  const v = m[1] === '-' ? -BigInt(digits) : BigInt(digits);
  if (v >= -(2n ** 63n) && v < 2n ** 63n) return v;
  return m[1] === '' && v < 2n ** 64n ? v : undefined;
}

/**
 * Which site a warning is about: one read from Armada YAML and moved off Armada (what Helm
 * received, in the past), or one written as Armada documents that Armada will deploy (what Helm
 * will receive).
 */
export type RetypedSite = 'moved-off-armada' | 'deployed-by-armada';

/** The words that differ between the two kinds of site; the rest of each message is shared. */
interface Wording {
  readonly receives: string;
  readonly becomes: string;
  readonly reads: string;
  readonly keeps: string;
  readonly writes: string;
  /** What the user can do about a retyped string, `instead` being what Helm gets (`true`). */
  readonly stringFix: (s: string, instead: string) => string;
  /** What becomes of a retyped key. */
  readonly keyFix: (k: string) => string;
}

const WORDING: Readonly<Record<RetypedSite, Wording>> = {
  'moved-off-armada': {
    receives: 'received',
    becomes: 'became',
    reads: 'read',
    keeps: 'kept',
    writes: 'wrote',
    stringFix: (_, instead) => `armada-cdk passes the string as written: write ${instead} where the chart relied on Armada's reading`,
    keyFix: (k) => `armada-cdk passes the key ${show(k)} as written`,
  },
  // No quoting in the documents helps: Armada reads them, then dumps the values anew.
  'deployed-by-armada': {
    receives: 'receives',
    becomes: 'becomes',
    reads: 'reads',
    keeps: 'keeps',
    writes: 'writes',
    stringFix: (s, instead) => `Armada cannot pass the string ${show(s)} to Helm, however these documents quote it: write ${instead} where that is meant`,
    keyFix: (k) => `Armada cannot pass the key ${show(k)} to Helm, however these documents quote it`,
  },
};

/**
 * Warnings for the values of every chart the manifest deploys (Armada writes no values for a
 * subchart: its parent's values file is the only one): each string and key that Helm receives
 * as something else under Armada.
 * @param site - the kind of site, for the wording: read from Armada YAML, or written for Armada to deploy
 * @param plan - the manifest's plan, when the caller has it
 */
export function armadaRetypedValues(spec: ManifestSpec, site: RetypedSite, plan: Plan = buildPlan(spec)): Diagnostics {
  const d = new Diagnostics();
  const w = WORDING[site];
  const charts = firstByName(spec.charts);
  const done = new Set<string>();
  for (const release of plan.releases) {
    const chart = charts.get(release.chart);
    if (!chart || done.has(chart.name) || !isPlainObject(chart.values)) continue;
    done.add(chart.name);
    // One path, extended and shortened as the walk goes; copied only into a finding.
    const path: (string | number)[] = [];
    // A cycle (validation reports it) is not followed round.
    const onPath = new Set<object>();
    const walk = (v: unknown): void => {
      if (path.length > MAX_VALUES_DEPTH) return;
      if (typeof v === 'object' && v !== null) {
        if (onPath.has(v)) return;
        onPath.add(v);
        walkObject(v);
        onPath.delete(v);
        return;
      }
      if (typeof v === 'string') {
        const helm = helmReadingUnderArmada(v);
        if (helm) {
          d.warn(
            chart.origin,
            ['values', ...path],
            DiagnosticCodes.VALUES_RETYPED,
            `received the string ${show(v)}; under Armada, Helm ${w.receives} ${helm.what} instead: Armada writes values for Helm with PyYAML's yaml.safe_dump, which leaves ${show(v)} unquoted, and Helm's YAML reader (go-yaml v2) reads it so; ${w.stringFix(v, helm.what.replace(/^the (boolean|number) /, ''))}`,
          );
        }
        return;
      }
    };
    const walkObject = (v: object): void => {
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          path.push(i);
          walk(v[i]);
          path.pop();
        }
        return;
      }
      if (!isPlainObject(v)) return;
      const keys = Object.keys(v);
      // The key each one becomes in Helm (retyped keys are written back as strings), when any is retyped.
      const helmKeys = keys.some((k) => helmReadingUnderArmada(k)) ? keys.map((k) => helmReadingUnderArmada(k)?.key ?? k) : keys;
      keys.forEach((k, i) => {
        const helm = helmReadingUnderArmada(k);
        if (helm) {
          const same = keys.filter((_, j) => j !== i && helmKeys[j] === helm.key);
          d.warn(
            chart.origin,
            ['values', ...path, k],
            DiagnosticCodes.VALUES_RETYPED,
            `the key ${show(k)} ${w.becomes} the key ${show(helm.key)} in Helm under Armada${same.length > 0 ? `, ${clash(k, same, w)}` : ''}: Armada writes values with PyYAML's yaml.safe_dump, which leaves the key unquoted, Helm's YAML reader reads it as ${helm.what} and writes it back as ${show(helm.key)}; ${w.keyFix(k)}`,
          );
        }
        path.push(k);
        walk(v[k]);
        path.pop();
      });
    };
    walk(chart.values);
  }
  return d;
}

/**
 * What Helm kept of keys that became one. Those go-yaml read as one value (`y` and `Y`: both
 * `true`) are one key to it, and the last written wins: safe_dump writes keys sorted. A string
 * key, or one go-yaml read as another value (the integer 8 and the float 8), that only
 * sigs.k8s.io/yaml's conversion makes equal leaves the choice to Go's map order.
 */
function clash(k: string, same: readonly string[], w: Wording): string {
  const names = same.map((o) => `the key ${show(o)}`).join(' and ');
  const what = helmReadingUnderArmada(k)?.what;
  if (same.some((o) => helmReadingUnderArmada(o)?.what !== what)) return `as ${names} here is: Helm ${w.keeps} one of their values, which one not defined (Go's map order)`;
  const last = [k, ...same].sort().pop()!;
  return `as ${names} here ${same.length > 1 ? 'do' : 'does'}: go-yaml ${w.reads} them as one key and ${w.keeps} the value of the last one safe_dump ${w.writes}, in sorted order: that of ${show(last)}`;
}
