/**
 * Issue 41, speed: rendering treasuremap v1.9 `seaworthy` (349 files, 423 documents in, 404
 * out) takes Pegleg + Deckhand 10 to 12 s; armada-cdk must read and render it in about half a
 * second. Timed here against reading Deckhand's own output (the 404 rendered documents) with the
 * same loader: rendering the site (349 files to parse instead of one) may cost at most three times that.
 */
import * as fs from 'fs';
import * as path from 'path';
import { renderDocuments, SourceDocument } from '../src/deckhand';
import { parseInputs } from '../src/importer/load';
import type { SourceText } from '../src/importer/load';
import { Benchmark } from './harness';

const SITE = 'tm-v1.9-fca290a--seaworthy';

/** The shared site folder beside the checkout (`../shared/sites/<site>`), from `bench/` or `lib/bench/`. */
function siteDir(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) {
      const site = path.resolve(dir, '..', 'shared', 'sites', SITE);
      if (!fs.existsSync(site)) throw new Error(`the benchmark needs the shared sites beside the checkout (${path.relative(process.cwd(), site)})`);
      return site;
    }
  }
  throw new Error('no package.json above the benchmark');
}

/** The site's files, in the order Pegleg read them, as text. */
export function seaworthyInputs(): { files: SourceText[]; rendered: SourceText } {
  const dir = siteDir();
  const order = fs.readFileSync(path.join(dir, 'order.txt'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  return {
    files: order.map((file) => ({ file, text: fs.readFileSync(path.join(dir, 'tree', file), 'utf8') })),
    rendered: { file: 'rendered.yaml', text: fs.readFileSync(path.join(dir, 'rendered.yaml'), 'utf8') },
  };
}

/** Parses and renders the site as `armada-cdk render` would; throws if Deckhand would refuse it. */
export function renderSite(files: readonly SourceText[]): number {
  const parsed = parseInputs(files);
  const docs: SourceDocument[] = parsed.documents.map((d) => ({ raw: d.raw, origin: { file: d.file, line: d.startLine, column: 1 } }));
  const r = renderDocuments(docs);
  if (r.diagnostics.some((d) => d.severity === 'error') || r.documents.length !== 404) throw new Error('seaworthy did not render as Deckhand renders it');
  return r.documents.length;
}

export function benchmarks(): Benchmark[] {
  let inputs: ReturnType<typeof seaworthyInputs> | undefined;
  return [
    {
      title: 'Deckhand rendering of treasuremap v1.9 seaworthy',
      description: [
        'Input: the 349 files of `../shared/sites/tm-v1.9-fca290a--seaworthy` in the order Pegleg read them (423 documents).',
        'armada-cdk render: the loader (`parseInputs`) and the Deckhand engine (`renderDocuments`: pre-validation, layering, substitution, order), in process; 404 documents out, as Deckhand gives them.',
        "Baseline: the same loader reading Deckhand's own output (`rendered.yaml`, 404 documents), the input armada-cdk validated before it could render.",
        'Pegleg + Deckhand take 10 to 12 s for the same render on this kind of machine; the issue asks for about half a second.',
      ].join('\n'),
      clock: 'cpu',
      repeat: 3,
      setup: () => {
        inputs = seaworthyInputs();
      },
      subject: { name: 'armada-cdk render', run: () => renderSite(inputs!.files) },
      subjects: [
        {
          name: 'renderDocuments alone',
          run: (() => {
            let docs: SourceDocument[] | undefined;
            return () => {
              docs ??= parseInputs(inputs!.files).documents.map((d) => ({ raw: d.raw, origin: { file: d.file, line: d.startLine, column: 1 } }));
              return renderDocuments(docs).documents.length;
            };
          })(),
        },
      ],
      baselines: [{ name: 'load rendered.yaml', run: () => parseInputs([inputs!.rendered]).documents.length }],
      target: { ratio: 3, baseline: 0 },
    },
  ];
}
