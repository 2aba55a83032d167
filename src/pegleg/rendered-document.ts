/**
 * A document Deckhand rendered, as the loader's documents are seen by the rest of armada-cdk:
 * its diagnostics point into the site file it came from (a path the rendering put there, from a
 * parent or a substitution, is placed at the deepest part of it the file has).
 */
import type { LoadedDocument } from '../importer/load';
import { formatPosition, SourcePosition, WirePath } from '../importer/load/wire-path';
import type { RenderedDocument } from './engine';
import type { SourcePlace } from './load-site';

export class RenderedSiteDocument implements LoadedDocument {
  public readonly file: string;
  public readonly index: number;
  public readonly startLine: number;
  public readonly schema?: string | undefined;
  public readonly name?: string | undefined;
  public readonly data: unknown;
  public readonly raw: Record<string, unknown>;
  public readonly label: string;

  constructor(
    rendered: RenderedDocument,
    private readonly place: SourcePlace | undefined,
  ) {
    // Keys sorted as in Pegleg's output, so that a site rendered here reads exactly as its
    // rendered.yaml does (key order reaches the targets' output).
    this.raw = sortedCopy(rendered.raw, new Map()) as Record<string, unknown>;
    this.file = rendered.origin.file;
    this.index = place?.doc.index ?? 0;
    this.startLine = rendered.origin.line;
    if (typeof this.raw.schema === 'string') this.schema = this.raw.schema;
    const md = this.raw.metadata;
    if (md !== null && typeof md === 'object' && !Array.isArray(md) && typeof (md as Record<string, unknown>).name === 'string') this.name = (md as Record<string, unknown>).name as string;
    this.data = this.raw.data;
    this.label = [this.schema, this.name].filter((s) => s !== undefined).join(' ');
  }

  public locate(path: WirePath = []): SourcePosition {
    if (!this.place) return { line: this.startLine, column: 1 };
    return this.place.doc.locate([...this.place.prefix, ...path]);
  }

  public location(path: WirePath = []): string {
    return formatPosition(this.file, this.locate(path));
  }
}

/** A copy of `v` with every mapping's keys in sorted order; other values shared. */
function sortedCopy(v: unknown, seen: Map<object, unknown>): unknown {
  if (v === null || typeof v !== 'object') return v;
  const done = seen.get(v);
  if (done !== undefined) return done;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const x of v) out.push(sortedCopy(x, seen));
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  const out: Record<string, unknown> = {};
  seen.set(v, out);
  for (const k of Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    Object.defineProperty(out, k, { value: sortedCopy((v as Record<string, unknown>)[k], seen), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
