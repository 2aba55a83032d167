/**
 * The baseline of the CLI benchmarks: a js-yaml `loadAll` of one file and a `dump` of every
 * document. Run as its own process (the fresh-process benchmark), it writes them to stdout, as a
 * one-line script would.
 */
import * as fs from 'fs';
import * as yaml from 'js-yaml';

/** The floor for reading and writing a file's YAML: js-yaml's `loadAll` and a `dump` of every document. */
export function loadAndDump(file: string): string {
  const docs = yaml.loadAll(fs.readFileSync(file, 'utf8'));
  return docs.map((d) => yaml.dump(d)).join('---\n');
}

if (require.main === module) process.stdout.write(loadAndDump(process.argv[2]));
