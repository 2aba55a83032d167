import * as yaml from 'js-yaml';
import { Origin } from '../../src/model/diagnostics';
import { InputDocument } from '../../src/model/wire/from-documents';
import { formatWirePath, toWirePath } from '../../src/model/wire/fields';
import { armadaSchema } from '../../src/model/wire/from-documents';
import { SchemaVersion } from '../../src/model/spec';

/** A document origin without positions: `file#index`, with wire field names. */
export class TestDocumentOrigin implements Origin {
  constructor(
    private readonly file: string,
    private readonly index: number,
    private readonly schema: string,
    private readonly name: string,
  ) {}
  public locate(field?: readonly (string | number)[]) {
    const info = armadaSchema(this.schema);
    const wire = field && info ? toWirePath(info.kind, info.version ?? SchemaVersion.V1, field) : undefined;
    return { location: `${this.file}#${this.index}`, document: `${this.schema} ${this.name}`, field: wire && wire.length ? formatWirePath(wire) : undefined };
  }
}

/** Parses a YAML stream into input documents (test helper; the CLI has the real loader). */
export function parseDocuments(text: string, file = 'test.yaml'): InputDocument[] {
  return (yaml.loadAll(text) as any[])
    .map((raw, index) => ({ raw, index }))
    .filter(({ raw }) => raw && typeof raw === 'object' && typeof raw.schema === 'string')
    .map(({ raw, index }) => ({
      schema: raw.schema,
      name: raw.metadata?.name,
      data: raw.data ?? {},
      origin: new TestDocumentOrigin(file, index, raw.schema, raw.metadata?.name),
    }));
}
