import { parseInputs } from '../../src/importer/load';
import { renderDocuments, RenderOptions, RenderResult, SourceDocument } from '../../src/deckhand';

/** A LayeringPolicy of `layers`. */
export function policy(layers: string[] = ['global', 'type', 'site'], name = 'layering-policy'): Record<string, unknown> {
  return { schema: 'deckhand/LayeringPolicy/v1', metadata: { schema: 'metadata/Control/v1', name }, data: { layerOrder: layers } };
}

/** Extra metadata of {@link doc}: layering and substitution fields, labels, storage policy. */
export interface DocOptions {
  readonly labels?: Record<string, unknown>;
  readonly parentSelector?: Record<string, unknown>;
  readonly actions?: { method: string; path: string }[];
  readonly abstract?: boolean;
  readonly replacement?: boolean;
  readonly substitutions?: unknown[];
  readonly storagePolicy?: string;
}

/** A `metadata/Document/v1` document. */
export function doc(schema: string, name: string, layer: string, data: unknown, o: DocOptions = {}): Record<string, unknown> {
  return {
    schema,
    metadata: {
      schema: 'metadata/Document/v1',
      name,
      storagePolicy: o.storagePolicy ?? 'cleartext',
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.replacement !== undefined ? { replacement: o.replacement } : {}),
      layeringDefinition: {
        abstract: o.abstract ?? false,
        layer,
        ...(o.parentSelector ? { parentSelector: o.parentSelector } : {}),
        ...(o.actions ? { actions: o.actions } : {}),
      },
      ...(o.substitutions ? { substitutions: o.substitutions } : {}),
    },
    data,
  };
}

/** A substitution of `src` into `dest`. */
export function sub(srcSchema: string, srcName: string, srcPath: string, dest: unknown, srcExtra: Record<string, unknown> = {}): Record<string, unknown> {
  return { src: { schema: srcSchema, name: srcName, path: srcPath, ...srcExtra }, dest: typeof dest === 'string' ? { path: dest } : dest };
}

/** Source documents of `raws`, each "read" at `site.yaml:<n>:1`. */
export function sources(raws: unknown[]): SourceDocument[] {
  return raws.map((raw, i) => ({ raw, origin: { file: 'site.yaml', line: i * 10 + 1, column: 1 } }));
}

/** Renders `raws` (a policy first unless one is given). */
export function render(raws: unknown[], options?: RenderOptions): RenderResult {
  return renderDocuments(sources(raws), options);
}

/** Source documents of a YAML stream, with the loader's positions. */
export function yamlSources(text: string, file = 'site.yaml'): SourceDocument[] {
  const parsed = parseInputs([{ file, text }]);
  return parsed.documents.map((d) => {
    const at = d.locate([]);
    return { raw: d.raw, origin: { file: d.file, line: at.line, column: at.column } };
  });
}

/** The rendered data of the document named `name` (of `schema`, when given). */
export function dataOf(result: RenderResult, name: string, schema?: string): unknown {
  const found = result.documents.filter((d) => (d.raw['metadata'] as any).name === name && (schema === undefined || d.raw['schema'] === schema));
  if (found.length !== 1) throw new Error(`${found.length} rendered documents named ${name}`);
  return found[0]!.raw['data'];
}

/** `schema name` of each rendered document, in order. */
export function names(result: RenderResult): string[] {
  return result.documents.map((d) => `${d.raw['schema']} ${(d.raw['metadata'] as any).name}`);
}

/** The diagnostics as `severity code location: message` lines. */
export function messages(result: RenderResult): string[] {
  return result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.location}: ${d.message}`);
}
