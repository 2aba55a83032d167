/**
 * Existing Armada YAML to a validated ManifestSpec, the way `armada apply` reads it: load the
 * streams (PyYAML semantics), apply `--values` files then `--set` overrides, refuse unrendered
 * Deckhand fragments, validate with Armada's own schemas, resolve references (first match wins),
 * then run every semantic rule of the model.
 */
import { Diagnostic } from '../model/diagnostics';
import { ManifestSpec } from '../model/spec';
import { validateManifest } from '../model/validate';
import { armadaSchema, documentsToSpec, InputDocument } from '../model/wire/from-documents';
import { checkLocalChartValues } from '../values-schema/check-charts';
import { ArmadaDocument, loadInputs, LoadedDocument, unrenderedReasons, validateArmadaDocument } from './load';
import { DocumentOrigin } from './origin';
import type { OverridableDocument } from './overrides';
import { cloneJson } from '../model/values';
import { formatWirePath } from '../model/wire/fields';

/** Options of {@link resolveInputs}. */
export interface ResolveInputsOptions {
  /**
   * `--target-manifest`: the manifest to build.
   * @default - the only manifest of the documents
   */
  readonly targetManifest?: string;
  /**
   * `--values` files, applied in order.
   * @default - none
   */
  readonly valuesFiles?: readonly string[];
  /**
   * `--set` expressions, applied after the values files.
   * @default - none
   */
  readonly sets?: readonly string[];
  /**
   * The stream `-` reads.
   * @default process.stdin
   */
  readonly stdin?: NodeJS.ReadableStream;
  /**
   * Skip the values.schema.json check of local charts.
   * @default false
   */
  readonly skipChartSchemas?: boolean;
  /**
   * Told what is going on during a long run (files read so far, then each phase).
   * @default - silent
   */
  readonly onProgress?: (message: string) => void;
}

/** The result: a spec when the documents could be resolved, and every diagnostic found. */
export interface ResolvedInputs {
  readonly spec?: ManifestSpec;
  readonly diagnostics: readonly Diagnostic[];
  /** Every loaded document (Armada or not), in input order. */
  readonly documents: readonly LoadedDocument[];
}

const hasErrors = (ds: readonly Diagnostic[]) => ds.some((d) => d.severity === 'error');

/** Signs of Deckhand that rendered documents keep as well (see resolveInputs). */
const WEAK = new Set(['metadata.substitutions', 'metadata.layeringDefinition.actions']);

export async function resolveInputs(paths: readonly string[], options: ResolveInputsOptions = {}): Promise<ResolvedInputs> {
  const diagnostics: Diagnostic[] = [];
  const progress = options.onProgress ?? (() => undefined);
  const loaded = await loadEach(paths, options.stdin, progress);
  diagnostics.push(...loaded.diagnostics);

  const effective = options.valuesFiles?.length || options.sets?.length ? await applyOverrides(loaded.armada, options, diagnostics) : loaded.armada;

  // Armada needs a whole site: at least one Chart, one ChartGroup and a Manifest.
  const kinds = new Set(effective.map((d) => armadaSchema(d.schema)!.kind));
  const missing = (['Manifest', 'ChartGroup', 'Chart'] as const).filter((k) => !kinds.has(k));
  // Not worth saying when the files could not even be read or parsed.
  if (missing.length > 0 && !hasErrors(diagnostics)) {
    const first = effective[0];
    diagnostics.push({
      severity: 'error',
      location: first ? first.location() : `${loaded.documents[0]?.file ?? paths[0] ?? '<input>'}:1:1`,
      ...(first ? { document: first.label } : {}),
      code: 'unrendered',
      message: `Documents must include at least one of each of [Chart, ChartGroup] and only one Manifest (no ${missing.join(', no ')} here): these look like fragments of an unrendered site; render the site (Deckhand/Pegleg layering and substitution) and pass all of its documents`,
    });
  }

  // Deckhand keeps substitutions and layering actions in the metadata of rendered documents too,
  // so those alone do not prove a fragment: they do when the data also fails Armada's schema.
  // Abstract documents, layering children, replacements and charts without a source are never
  // what Armada is given.
  for (const doc of effective) {
    const schemaErrors = validateArmadaDocument(doc);
    const reasons = unrenderedReasons(doc);
    const strong = reasons.filter((r) => !WEAK.has(r.path.join('.')));
    const fragment = strong.length > 0 || (reasons.length > 0 && schemaErrors.some((d) => d.severity === 'error'));
    if (!fragment) {
      diagnostics.push(...schemaErrors);
      continue;
    }
    const deckhand = reasons.some((r) => r.path[0] === 'metadata');
    diagnostics.push({
      severity: 'error',
      location: doc.location(reasons[0].path),
      document: doc.label,
      field: formatWirePath(reasons[0].path),
      code: 'unrendered',
      message: deckhand
        ? `this document looks like an unrendered Deckhand/Pegleg fragment (${reasons.map((r) => r.message).join('; ')}); Armada reads rendered documents only: render the site (layering and substitution) first`
        : `this document looks unrendered (${reasons.map((r) => r.message).join('; ')}): render the site first, or pass it with --values if it is an override document`,
    });
  }
  if (hasErrors(diagnostics)) return { diagnostics, documents: loaded.documents };

  const inputs: InputDocument[] = effective.map((doc) => {
    const info = armadaSchema(doc.schema)!;
    return { schema: doc.schema, name: doc.name, data: doc.data as Record<string, unknown>, origin: new DocumentOrigin(doc, info.kind, info.version) };
  });
  const { spec, diagnostics: conversion } = documentsToSpec(inputs, { targetManifest: options.targetManifest });
  diagnostics.push(...conversion.all);
  if (!spec) return { diagnostics, documents: loaded.documents };
  progress(`checking manifest ${spec.name} (${spec.charts.length} charts)`);
  diagnostics.push(...validateManifest(spec).all);
  if (!options.skipChartSchemas) diagnostics.push(...checkLocalChartValues(spec));
  return { spec, diagnostics, documents: loaded.documents };
}

/**
 * The documents with `--values` files then `--set` overrides applied. Overrides work on copies;
 * the loaded documents keep their positions for diagnostics, and a document changed by an
 * override is validated with its new data, at its original place.
 */
async function applyOverrides(armada: readonly ArmadaDocument[], options: ResolveInputsOptions, diagnostics: Diagnostic[]): Promise<ArmadaDocument[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { applySets, applyValuesFiles } = require('./overrides') as typeof import('./overrides');
  const copies = new Map<ArmadaDocument, OverridableDocument>();
  const overridable = armada.map((doc) => {
    const o: OverridableDocument = { schema: doc.schema, name: doc.name, data: cloneJson((doc.data ?? {}) as Record<string, unknown>) };
    copies.set(doc, o);
    return o;
  });
  const before = new Map(overridable.map((o) => [o, JSON.stringify(o.data)]));
  if (options.valuesFiles?.length) {
    const ovr = await loadInputs(options.valuesFiles, options.stdin);
    diagnostics.push(...ovr.diagnostics);
    diagnostics.push(...applyValuesFiles(overridable, ovr.armada.map((d) => ({ schema: d.schema, name: d.name, data: d.data, location: d.location() }))));
  }
  if (options.sets?.length) diagnostics.push(...applySets(overridable, options.sets));
  return armada.map((doc) => {
    const o = copies.get(doc)!;
    return before.get(o) === JSON.stringify(o.data) ? doc : withData(doc, o.data);
  });
}

/** Loads the inputs one file at a time, so that a long run can say how far it got. */
async function loadEach(paths: readonly string[], stdin: NodeJS.ReadableStream | undefined, progress: (m: string) => void) {
  if (paths.length < 2) return loadInputs(paths, stdin);
  const all = { documents: [] as LoadedDocument[], armada: [] as ArmadaDocument[], diagnostics: [] as Diagnostic[] };
  for (let i = 0; i < paths.length; i++) {
    progress(`reading ${i + 1}/${paths.length}: ${paths[i]}`);
    const r = await loadInputs([paths[i]], stdin);
    all.documents.push(...r.documents);
    all.armada.push(...r.armada);
    all.diagnostics.push(...r.diagnostics);
  }
  return all;
}

/** The same document (file, positions, label) with overridden data. */
function withData(doc: ArmadaDocument, data: Record<string, unknown>): ArmadaDocument {
  const raw = { ...(doc.raw as Record<string, unknown>), data };
  return {
    file: doc.file,
    index: doc.index,
    startLine: doc.startLine,
    schema: doc.schema,
    name: doc.name,
    data,
    raw,
    label: doc.label,
    locate: (p) => doc.locate(p),
    location: (p) => doc.location(p),
  };
}
