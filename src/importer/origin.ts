import { FieldPath, Origin } from '../model/diagnostics';
import { SchemaVersion } from '../model/spec';
import { DocumentKind, formatWirePath, toWirePath } from '../model/wire/fields';
import { isPlainObject } from '../model/values';
import type { LoadedDocument } from './load';

/**
 * Where a spec object came from in the user's YAML: rules written against the spec (camelCase
 * fields) report `file:line:column`, the document and the wire field (`data.wait.timeout`).
 */
export class DocumentOrigin implements Origin {
  constructor(
    private readonly doc: LoadedDocument,
    private readonly kind: DocumentKind,
    private readonly version: SchemaVersion,
  ) {}

  public documentMetadata(): Readonly<Record<string, unknown>> | undefined {
    const raw = this.doc.raw;
    const metadata = isPlainObject(raw) ? raw.metadata : undefined;
    if (!isPlainObject(metadata)) return undefined;
    const rest = Object.entries(metadata).filter(([k]) => k !== 'schema' && k !== 'name');
    return rest.length > 0 ? Object.fromEntries(rest) : undefined;
  }

  public locate(field?: FieldPath) {
    const wire = field && field.length > 0 ? toWirePath(this.kind, this.version, field) : [];
    return {
      location: this.doc.location(wire),
      document: this.doc.label,
      field: wire.length > 0 ? formatWirePath(wire) : undefined,
    };
  }
}
