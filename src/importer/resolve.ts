/**
 * Existing Armada YAML to a validated ManifestSpec, the way `armada apply` reads it: load the
 * streams (PyYAML semantics), apply `--values` files then `--set` overrides, refuse unrendered
 * Deckhand fragments, validate with Armada's own schemas, resolve references (first match wins),
 * then run every semantic rule of the model.
 */
import { validateSite } from '../constructs/validate-site';
import { append } from '../model/append';
import { Diagnostic, hasErrors, isError } from '../model/diagnostics';
import { ManifestSpec } from '../model/spec';
import { assumeJsonTree, isPlainObject } from '../model/values';
import { armadaSchema, documentsToSpec, InputDocument } from '../model/wire/from-documents';
import { LoadedArmadaDocument, isArmadaSchema, loadInputs, LoadedDocument, validateArmadaDocument } from './load';
import { isDeckhandReason, unrenderedInStream } from './load/unrendered';
import { deploymentConfigurationManifest } from '../pegleg/deployment-configuration';
import { DocumentOrigin } from './origin';
import { STDIN_NAME } from './load/read';
import { LoadBudget, MAX_LOAD_FINDINGS, TOO_MANY_FINDINGS } from './load/limits';
import { LoadCodes } from './load/codes';
import type { OverridableDocument, SetWrite } from './overrides';
import { formatWirePath } from '../model/wire/fields';
import { DiagnosticCodes } from '../model/codes';
import { armadaRetypedValues, RetypedSite } from '../model/armada-retyped';

/** Options of {@link resolveInputs}. */
export interface ResolveInputsOptions {
  /**
   * `--target-manifest`: the manifest to build.
   * @default - the only manifest of the documents
   */
  readonly targetManifest?: string | undefined;
  /**
   * `--values` files, applied in order.
   * @default - none
   */
  readonly valuesFiles?: readonly string[] | undefined;
  /**
   * `--set` expressions, applied after the values files.
   * @default - none
   */
  readonly sets?: readonly string[] | undefined;
  /**
   * The stream `-` reads.
   * @default process.stdin
   */
  readonly stdin?: NodeJS.ReadableStream | undefined;
  /**
   * Skip the values.schema.json check of local charts.
   * @default false
   */
  readonly skipChartSchemas?: boolean | undefined;
  /**
   * Told what is going on during a long run (files read so far, then each phase).
   * @default - silent
   */
  readonly onProgress?: ((message: string) => void) | undefined;
  /**
   * Where the site goes, for the wording of the `values-retyped` warnings: off Armada (what Helm
   * received under Armada, which the new target no longer does), or back to Armada as documents
   * (what Helm will receive, whatever the documents' quoting).
   * @default 'moved-off-armada'
   */
  readonly retypedValues?: RetypedSite | undefined;
}

/** The result: a spec when the documents could be resolved, and every diagnostic found. */
export interface ResolvedInputs {
  readonly spec?: ManifestSpec | undefined;
  readonly diagnostics: readonly Diagnostic[];
  /** Every loaded document (Armada or not), in input order. */
  readonly documents: readonly LoadedDocument[];
}

/** Armada ignores the abstract flag and would deploy such a document as written. */
const ABSTRACT = 'metadata.layeringDefinition.abstract';

export async function resolveInputs(paths: readonly string[], options: ResolveInputsOptions = {}): Promise<ResolvedInputs> {
  const progress = options.onProgress ?? (() => undefined);
  const loaded = await loadEach(paths, options.stdin, progress);
  return resolveLoaded(loaded, paths, options);
}

/** Documents loaded already (files, or a site rendered in memory), as a stream in order. */
export interface LoadedInputs {
  /** Every document, in order. */
  readonly documents: readonly LoadedDocument[];
  /** The Armada documents with a usable envelope. */
  readonly armada: readonly LoadedArmadaDocument[];
  /** What loading them found. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * {@link resolveInputs} for documents already loaded. `paths` name the input where no document
 * can (an empty input). Without a target manifest, a `shipyard/DeploymentConfiguration/v1` of the
 * stream names it (`data.armada.manifest`), as Shipyard tells Armada.
 */
export async function resolveLoaded(loaded: LoadedInputs, paths: readonly string[], options: ResolveInputsOptions = {}): Promise<ResolvedInputs> {
  const diagnostics: Diagnostic[] = [];
  const progress = options.onProgress ?? (() => undefined);
  append(diagnostics, nameless(loaded));
  if (options.targetManifest === undefined) {
    const configured = deploymentConfigurationManifest(loaded.documents);
    if (configured !== undefined) options = { ...options, targetManifest: configured };
  }

  // Overrides are loaded and applied only when there are some: without them the loaded documents
  // are the effective ones, and nothing is copied.
  let effective: readonly LoadedArmadaDocument[] = loaded.armada;
  let bySet = (ds: readonly Diagnostic[]): Diagnostic[] => [...ds];
  if (options.valuesFiles?.length || options.sets?.length) {
    ({ effective, bySet } = await applyOverrides(loaded.documents, loaded.armada, options, diagnostics));
  }

  // Armada needs a whole site: at least one Chart, one ChartGroup and a Manifest.
  const kinds = new Set(effective.map((d) => armadaSchema(d.schema)!.kind));
  const missing = (['Manifest', 'ChartGroup', 'Chart'] as const).filter((k) => !kinds.has(k));
  // Not worth saying when the files could not even be read or parsed.
  if (missing.length > 0 && !hasErrors(diagnostics)) {
    const first = effective[0];
    diagnostics.push({
      severity: 'error',
      location: first ? first.location() : `${loaded.documents[0]?.file ?? (paths[0] === '-' ? STDIN_NAME : paths[0]) ?? '<input>'}:1:1`,
      ...(first ? { document: first.label } : {}),
      code: DiagnosticCodes.UNRENDERED,
      message: `Documents must include at least one of each of [Chart, ChartGroup] and only one Manifest (no ${missing.join(', no ')} here): ${
        first || loaded.documents.some((d) => d.schema !== undefined)
          ? 'these look like fragments of an unrendered site; render the site (Deckhand/Pegleg layering and substitution) and pass all of its documents'
          : 'the input holds no documents of a site at all (none with a schema); pass the rendered site (armada/Manifest/v1, armada/ChartGroup/v1 and armada/Chart/v1 documents)'
      }`,
    });
  }

  // Reading that stopped at a limit has said so; the documents read are checked while there is
  // room left.
  const readingStopped = loaded.diagnostics.some((d) => d.code === LoadCodes.INPUT_LIMIT);
  // Errors that leave the site unknown (unreadable input, fragments, a stop) end the run before
  // the rules; a document that fails the schema only leaves itself out of them.
  let blocked = hasErrors(diagnostics);
  const failed = new Set<LoadedArmadaDocument>();
  // Deckhand keeps substitutions and layering actions in the metadata of rendered documents too,
  // so a document is a fragment only where rendering would still change it (unrendered.ts).
  const unrendered = unrenderedInStream(loaded.documents);
  for (const doc of effective) {
    // One past the room left: where the stop is reported.
    const room = MAX_LOAD_FINDINGS - diagnostics.length;
    const schemaErrors = room > 0 ? validateArmadaDocument(doc, room + 1) : [];
    if (room <= 0 || schemaErrors.length > room) {
      append(diagnostics, schemaErrors.slice(0, Math.max(room, 0)));
      if (!readingStopped) diagnostics.push(stoppedChecking(room > 0 ? schemaErrors[room].location : doc.location()));
      blocked = true;
      break;
    }
    // Overrides give a document a copy: its reasons are those of the loaded one.
    const reasons = unrendered.get(doc) ?? (doc.overridden ? loadedAs(loaded.documents, doc, unrendered) : undefined) ?? [];
    if (reasons.length === 0) {
      append(diagnostics, schemaErrors);
      if (schemaErrors.length > 0) failed.add(doc);
      continue;
    }
    const deckhand = reasons.some(isDeckhandReason);
    blocked = true;
    diagnostics.push({
      severity: 'error',
      location: doc.location(reasons[0].path),
      document: doc.label,
      field: formatWirePath(reasons[0].path),
      code: DiagnosticCodes.UNRENDERED,
      message: deckhand
        ? `this document looks like an unrendered Deckhand/Pegleg fragment (${reasons.map((r) => r.message).join('; ')}); Armada reads rendered documents only${reasons.some((r) => r.path.join('.') === ABSTRACT) ? ' (it ignores the abstract flag itself and would deploy this document as written)' : ''}: render the site (layering and substitution) first, with armada-cdk render or the --site option`
        : `this document looks unrendered (${reasons.map((r) => r.message).join('; ')}): render the site first, or pass it with --values if it is an override document`,
    });
  }
  if (blocked) return { diagnostics: bySet(diagnostics), documents: loaded.documents };

  append(diagnostics, manifestsArmadaCannotBuild(effective));
  const inputs: InputDocument[] = effective.map((doc) => (failed.size > 0 && failed.has(doc) ? failedInput(doc) : inputDocument(doc)));
  const { spec, diagnostics: conversion, failed: leftOut } = documentsToSpec(inputs, { targetManifest: options.targetManifest });
  append(diagnostics, conversion.all);
  if (!spec) return { diagnostics: bySet(diagnostics), documents: loaded.documents };
  progress(`checking manifest ${spec.name} (${spec.charts.length} charts)`);
  append(diagnostics, validateSite(spec, { chartSchemas: !options.skipChartSchemas, failed: leftOut }));
  // What Helm receives under Armada from the values (warnings).
  append(diagnostics, armadaRetypedValues(spec, options.retypedValues ?? 'moved-off-armada').all);
  // A site without its failed documents is no site to build: only its findings are returned.
  return { ...(leftOut ? {} : { spec }), diagnostics: bySet(diagnostics), documents: loaded.documents };
}

/**
 * The loader's diagnostics, where a Chart or ChartGroup document without `metadata` or without
 * `metadata.name` is no error: Armada finds charts and groups by `.get('metadata', {}).get('name')`
 * (manifest.py find_chart_document, find_chart_group_document) and checks only their data
 * against its schemas, so such a document is never found and never deployed. It gets a warning
 * and the schema check of its data, as in Armada. A Manifest without a name stays an error
 * (validate_armada_manifests calls `.get('name')` on its metadata).
 */
function nameless(loaded: LoadedInputs): Diagnostic[] {
  const found = loaded.documents.filter(
    (d) => (armadaSchema(d.schema ?? '')?.kind === 'Chart' || armadaSchema(d.schema ?? '')?.kind === 'ChartGroup') && isPlainObject(d.raw) && (!isPlainObject(d.raw.metadata) || !('name' in d.raw.metadata)),
  );
  if (found.length === 0) return [...loaded.diagnostics];
  // Where the loader placed its missing-name error for each of them.
  const at = new Map(found.map((d) => [d.location(isPlainObject((d.raw as Record<string, unknown>).metadata) ? ['metadata'] : []), d]));
  const out: Diagnostic[] = [];
  for (const x of loaded.diagnostics) {
    const doc = x.code === LoadCodes.MISSING_NAME ? at.get(x.location) : undefined;
    if (doc === undefined) {
      out.push(x);
      continue;
    }
    const kind = armadaSchema(doc.schema!)!.kind === 'Chart' ? 'chart' : 'chart group';
    out.push({
      severity: 'warning',
      location: x.location,
      document: doc.label,
      field: 'metadata.name',
      code: DiagnosticCodes.NOT_DEPLOYED,
      message: `${doc.schema} document has no metadata${isPlainObject((doc.raw as Record<string, unknown>).metadata) ? '.name' : ''}, so no ${kind === 'chart' ? 'chart group or chart' : 'manifest'} can list it: Armada finds ${kind}s by name and never deploys this one (it only checks its data against its schema)`,
    });
    append(out, validateArmadaDocument(doc));
  }
  return out;
}

/**
 * The document of schema `schema` without a usable `metadata.name` that Armada's
 * `Override.update_document` reaches before the one named `name` (or before the end): it reads
 * `doc['metadata']['name']` of each document of the schema, so that one makes it fail.
 */
function namelessBeforeMatch(all: readonly LoadedDocument[], schema: string, name: string): LoadedDocument | undefined {
  for (const doc of all) {
    if (doc.schema !== schema || !isPlainObject(doc.raw)) continue;
    const metadata = doc.raw.metadata;
    if (!isPlainObject(metadata) || !('name' in metadata)) return doc;
    if (metadata.name === name) return undefined;
  }
  return undefined;
}

/**
 * Armada manifests whose data is not a mapping. `armada apply` validates the stream first, and
 * that builds every manifest in it (`validate_armada_manifests`): `build_armada_manifest` calls
 * `.get()` on the data and fails with an AttributeError, whichever manifest is the target. The
 * schema (no `type` for a manifest's data) lets a list through.
 */
function manifestsArmadaCannotBuild(docs: readonly LoadedArmadaDocument[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const doc of docs) {
    if (armadaSchema(doc.schema)?.kind !== 'Manifest' || isPlainObject(doc.data) || doc.data === null || doc.data === undefined) continue;
    const type = Array.isArray(doc.data) ? 'list' : typeof doc.data === 'string' ? 'str' : typeof doc.data === 'boolean' ? 'bool' : typeof doc.data === 'number' ? (Number.isInteger(doc.data) ? 'int' : 'float') : 'object';
    out.push({
      severity: 'error',
      location: doc.location(['data']),
      document: doc.label,
      field: 'data',
      code: DiagnosticCodes.ARM001,
      message: `the manifest's data is a ${type}, not a mapping; Armada builds every manifest of the stream when it validates the documents (validate_armada_manifests), and build_armada_manifest fails on this one ('${type}' object has no attribute 'get'), so \`armada apply\` fails whichever manifest is the target`,
    });
  }
  return out;
}

/** The reasons of the loaded document an overridden copy was made from. */
function loadedAs<T>(documents: readonly LoadedDocument[], doc: LoadedDocument, reasons: ReadonlyMap<LoadedDocument, T>): T | undefined {
  if (reasons.size === 0) return undefined;
  const original = documents.find((d) => d.file === doc.file && d.index === doc.index);
  return original && reasons.get(original);
}

function inputDocument(doc: LoadedArmadaDocument): InputDocument {
  const info = armadaSchema(doc.schema)!;
  // Chart values read as they were written need no second walk for non-JSON values.
  if (doc.plainJson) {
    const values = (doc.data as Record<string, unknown>).values;
    if (isPlainObject(values)) assumeJsonTree(values);
  }
  return { schema: doc.schema, name: doc.name, data: doc.data as Record<string, unknown>, origin: new DocumentOrigin(doc, info.kind, info.version) };
}

/** A document that failed Armada's schema: its kind and name count, its data is not read. */
function failedInput(doc: LoadedArmadaDocument): InputDocument {
  const info = armadaSchema(doc.schema)!;
  return { schema: doc.schema, name: doc.name, data: {}, origin: new DocumentOrigin(doc, info.kind, info.version), failed: true };
}

/**
 * For each Armada document, the first document before it in the stream (all inputs, in order,
 * as Armada concatenates them) that is not an Armada document.
 */
function precedingOthers(all: readonly LoadedDocument[], armada: readonly LoadedArmadaDocument[]): Map<LoadedArmadaDocument, { label: string; location: string }[]> {
  const isArmada = new Set<LoadedDocument>(armada);
  const out = new Map<LoadedArmadaDocument, { label: string; location: string }[]>();
  let first: { label: string; location: string } | undefined;
  for (const doc of all) {
    if (isArmada.has(doc)) out.set(doc as LoadedArmadaDocument, first ? [first] : []);
    else if (!first && !isArmadaSchema(doc.schema)) first = { label: doc.label, location: `${doc.file}:${doc.startLine}:1` };
  }
  return out;
}

/**
 * A finding placed at a `--set` argument (its document placed the field there: see
 * `override-trace.ts`) quotes the argument, and an error about the value it wrote says that
 * the value was a string.
 */
function blameSets(ds: readonly Diagnostic[], writes: readonly (SetWrite & { label: string })[]): Diagnostic[] {
  if (writes.length === 0) return [...ds];
  return ds.map((d) => {
    if (d.document === undefined || d.field === undefined) return d;
    const at = /^--set\[(\d+)\]$/.exec(d.location);
    const w = at ? writes.find((x) => x.index === Number(at[1])) : undefined;
    if (!w) return d;
    // The value itself is the string: not a mapping the --set created on the way to it.
    const prefix = formatWirePath(['data', ...w.path]);
    const onValue = w.label === d.document && (d.field === prefix || d.field.startsWith(`${prefix}.`) || d.field.startsWith(`${prefix}[`));
    const note = isError(d) && onValue ? ' (--set values are always strings; put typed values, such as numbers, booleans or mappings, in a --values file)' : '';
    return { severity: d.severity, location: d.location, document: d.document, field: d.field, message: `${w.quoted}: ${d.message}${note}`, code: d.code };
  });
}

/**
 * The documents with `--values` files then `--set` overrides applied. Overrides work on copies;
 * the loaded documents keep their positions for diagnostics. A document changed by an override is
 * validated with its new data, at its original place, and each value an override wrote is placed
 * where that override is.
 */
async function applyOverrides(
  all: readonly LoadedDocument[],
  armada: readonly LoadedArmadaDocument[],
  options: ResolveInputsOptions,
  diagnostics: Diagnostic[],
): Promise<{ effective: LoadedArmadaDocument[]; bySet: (ds: readonly Diagnostic[]) => Diagnostic[] }> {
  // Loaded here, not at start-up: most runs have no overrides.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { applySets, applyValuesFiles, cloneShared, sharedNodes } = require('./overrides') as typeof import('./overrides');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OverriddenDocument, OverrideTrace, valuesSource } = require('./override-trace') as typeof import('./override-trace');
  // Overrides work on copies (which keep the sharing of YAML aliases, as Armada's objects do);
  // the loaded documents keep their positions for diagnostics.
  const others = precedingOthers(all, armada);
  const overridable = armada.map((doc) => {
    const data = cloneShared((doc.data ?? {}) as Record<string, unknown>);
    return { schema: doc.schema, name: doc.name, data, precededBy: others.get(doc), shared: sharedNodes(data), trace: new OverrideTrace() } satisfies OverridableDocument;
  });
  if (options.valuesFiles?.length) {
    const ovr = await loadInputs(options.valuesFiles, options.stdin);
    // Armada never checks override documents against its schemas, and reads their data with
    // `ovr.get('data', {})` (Override.update_document): one without data is no error there.
    // applyValuesFiles says what Armada does with it.
    const dataless = ovr.documents.filter((d) => isArmadaSchema(d.schema) && typeof d.name === 'string' && isPlainObject(d.raw) && (d.raw.data === undefined || d.raw.data === null));
    append(diagnostics, ovr.diagnostics.filter((x) => x.code !== LoadCodes.MISSING_DATA));
    const overrides = [...ovr.armada, ...dataless]
      .sort((a, b) => ovr.documents.indexOf(a) - ovr.documents.indexOf(b))
      .filter((d) => {
        const blocker = namelessBeforeMatch(all, d.schema!, d.name!);
        if (blocker) {
          diagnostics.push({
            severity: 'error',
            location: d.location(),
            document: d.label,
            code: DiagnosticCodes.OVERRIDE,
            message: `Armada looks for this override's document through every ${d.schema} document in stream order and reads doc['metadata']['name'] of each (Override.update_document); ${blocker.label || 'the document'} (${blocker.location()}) has no ${isPlainObject((blocker.raw as Record<string, unknown>).metadata) ? 'metadata.name' : 'metadata'} and comes first, so Armada fails on it (${isPlainObject((blocker.raw as Record<string, unknown>).metadata) ? "KeyError: 'name'" : (blocker.raw as Record<string, unknown>).metadata === undefined ? "KeyError: 'metadata'" : 'TypeError'}): give it a name, or leave it out`,
          });
          return false;
        }
        return true;
      });
    append(
      diagnostics,
      applyValuesFiles(
        overridable,
        overrides.map((d) => ({ schema: d.schema!, name: d.name!, data: isPlainObject(d.raw) && !('data' in d.raw) ? undefined : d.data, location: d.location(dataless.includes(d) && isPlainObject(d.raw) && 'data' in d.raw ? ['data'] : undefined), source: valuesSource(d) })),
      ),
    );
  }
  const writes: SetWrite[] = [];
  if (options.sets?.length) append(diagnostics, applySets(overridable, options.sets, (w) => writes.push(w)));
  const labels = new Map<OverridableDocument, string>(overridable.map((o, i) => [o, armada[i].label]));
  const bySet = (ds: readonly Diagnostic[]) => blameSets(ds, writes.map((w) => ({ ...w, label: labels.get(w.doc)! })));
  // Every change is a write the trace recorded: a document with none is the loaded one.
  const effective = armada.map((doc, i) => {
    const o = overridable[i];
    return o.trace.empty ? doc : new OverriddenDocument(doc, o.data, o.trace);
  });
  return { effective, bySet };
}

/** Loads the inputs one file at a time, so that a long run can say how far it got. */
async function loadEach(paths: readonly string[], stdin: NodeJS.ReadableStream | undefined, progress: (m: string) => void): Promise<LoadedInputs> {
  if (paths.length < 2) return loadInputs(paths, stdin);
  const all = { documents: [] as LoadedDocument[], armada: [] as LoadedArmadaDocument[], diagnostics: [] as Diagnostic[] };
  // One count of documents and findings for the run: the inputs after a stop are not read.
  const budget = new LoadBudget();
  for (let i = 0; i < paths.length && !budget.stopped; i++) {
    progress(`reading ${i + 1}/${paths.length}: ${paths[i]}`);
    const r = await loadInputs([paths[i]], stdin, { budget });
    append(all.documents, r.documents);
    append(all.armada, r.armada);
    append(all.diagnostics, r.diagnostics);
  }
  return all;
}

/** Where the schema check stopped, once the run's findings reached the limit (see `limits.ts`). */
function stoppedChecking(location: string): Diagnostic {
  return {
    severity: 'error',
    location,
    code: LoadCodes.INPUT_LIMIT,
    message: `armada-cdk stopped checking here, and checked nothing after it: ${TOO_MANY_FINDINGS}`,
  };
}
