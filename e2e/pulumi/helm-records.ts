/** Helm's own release records (`helm status -o json`), read with the harness's Helm 3 (or 4). */
import { runTool } from '../stack';

export interface HelmRecord {
  readonly name: string;
  readonly namespace: string;
  /** The revision: 1 after the install, one more for each upgrade. */
  readonly version: number;
  readonly info: { readonly first_deployed: string; readonly last_deployed: string; readonly status: string };
  readonly config?: Readonly<Record<string, unknown>>;
  readonly hooks?: readonly { readonly name: string; readonly events: readonly string[]; readonly last_run?: { readonly phase?: string; readonly completed_at?: string } }[];
}

/** The record of a release, or undefined when Helm has none. */
export async function helmRecord(namespace: string, release: string, helm: 'helm3' | 'helm4' = 'helm3'): Promise<HelmRecord | undefined> {
  const r = await runTool(helm, ['status', release, '--namespace', namespace, '--output', 'json'], { allowFailure: true });
  if (r.code !== 0) {
    if (/not found/.test(r.stderr)) return undefined;
    throw new Error(`helm status ${release} -n ${namespace} failed: ${r.stderr}`);
  }
  return JSON.parse(r.stdout) as HelmRecord;
}

/** Names of the releases Helm has in a namespace, sorted. */
export async function helmReleases(namespace: string): Promise<string[]> {
  const r = await runTool('helm3', ['list', '--namespace', namespace, '--all', '--output', 'json']);
  return (JSON.parse(r.stdout) as { name: string }[]).map((x) => x.name).sort();
}

/** Nanoseconds since the epoch of Helm's RFC 3339 times (which keep nanoseconds: Date would drop them). */
export function helmTime(t: string): bigint {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(t);
  if (!m) throw new Error(`not a Helm time: ${t}`);
  const seconds = BigInt(Date.parse(`${m[1]}${m[3]}`)) / 1000n;
  return seconds * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0').slice(0, 9));
}
