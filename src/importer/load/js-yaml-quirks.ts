/**
 * Texts js-yaml reads without an error but differently from PyYAML, found by a cheap scan so that
 * the loader can hand them to its second reader (`yaml-ast-load.ts`) instead.
 */

// An item with no content (`-`, `- &a`, `- # note`), then, past blank and comment lines, a dash
// on a shallower line.
const EMPTY_ITEM_THEN_SHALLOWER_DASH = /^( *)-(?:[ \t]+[&!][^\s]*)*[ \t]*(?:#.*)?\n(?:[ \t]*(?:#.*)?\n)*( *)-(?=[ \t\n]|$)/gm;

/**
 * Whether `text` has an empty sequence item followed by a dash on a shallower line
 * (`- &a\n  -\n- x`): after the empty item js-yaml reads on without checking the indentation, and
 * makes `x` an item of the inner sequence, where PyYAML makes it one of the outer.
 */
export function mayMisreadEmptyItem(text: string): boolean {
  EMPTY_ITEM_THEN_SHALLOWER_DASH.lastIndex = 0;
  for (let m = EMPTY_ITEM_THEN_SHALLOWER_DASH.exec(text); m !== null; m = EMPTY_ITEM_THEN_SHALLOWER_DASH.exec(text)) {
    if (m[2].length < m[1].length) return true;
    // the shallower dash may itself be an empty item: look again from it
    EMPTY_ITEM_THEN_SHALLOWER_DASH.lastIndex = m.index + m[0].length - 1 - m[2].length;
  }
  return false;
}
