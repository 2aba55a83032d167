/**
 * Armada's overrides (`armada/handlers/override.py`), with its semantics, surprises included:
 *
 * - `--values FILE`: each Armada document of the file is matched to the first document with the
 *   same schema type AND version and the same `metadata.name`; its `data` is deep-merged in:
 *   mappings merge, anything else replaces, except that a string replacing a list is split on
 *   commas (each piece stripped). Override documents that match nothing are ignored by Armada
 *   (here: a warning).
 * - `--set TYPE:NAME:DOTTED.PATH=VALUE` (TYPE is `chart`, `chart_group` or `manifest`, matched by
 *   type, any version): the value is ALWAYS a string (`wait.timeout=600` sets `"600"`, which
 *   the integer schema then rejects), a string set onto an existing list is comma-split, missing
 *   intermediate keys are created. `--set` runs after every `--values` file.
 *
 * Where Armada crashes (a mapping merged onto a non-mapping, an empty `--set` value, a value with
 * `"` or `\` that breaks its JSON round trip, non-Armada documents in the stream with `--set`)
 * this reports a diagnostic instead.
 */
import { Diagnostic } from '../model/diagnostics';
import { getOwn, setOwn } from '../model/own-keys';
import { isPlainObject } from '../model/values';

/** A document whose data the overrides may change (a copy; the loaded document stays as read). */
export interface OverridableDocument {
  readonly schema: string;
  readonly name: string;
  data: Record<string, unknown>;
}

/** An override document, from a `--values` file. */
export interface OverrideDocument {
  readonly schema: string;
  readonly name: string;
  readonly data: unknown;
  /** `file:line:column` of the override document, for diagnostics. */
  readonly location: string;
}

const TYPE_ALIASES: Record<string, string> = { chart: 'Chart', chart_group: 'ChartGroup', manifest: 'Manifest' };

function schemaParts(schema: string): { type: string; version: string } | undefined {
  const m = /^armada\/(Chart|ChartGroup|Manifest)\/(v\d+)$/.exec(schema);
  return m ? { type: m[1], version: m[2] } : undefined;
}

/** Armada's `Override.update`: merges `u` into `d` in place; returns problems instead of crashing. */
export function armadaUpdate(d: Record<string, unknown>, u: Record<string, unknown>, path: string[] = []): string[] {
  const problems: string[] = [];
  for (const [k, v] of Object.entries(u)) {
    if (isPlainObject(v)) {
      const current = getOwn(d, k);
      if (current === undefined) setOwn(d, k, {});
      else if (!isPlainObject(current)) {
        problems.push(`${[...path, k].join('.')}: the override is a mapping but the document has ${current === null ? 'null' : Array.isArray(current) ? 'a list' : `a ${typeof current}`} there (Armada fails on this)`);
        continue;
      }
      problems.push(...armadaUpdate(getOwn(d, k) as Record<string, unknown>, v, [...path, k]));
    } else if (typeof v === 'string' && Array.isArray(getOwn(d, k))) {
      setOwn(d, k, v.split(',').map((x) => x.trim()));
    } else {
      setOwn(d, k, v);
    }
  }
  return problems;
}

/** Applies `--values` documents in order; returns the diagnostics. */
export function applyValuesFiles(docs: OverridableDocument[], overrides: readonly OverrideDocument[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const ovr of overrides) {
    const info = schemaParts(ovr.schema);
    if (!info) continue; // Armada ignores override documents of other schemas.
    const target = docs.find((doc) => {
      const t = schemaParts(doc.schema);
      return t !== undefined && t.type === info.type && t.version === info.version && doc.name === ovr.name;
    });
    if (!target) {
      out.push({ severity: 'warning', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, code: 'override', message: 'this override document matches no document of the same schema and name; Armada ignores it' });
      continue;
    }
    if (ovr.data === undefined || ovr.data === null) continue;
    if (!isPlainObject(ovr.data)) {
      out.push({ severity: 'error', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, field: 'data', code: 'override', message: 'the override data must be a mapping' });
      continue;
    }
    for (const p of armadaUpdate(target.data, ovr.data, ['data'])) {
      out.push({ severity: 'error', location: ovr.location, document: `${ovr.schema} ${ovr.name}`, code: 'override', message: p });
    }
  }
  return out;
}

/** Parses and applies `--set` expressions in order; returns the diagnostics. */
export function applySets(docs: OverridableDocument[], sets: readonly string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  sets.forEach((expr, i) => {
    const location = `--set[${i}]`;
    const err = (message: string, severity: 'error' | 'warning' = 'error'): void => {
      out.push({ severity, location, code: 'override', message: `${JSON.stringify(expr)}: ${message}` });
    };
    const eq = expr.indexOf('=');
    if (eq < 0) return err('expected TYPE:NAME:PATH=VALUE (no "=" found)');
    const value = expr.slice(eq + 1);
    const docPath = expr.slice(0, eq).split(':');
    if (docPath.length < 3) return err('expected TYPE:NAME:PATH=VALUE (TYPE is chart, chart_group or manifest)');
    const dataPath = docPath.pop()!.split('.');
    const [alias, name] = docPath;
    const type = Object.hasOwn(TYPE_ALIASES, alias) ? TYPE_ALIASES[alias] : undefined;
    if (!type) return err(`unknown document type ${JSON.stringify(alias)}; Armada knows chart, chart_group and manifest`);
    if (value === '') return err('the value is empty (Armada fails on an empty --set value)');
    if (/["\\]/.test(value)) return err('the value contains a double quote or a backslash, which breaks Armada\'s JSON round trip of --set values');
    if (dataPath.some((p) => p === '' || p.includes('null') || /["\\]/.test(p))) {
      return err('the path has an empty segment, or one containing "null", a quote or a backslash, which Armada\'s JSON round trip of --set paths corrupts');
    }
    const target = docs.find((d) => schemaParts(d.schema)?.type === type && d.name === name);
    if (!target) return err(`no ${alias} document named ${JSON.stringify(name)} (Armada: UnknownDocumentOverrideException)`);
    // Armada builds the override tree by walking the path and stops descending at every segment
    // equal to the last one (a bug): `a.b.a=v` sets both `a` and `b.a`. Reproduced, with a warning.
    const tree: Record<string, unknown> = {};
    let t = tree;
    const last = dataPath[dataPath.length - 1];
    for (const part of dataPath) {
      if (part === last) {
        if (!Object.hasOwn(t, part)) setOwn(t, part, value);
        continue;
      }
      if (!Object.hasOwn(t, part)) setOwn(t, part, {});
      t = getOwn(t, part) as Record<string, unknown>;
    }
    if (dataPath.slice(0, -1).includes(last)) {
      err(`the path repeats its last segment ${JSON.stringify(last)}; Armada then also sets it at the first place it appears`, 'warning');
    }
    for (const p of armadaUpdate(target.data, tree, ['data'])) err(p);
  });
  return out;
}
