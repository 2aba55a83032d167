/**
 * Deckhand's hash of a secret's path, on its own: Pegleg's secret tracking needs it for every
 * stream, and importing it from the substitution engine made every run of the CLI load that
 * engine (JSONPath, layering, Python's regular expressions) and Node's crypto module, most of
 * a small `validate`'s start-up, for an Armada file that has no secret.
 */
import { jsonDumpsString } from './python';

/** Deckhand's `DocumentDict.redact`: sha256 of the JSON text. */
export function redact(value: string): string {
  // Loaded when a path is hashed (a site with encrypted documents), not when the CLI starts.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createHash } = require('crypto') as typeof import('crypto');
  return createHash('sha256').update(jsonDumpsString(value), 'utf8').digest('hex');
}
