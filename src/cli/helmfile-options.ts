/**
 * `convert --to helmfile`: its options, and the arguments that let the hooks of the helmfile read
 * the same site again (`armada-cdk wait ARGS --chart NAME`), from the helmfile's directory.
 */
import * as path from 'path';
import type { HelmfileOptions } from '../model/wire/helmfile';
import { list, OptionSpec, ParsedArgs, str } from './args';
import { UsageError } from './io';

export const HELMFILE_CLI_OPTIONS: Record<string, OptionSpec> = {
  'kube-context': { type: 'string' },
  'armada-cdk': { type: 'string' },
  helm: { type: 'string' },
  'chart-path': { type: 'string', multiple: true },
};

export const HELMFILE_CLI_HELP = `Helmfile options (--to helmfile; see docs/helmfile.md):
  The helmfile's hooks run armada-cdk wait with this command's input (the files, -f, --set,
  --target-manifest, or --site/--repo/--order); a relative path is rewritten relative to the
  helmfile's directory: the -o directory, or the current directory for stdout.
  --kube-context NAME      helmDefaults.kubeContext, passed to the hooks as --context too
  --armada-cdk COMMAND     the armada-cdk the hooks run (default: armada-cdk)
  --helm COMMAND           the helm the hooks' tests run (default: helm)
  --chart-path CHART=DIR   install DIR, a chart assembled beforehand, for CHART instead of
                           fetching its source (repeatable)`;

/** The Helmfile options of the command line, the hooks' input made relative to `helmfileDir`. */
export function helmfileOptions(args: ParsedArgs, cwd: string, helmfileDir: string): HelmfileOptions {
  // An absolute path stays as written; a relative one is made relative to the helmfile.
  const rel = (p: string) => {
    if (path.isAbsolute(p)) return p;
    const r = path.relative(helmfileDir, path.resolve(cwd, p)) || '.';
    return r.split(path.sep).join('/');
  };
  const files = [...args.positionals, ...list(args, 'values')];
  if (files.includes('-')) throw new UsageError("--to helmfile: the helmfile's hooks read the input again, so it cannot be stdin (-); give it as files", 'convert');
  const input: string[] = [];
  const site = str(args, 'site');
  if (site !== undefined) {
    input.push('--site', site, '--repo', rel(str(args, 'repo') ?? '.'));
    const order = str(args, 'order');
    if (order !== undefined) input.push('--order', rel(order));
  } else {
    input.push(...args.positionals.map(rel));
  }
  const target = str(args, 'target-manifest');
  if (target !== undefined) input.push('--target-manifest', target);
  for (const f of list(args, 'values')) input.push('--values', rel(f));
  for (const s of list(args, 'set')) input.push('--set', s);
  const chartPaths: Record<string, string> = {};
  for (const item of list(args, 'chart-path')) {
    const m = /^([^=]+)=(.+)$/.exec(item);
    if (!m) throw new UsageError(`--chart-path must be CHART=DIR; received ${JSON.stringify(item)}`, 'convert');
    if (Object.prototype.hasOwnProperty.call(chartPaths, m[1])) throw new UsageError(`--chart-path gives chart ${JSON.stringify(m[1])} twice`, 'convert');
    const dir = rel(m[2]);
    chartPaths[m[1]] = dir === '.' || dir.startsWith('./') || dir.startsWith('../') ? dir : `./${dir}`;
  }
  return {
    waitInput: input,
    ...(str(args, 'kube-context') !== undefined ? { kubeContext: str(args, 'kube-context') } : {}),
    ...(str(args, 'armada-cdk') !== undefined ? { armadaCdkCommand: str(args, 'armada-cdk') } : {}),
    ...(str(args, 'helm') !== undefined ? { helmCommand: str(args, 'helm') } : {}),
    ...(Object.keys(chartPaths).length > 0 ? { chartPaths } : {}),
  };
}
