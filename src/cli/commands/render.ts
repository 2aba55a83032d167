import * as path from 'path';
import { parse, str } from '../args';
import { orderOf, REPORT_HELP, REPORT_OPTIONS, reportOptions } from '../common';
import { CliIo, EXIT, UsageError } from '../io';
import { plural, printReport, tooManyWarnings } from '../report';
import { checkOutputFile, checkOutputNotInput, planFileOutput, writeFilesAtomically } from '../write';
import { hasErrors } from '../../model/diagnostics';

export const HELP = `Usage: armada-cdk render (FILE... | --site NAME [--repo DIR]) [-o FILE] [options]

Renders a Pegleg/Deckhand site as pegleg site render does: Deckhand's layering (the first
deckhand/LayeringPolicy's layers, parents chosen by parentSelector, merge, replace and delete
actions) and substitutions, abstract documents left out. Writes every rendered document, Armada's
and the others (Drydock, Promenade, Pegleg, Shipyard, secrets) alike, in Deckhand's order and in
Pegleg's format: keys sorted, each document between --- and ... . Nothing is written when the
site cannot be rendered; the reason is printed, at the file, line and column of the documents
involved. Secret values (Deckhand's Passphrase, Certificate, CertificateKey,
CertificateAuthorityKey, PrivateKey and PublicKey documents, encrypted ones, and what is
substituted from them) are written in the output, as Pegleg writes them, but never in a message.

Input:
  FILE...              the site's files, read in the order given (Deckhand's output depends on
                       the input order in a few places: to reproduce one Pegleg run, pass its
                       files in its order)
  --site NAME          the site NAME of a Pegleg site repository: site/NAME/site-definition.yaml
                       names the site type, then every *.yaml of global/, type/<site_type>/ and
                       site/NAME/ is read (hidden folders' files and anything under a tools/
                       folder left out, as Pegleg does), in sorted path order: each folder's
                       files by name, then its subfolders. Pegleg itself reads them in the order
                       the file system lists them, which differs from machine to machine
  --repo DIR           the site repository (default: the current directory)
  --order FILE         with --site, read the files in the order FILE lists them (one path a
                       line, relative to --repo), as one Pegleg run read them

Options:
  -o, --output FILE    write the rendered documents to FILE (default: stdout); replaced if it
                       exists, its directory must exist; it may not be one of the inputs
${REPORT_HELP}

Examples:
  armada-cdk render --site seaworthy --repo treasuremap > rendered.yaml
  armada-cdk render --site seaworthy --repo treasuremap --order pegleg-order.txt -o rendered.yaml
  armada-cdk validate --site seaworthy --repo treasuremap
`;

export async function run(argv: string[], io: CliIo): Promise<number> {
  const args = parse('render', argv, { site: { type: 'string' }, repo: { type: 'string' }, order: { type: 'string' }, output: { type: 'string', short: 'o' }, ...REPORT_OPTIONS });
  if (args.values.help) return io.stdout.write(HELP), EXIT.OK;
  const site = str(args, 'site');
  if (site === undefined && (str(args, 'repo') !== undefined || str(args, 'order') !== undefined)) throw new UsageError(`--${str(args, 'repo') !== undefined ? 'repo' : 'order'} goes with a --site; give --site NAME too`, 'render');
  if (site !== undefined && args.positionals.length > 0) throw new UsageError("--site reads the site's own files; received files too: give one or the other", 'render');
  if (site === undefined && args.positionals.length === 0) throw new UsageError('no input: give the site files, or --site NAME', 'render');
  if (args.positionals.includes('-')) throw new UsageError('render reads files (a site is many files, read in order): - (stdin) is not one', 'render');
  const out = str(args, 'output');
  if (out !== undefined && out !== '-') checkOutputNotInput(io.cwd, `-o ${out}`, checkOutputFile(io.cwd, out, 'render'), args.positionals, 'render');
  const report = reportOptions(args, 'render');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the engine loads for this command only
  const { renderSite, renderSiteFiles } = require('../../pegleg/render-site') as typeof import('../../pegleg/render-site');
  const r = site !== undefined ? await renderSite(path.resolve(io.cwd, str(args, 'repo') ?? '.'), site, { order: orderOf(args, io, 'render') }) : await renderSiteFiles(args.positionals);
  const ok = !hasErrors(r.diagnostics) && !tooManyWarnings(r.diagnostics, report);
  await printReport(io, r.diagnostics, report, hasErrors(r.diagnostics) ? 'not rendered' : `rendered ${plural(r.rendered.length, 'document')} from ${plural(r.files.length, 'file')}`);
  if (!ok) return EXIT.INVALID;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { dumpAllLikePyYaml } = require('../../pegleg/pyyaml-dump') as typeof import('../../pegleg/pyyaml-dump');
  const text = dumpAllLikePyYaml(r.rendered.map((d) => d.raw));
  if (out === undefined || out === '-') io.stdout.write(text);
  else await writeFilesAtomically(planFileOutput(io.cwd, out, text, 'render'), () => out);
  return EXIT.OK;
}

