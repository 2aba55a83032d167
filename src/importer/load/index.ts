/**
 * Loading Armada YAML the way Armada reads it: files and stdin as UTF-8 text, streams parsed with
 * PyYAML `safe_load_all` semantics, positions for every diagnostic, Armada documents told apart
 * from the Deckhand/Pegleg/Promenade documents they travel with, and Armada's own JSON schemas.
 */
import { Diagnostic } from '../../model/diagnostics';
import { LoadedArmadaDocument, classifyDocuments } from './classify';
import type { LoadedDocument } from './document';
import { parseInputs } from './parse';
import { readInputs, ReadOptions } from './read';
import type { LoadBudget } from './limits';

export { LoadCodes } from './codes';
export type { LoadCode } from './codes';
export type { LoadedDocument } from './document';
export type { SourcePosition, WirePath } from './wire-path';
export type { SourceText } from './source';
export { readInputs } from './read';
export type { ReadOptions, ReadResult } from './read';
export { parseYamlStream, parseInputs } from './parse';
export type { ParseOptions, ParseResult } from './parse';
export { classifyDocuments, isArmadaDocument, armadaSchemaInfo } from './classify';
export type { LoadedArmadaDocument, ArmadaDocumentType, ClassifyResult } from './classify';
export { validateArmadaDocuments, validateArmadaDocument } from './validate';
export { unrenderedReasons } from './unrendered';
export type { UnrenderedReason } from './unrendered';
export { ARMADA_SCHEMAS, isArmadaSchema } from './schemas';
export type { ArmadaSchema } from './schemas';
export { PyTimestamp } from './py-values';
export { pyRepr } from './py-repr';
export type { PyReprOptions } from './py-repr';
export { PYYAML_SAFE_SCHEMA } from './pyyaml-schema';
export { findPackageRoot, armadaSchemaDir } from './package-root';

/** Everything {@link loadInputs} found. */
export interface LoadResult {
  /** Every document of every input, in order. */
  readonly documents: LoadedDocument[];
  /** The Armada documents with a usable envelope. */
  readonly armada: LoadedArmadaDocument[];
  /** The other mappings (Deckhand, Pegleg, ...), which Armada ignores. */
  readonly other: LoadedDocument[];
  /** Read, parse and envelope diagnostics (schema validation is {@link validateArmadaDocuments}). */
  readonly diagnostics: Diagnostic[];
}

/** Options of {@link loadInputs}. */
export interface LoadOptions extends ReadOptions {
  /**
   * The run's count against the limits of `limits.ts`, for a run that loads its inputs one call
   * at a time.
   * @default - a count of this call's own
   */
  readonly budget?: LoadBudget | undefined;
}

/**
 * Reads, parses and classifies the given paths (`-` for stdin) in one go: {@link readInputs},
 * {@link parseInputs}, {@link classifyDocuments}. Never throws for a user mistake.
 *
 * @param stdin the stream `-` reads.
 * @default stdin - `process.stdin`
 */
export async function loadInputs(paths: readonly string[], stdin?: NodeJS.ReadableStream, options: LoadOptions = {}): Promise<LoadResult> {
  const read = await readInputs(paths, stdin, options);
  const parsed = parseInputs(read.inputs, options.budget);
  const classified = classifyDocuments(parsed.documents);
  return {
    documents: parsed.documents,
    armada: classified.armada,
    other: classified.other,
    diagnostics: [...read.diagnostics, ...parsed.diagnostics, ...classified.diagnostics],
  };
}
