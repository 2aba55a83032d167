/**
 * How deep Armada can read a document. PyYAML's composer recurses for every level of nesting
 * (`compose_node`, then `compose_mapping_node` or `compose_sequence_node`: two frames), under
 * Python's default limit of 1,000 frames, so `yaml.safe_load_all` raises RecursionError on a
 * document nested more than about 490 collections deep. Measured with PyYAML 6.0.3 from a script's
 * top level: 490 nested block mappings or block sequences load and 491 do not (491 flow mappings
 * and 493 flow sequences still do); Armada calls the loader from deeper in its own stack, so it
 * fails at least as soon.
 */

/** The deepest nesting of mappings and sequences PyYAML reads (the document's own collection is 1). */
export const PYYAML_MAX_DEPTH = 490;

/**
 * The deepest nesting of a chart's values (the values mapping itself is 1) that Armada can read:
 * they sit two levels down in their document (`data.values`). The same bound holds for values
 * defined in TypeScript, whatever the target: a site Armada could not load is not written, and
 * no walk over values can exhaust the stack.
 */
export const MAX_VALUES_DEPTH = PYYAML_MAX_DEPTH - 2;
