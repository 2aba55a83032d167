/**
 * The baseline of the fresh-process CLI benchmark, run as its own process: a js-yaml `loadAll` of
 * one file and a `dump` of every document, written to stdout, as a one-line script would.
 */
import * as fs from 'fs';
import * as yaml from 'js-yaml';

const docs = yaml.loadAll(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(docs.map((d) => yaml.dump(d)).join('---\n'));
