import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseYamlStream } from '../../../src/importer/load';
import { documentInternals, LoadedDocument } from '../../../src/importer/load/document';
import { pathKey } from '../../../src/importer/load/wire-path';
import { pyFloatRepr, PyTimestamp } from '../../../src/importer/load/py-values';
import { pyRepr } from '../../../src/importer/load/py-repr';
import { havePythonModule } from '../../helpers/python';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const SHARED = path.resolve(REPO_ROOT, '../shared');
export const CORPUS = path.join(SHARED, 'corpus');

export function corpusFiles(): string[] {
  return fs
    .readdirSync(CORPUS)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}

export function loadCorpusFile(name: string) {
  return parseYamlStream({ file: name, text: fs.readFileSync(path.join(CORPUS, name), 'utf8') });
}

export function parseText(text: string, file = 'test.yaml') {
  return parseYamlStream({ file, text });
}

/** What INDEX.md says about one corpus file. */
export interface IndexEntry {
  readonly file: string;
  /** `[schema, name]` in stream order; empty for the legacy single-document file. */
  readonly documents: [string, string][];
  /** `armada/Chart/v1 blog-1` → the HEAD-schema error messages; `undefined` for "n/a". */
  readonly validation: Map<string, string[]> | undefined;
}

/** Parses the per-file sections of the corpus INDEX.md. */
export function readCorpusIndex(): Map<string, IndexEntry> {
  const text = fs.readFileSync(path.join(CORPUS, 'INDEX.md'), 'utf8');
  const out = new Map<string, IndexEntry>();
  for (const section of text.split(/^### \d+\. /m).slice(1)) {
    const lines = section.split('\n');
    const file = lines[0].trim();
    const docLine = lines.find((l) => l.startsWith('- documents: '))!.slice('- documents: '.length);
    const documents: [string, string][] = [];
    if (!docLine.startsWith('(')) {
      let schema = '';
      for (const token of docLine.split(', ')) {
        const m = /^(\S+\/\S+\/v\d+): (.*)$/.exec(token);
        if (m) {
          schema = m[1];
          documents.push([schema, m[2]]);
        } else documents.push([schema, token]);
      }
    }
    const vi = lines.findIndex((l) => l.startsWith('- validation against armada schemas:'));
    const head = lines[vi].slice('- validation against armada schemas:'.length).trim();
    let validation: Map<string, string[]> | undefined = new Map();
    if (head === 'n/a') validation = undefined;
    else if (head !== 'no errors') {
      for (let i = vi + 1; i < lines.length && lines[i].startsWith('  - '); i++) {
        const m = /^ {2}- (\S+ \S+): HEAD-schema errors: (.*)$/.exec(lines[i])!;
        validation.set(m[1], m[2].split(' | '));
      }
    }
    out.set(file, { file, documents, validation });
  }
  return out;
}

/** Whether `python3` with PyYAML is on this machine; required on CI (see test/helpers/python.ts). */
export function havePyYaml(skippedTests = 1): boolean {
  return havePythonModule('yaml', skippedTests, 'PyYAML');
}

// Dumps every stream with safe_load_all in a form that keeps what JSON would lose: float vs
// int, dates, bytes; errors are returned, not raised.
const PY_DUMP = `
import sys, json, yaml, datetime
def canon(v):
    if v is None or isinstance(v, (bool, str)): return v
    if isinstance(v, int): return v if abs(v) < 2**53 else {"$bigint": str(v)}
    if isinstance(v, float): return {"$float": repr(v)}
    if isinstance(v, datetime.datetime): return {"$datetime": repr(v)}
    if isinstance(v, datetime.date): return {"$date": repr(v)}
    if isinstance(v, bytes): return {"$bytes": repr(v)}
    if isinstance(v, list): return [canon(x) for x in v]
    if isinstance(v, dict): return {key(k): canon(x) for k, x in v.items()}
    return {"$other": repr(v)}
def key(k):
    if k is True: return "true"
    if k is False: return "false"
    if k is None: return "null"
    if isinstance(k, float): return repr(k)
    return str(k)
out = []
for text in json.load(sys.stdin):
    try:
        out.append({"docs": [canon(d) for d in yaml.safe_load_all(text)]})
    except Exception as e:
        out.append({"error": type(e).__name__ + ": " + str(e).splitlines()[0]})
json.dump(out, sys.stdout)
`;

/** PyYAML's `safe_load_all` of each text, in {@link canonical} form. */
export function pyyamlLoadAll(texts: string[]): ({ docs: unknown[] } | { error: string })[] {
  const r = spawnSync('python3', ['-c', PY_DUMP], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A loaded document in the form the Python side prints (floats, dates and bytes tagged). */
export function canonical(doc: LoadedDocument): unknown {
  const specials = documentInternals(doc).specials;
  const walk = (v: unknown, p: (string | number)[]): unknown => {
    if (typeof v === 'bigint') return { $bigint: v.toString() };
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || specials.get(pathKey(p))?.kind === 'float') return { $float: pyFloatRepr(v) };
      return Math.abs(v) < 2 ** 53 ? v : { $bigint: BigInt(v).toString() };
    }
    if (v instanceof PyTimestamp) return { [v.kind === 'date' ? '$date' : '$datetime']: v.pyRepr() };
    if (v instanceof Uint8Array) return { $bytes: pyRepr(v) };
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...p, i]));
    if (v !== null && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      // Defined, not assigned: a `__proto__` key is data, as in PyYAML.
      for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: walk((v as Record<string, unknown>)[k], [...p, k]), enumerable: true, writable: true, configurable: true });
      return o;
    }
    return v;
  };
  return walk(doc.raw, []);
}
