/**
 * Spec field paths (camelCase, as the props name them) to wire paths (as the document or CR writes
 * them), so that a rule written once against the spec can point at the user's YAML.
 */
import { FieldPath } from '../diagnostics';
import { SchemaVersion } from '../spec';

/** The three document kinds. */
export type DocumentKind = 'Chart' | 'ChartGroup' | 'Manifest';

const SNAKE: Record<string, string> = {
  chartName: 'chart_name',
  releasePrefix: 'release_prefix',
  chartGroups: 'chart_groups',
  continueProcessing: 'continue_processing',
  minReady: 'min_ready',
  allowAsyncUpdates: 'allow_async_updates',
  noHooks: 'no_hooks',
  proxyServer: 'proxy_server',
  authMethod: 'auth_method',
  testCharts: 'test_charts',
};

/** Keys below which the path is user data (chart values, label maps), copied verbatim. */
const VERBATIM_BELOW = new Set(['values', 'labels', 'install']);

/** `['wait', 'resources', 0, 'minReady']` of a chart -> `['data', 'wait', 'resources', 0, 'min_ready']`. */
export function toWirePath(kind: DocumentKind, version: SchemaVersion, field: FieldPath): (string | number)[] {
  if (field.length === 0) return [];
  const [head, ...rest] = field;
  if (head === 'name') return ['metadata', 'name'];
  if (kind === 'ChartGroup' && head === 'charts') return ['data', 'chart_group', ...rest];
  if (kind === 'ChartGroup' && head === 'displayName') return ['data', 'name'];
  if (kind === 'Chart' && head === 'test' && rest[0] === 'cleanup') return ['data', 'test', 'options', 'cleanup'];
  if (kind === 'Chart' && head === 'upgrade' && rest[0] === 'noHooks' && version === SchemaVersion.V2) {
    return ['data', 'upgrade', 'options', 'no_hooks'];
  }
  const out: (string | number)[] = ['data'];
  let verbatim = false;
  for (const seg of field) {
    if (typeof seg === 'number' || verbatim) out.push(seg);
    else out.push((Object.hasOwn(SNAKE, seg) ? SNAKE[seg] : undefined) ?? seg);
    if (typeof seg === 'string' && VERBATIM_BELOW.has(seg)) verbatim = true;
  }
  return out;
}

/** `^[A-Za-z_][A-Za-z0-9_-]*$`, asked once per segment of every located diagnostic. */
function isPlainName(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && (i === 0 || !((c >= 48 && c <= 57) || c === 45))) return false;
  }
  return true;
}

/** `['data', 'wait', 'resources', 0, 'min_ready']` -> `data.wait.resources[0].min_ready`. */
export function formatWirePath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (isPlainName(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}
