/**
 * Pegleg reads site files with every YAML tag PyYAML's SafeLoader has no constructor for built as
 * `None` (`SafeConstructor.add_multi_constructor('', lambda loader, suffix, node: None)` in
 * `get_rendered_docs`): `!foo bar`, a tagged mapping, `!!python/tuple [1, 2]`, and as a value a
 * plain `=` or `<<` all read as null. Armada's loader refuses such tags, so a file that has them is
 * read again by the same loader told to read them as null: every other value (floats, ints, bools,
 * timestamps, binary, block scalars, merges) is built by the one set of PyYAML resolvers, so a
 * site's documents mean the same whichever way they were read.
 */
import type { Diagnostic } from '../model/diagnostics';
import { LoadedDocument, parseYamlStream } from '../importer/load';

/** The documents of `text`, unknown tags read as null; YAML errors as diagnostics. */
export function parseWithUnknownTagsAsNull(file: string, text: string): { documents: LoadedDocument[]; diagnostics: Diagnostic[] } {
  return parseYamlStream({ file, text }, { unknownTags: 'null' });
}
