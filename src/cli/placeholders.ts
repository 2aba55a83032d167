/**
 * `${VAR}` left in the input: OpenStack-Helm's manifests are templates for `envsubst`, and Armada
 * reads such a string literally (a chart location of "${OSH_INFRA_PATH}" is a relative path), so
 * an unexpanded placeholder is usually a step forgotten before `armada apply`.
 *
 * Not where the text is for another program that expands it when it runs: a script or a
 * configuration template carried in values (fluentd's `tag info.${tag}`, fluent-bit's
 * `Record hostname ${HOSTNAME}`, a shell script's `"${OS_USERNAME}"`), which envsubst would break.
 * Those are multi-line strings, values under a script, command or template key, lower-case
 * record fields, or shell command lines; only the rest is warned about.
 */
import { Diagnostic } from '../model/diagnostics';
import { formatWirePath } from '../model/wire/fields';
import type { LoadedDocument } from '../importer/load';
import { DiagnosticCodes } from '../model/codes';
import { envsubstMeant, PLACEHOLDER, WirePath } from '../model/envsubst';

const PLACEHOLDER_OR_ESCAPE = ['${', '\\'];

/** One warning per string of an Armada document that holds `${VAR}`. */
export function placeholderWarnings(documents: readonly LoadedDocument[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const doc of documents) {
    if (typeof doc.schema !== 'string' || !doc.schema.startsWith('armada/')) continue;
    // No `${` in its text, and no escape (a backslash) that could write one: nothing to find.
    if (doc.textIncludes && !doc.textIncludes(PLACEHOLDER_OR_ESCAPE)) continue;
    walk(doc.data, ['data'], (path, value) => {
      if (!value.includes('${')) return;
      const names = [...new Set([...value.matchAll(PLACEHOLDER)].map((m) => m[1]))];
      if (names.length === 0 || !envsubstMeant(path, value, names)) return;
      out.push({
        severity: 'warning',
        code: DiagnosticCodes.UNEXPANDED_PLACEHOLDER,
        location: doc.location(path),
        document: doc.label,
        field: formatWirePath(path),
        message: `${names.map((n) => `\${${n}}`).join(', ')} is not expanded: Armada reads the string as written; expand the environment variables first, for example envsubst < site.yaml | armada-cdk validate -`,
      });
    });
  }
  return out;
}

/** Visits every string under `v`; `path` is one stack, copied only for a visit (large sites). */
function walk(v: unknown, path: (string | number)[], visit: (path: WirePath, value: string) => void): void {
  // Only strings that can hold a placeholder are visited (and their path copied).
  if (typeof v === 'string') {
    if (v.includes('${')) visit([...path], v);
  }
  else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      walk(v[i], path, visit);
      path.pop();
    }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      path.push(k);
      walk((v as Record<string, unknown>)[k], path, visit);
      path.pop();
    }
  }
}
