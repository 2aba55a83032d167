/**
 * Pegleg reads site files with every YAML tag PyYAML's SafeLoader does not know constructed as
 * `None` (`SafeConstructor.add_multi_constructor('', lambda ...: None)`): `!foo bar`, a tagged
 * mapping or `!!python/tuple [1, 2]` all read as null. Armada's loader refuses such tags, so a
 * file that has them is read here instead, with the YAML 1.1 schema and positions for every path.
 */
import type { Document, LineCounter, Node } from 'yaml';
import { Diagnostic } from '../model/diagnostics';
import type { LoadedDocument } from '../importer/load';
import type { SourcePosition, WirePath } from '../importer/load/wire-path';

const KNOWN = new Set(['str', 'int', 'float', 'bool', 'null', 'binary', 'timestamp', 'omap', 'pairs', 'set', 'seq', 'map', 'merge', 'value'].map((t) => `tag:yaml.org,2002:${t}`));

/** The documents of `text`, unknown tags read as null; YAML errors as diagnostics. */
export function parseWithUnknownTagsAsNull(file: string, text: string): { documents: LoadedDocument[]; diagnostics: Diagnostic[] } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for a file with such tags
  const Y = require('yaml') as typeof import('yaml');
  const lc = new Y.LineCounter();
  const docs = Y.parseAllDocuments(text, { version: '1.1', lineCounter: lc, uniqueKeys: false, merge: true });
  const diagnostics: Diagnostic[] = [];
  const list = Array.isArray(docs) ? docs : [];
  if (!Array.isArray(docs)) diagnostics.push({ severity: 'error', location: `${file}:1:1`, code: 'yaml-syntax', message: 'the file is not a YAML stream' });
  const documents: LoadedDocument[] = [];
  list.forEach((doc, index) => {
    for (const e of doc.errors) {
      const p = lc.linePos(e.pos[0]);
      diagnostics.push({ severity: 'error', location: `${file}:${p.line}:${p.col}`, code: 'yaml-syntax', message: e.message.split('\n')[0] });
    }
    Y.visit(doc, {
      Node(_key, node) {
        const tag = (node as { tag?: string }).tag;
        if (tag !== undefined && tag !== '!' && !KNOWN.has(tag)) return new Y.Scalar(null);
        return undefined;
      },
    });
    const start = lc.linePos(doc.range?.[0] ?? 0);
    documents.push(new TaggedDocument(file, index, start.line, doc.toJS({ maxAliasCount: -1 }) as unknown, doc, lc));
  });
  return { documents, diagnostics };
}

class TaggedDocument implements LoadedDocument {
  public readonly schema?: string | undefined;
  public readonly name?: string | undefined;
  public readonly data: unknown;

  constructor(
    public readonly file: string,
    public readonly index: number,
    public readonly startLine: number,
    public readonly raw: unknown,
    private readonly doc: Document,
    private readonly lc: LineCounter,
  ) {
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      const r = raw as Record<string, unknown>;
      if (typeof r.schema === 'string') this.schema = r.schema;
      const md = r.metadata as Record<string, unknown> | undefined;
      if (md && typeof md === 'object' && typeof md.name === 'string') this.name = md.name;
      this.data = r.data;
    }
  }

  public get label(): string {
    return [this.schema, this.name].filter((s) => s !== undefined).join(' ');
  }

  public locate(path: WirePath = []): SourcePosition {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Y = require('yaml') as typeof import('yaml');
    let node = this.doc.contents as Node | null;
    let at: number = node?.range?.[0] ?? this.doc.range?.[0] ?? 0;
    for (const seg of path) {
      if (Y.isMap(node)) {
        const pair = node.items.find((p) => (Y.isScalar(p.key) ? p.key.value : p.key) === seg || String(Y.isScalar(p.key) ? p.key.value : p.key) === String(seg));
        if (!pair) break;
        at = (pair.key as Node | null)?.range?.[0] ?? at;
        node = pair.value as Node | null;
      } else if (Y.isSeq(node) && typeof seg === 'number' && seg < node.items.length) {
        node = node.items[seg] as Node | null;
        at = node?.range?.[0] ?? at;
      } else break;
    }
    const p = this.lc.linePos(at);
    return { line: p.line, column: p.col };
  }

  public location(path: WirePath = []): string {
    const p = this.locate(path);
    return `${this.file}:${p.line}:${p.column}`;
  }
}
