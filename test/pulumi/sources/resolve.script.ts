/**
 * Resolves one chart source in a child process, as a second `pulumi up` on the same machine
 * would, and prints the result as one JSON line.
 *
 * Usage: node -r ts-node/register/transpile-only resolve.script.ts '<json {type, location, subpath?, reference?, cacheDir, refresh?}>'
 */
import { ChartSource } from '../../../src/model/source';
import { resolveChartSource } from '../../../src/pulumi/sources';

async function main(): Promise<void> {
  const a = JSON.parse(process.argv[2]) as { type: 'tar' | 'git'; location: string; subpath?: string | undefined; reference?: string | undefined; cacheDir: string; refresh?: boolean | undefined };
  const source = a.type === 'tar' ? ChartSource.tar(a.location, { subpath: a.subpath }) : ChartSource.git(a.location, { subpath: a.subpath, reference: a.reference });
  const log: string[] = [];
  const r = await resolveChartSource(source, { cacheDir: a.cacheDir, refresh: a.refresh, log: (m) => log.push(m) });
  process.stdout.write(`${JSON.stringify({ dir: r.dir, sha256: r.sha256, commit: r.commit, cached: r.cached, log })}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
