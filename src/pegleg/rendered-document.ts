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
    this.raw = rendered.raw;
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
