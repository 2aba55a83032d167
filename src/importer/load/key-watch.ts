/**
 * The two key checks that must know which nodes are keys, read off js-yaml's own parse through its
 * `listener` (called as each node opens and closes), so that they cost no second parse:
 *
 * - a mapping or a sequence used as a key (`{{ .Values.x }}: y`, `? [a, b]`, `*list : z`), which
 *   PyYAML refuses ("found unhashable key") and js-yaml turns into the string "[object Object]";
 * - a simple key longer than PyYAML's limit ({@link PYYAML_MAX_SIMPLE_KEY}).
 *
 * The `yaml` package's AST answered both before, at about 250 bytes of memory per byte of a
 * document of flow collections (16 MB of them ran out of a 4 GB heap). The listener keeps three
 * numbers per open node, and costs a few percent of js-yaml's load.
 *
 * A node is a key, as js-yaml reads it, when it follows an explicit `?`; when it is the first node
 * of an entry of a flow mapping (`{[a]}` is a key without a value); or when a `:` follows it on
 * its line (block mappings, and single-pair mappings in flow sequences). What comes between two
 * sibling nodes (the "gap": blanks, comments, properties and the indicators `{ [ , ? : -`) tells
 * the first two apart.
 */
import { PYYAML_MAX_SIMPLE_KEY } from './pyyaml-keys';
import { isBlank, isFlowIndicator, skipProperties, skipProperty, skipSeparation } from './yaml-text';

/** The part of js-yaml's parser state the listener reads. */
interface WatchedState {
  readonly position: number;
  readonly kind: string | null;
  readonly anchor: string | null;
  readonly documents: readonly unknown[];
}

/** A mapping or a sequence used as a key, at its content (after its anchor or tag). */
export interface CollectionKey {
  readonly offset: number;
  /** A mapping right inside a flow mapping (`{{ x }}`): most likely an unrendered template. */
  readonly template: boolean;
}

/** A simple key longer than PyYAML reads, at its first token (its anchor or tag, if any). */
export interface LongKey {
  readonly offset: number;
  /** From its first token to its `:`, in characters as Python counts them. */
  readonly length: number;
}

const QUESTION = 0x3f;
const COLON = 0x3a;
const BRACE = 0x7b;
const BRACKET = 0x5b;
const COMMA = 0x2c;
const DASH = 0x2d;
const STAR = 0x2a;

/** Collects the collection keys and long keys of every document of one js-yaml load, by document index. */
export class KeyWatch {
  public readonly collectionKeys = new Map<number, CollectionKey[]>();
  public readonly longKeys = new Map<number, LongKey[]>();
  // The open nodes, innermost last, as parallel arrays (no object per node): where each opened,
  // where the gap before it started, and where the gap before its next child starts.
  private readonly opens: number[] = [];
  private readonly gapStarts: number[] = [];
  private readonly gapFroms: number[] = [];
  private depth = 0;
  /** The kind of node each anchor names, in the current document. */
  private anchors = new Map<string, string | null>();
  private document = -1;
  private lastCollectionKey = -1;
  private lastLongKey = -1;

  constructor(
    private readonly text: string,
    private readonly longLines: boolean,
  ) {}

  /** The js-yaml `listener`. */
  public readonly listener = (event: 'open' | 'close', state: WatchedState): void => {
    if (event === 'open') this.open(state);
    else this.close(state);
  };

  private open(state: WatchedState): void {
    if (state.documents.length !== this.document) {
      this.document = state.documents.length;
      this.depth = 0;
      this.anchors = new Map();
    }
    const d = this.depth++;
    this.opens[d] = state.position;
    this.gapStarts[d] = d > 0 ? this.gapFroms[d - 1] : state.position;
    this.gapFroms[d] = state.position;
  }

  private close(state: WatchedState): void {
    if (this.depth === 0) return;
    const d = --this.depth;
    if (d > 0) this.gapFroms[d - 1] = state.position;
    if (state.anchor !== null) this.anchors.set(state.anchor, state.kind);
    const text = this.text;
    const open = this.opens[d];
    const first = skipSeparation(text, open);
    const collection = state.kind === 'mapping' || state.kind === 'sequence';
    // Most nodes are neither a collection nor an alias, and on short lines no key is long.
    if (!collection && text.charCodeAt(first) !== STAR && !this.longLines) return;
    const content = skipProperties(text, first);
    const alias = text.charCodeAt(content) === STAR;
    // An alias's name ends at a blank or a flow indicator; js-yaml's position is past the blanks after it.
    const end = alias ? aliasEnd(text, content + 1) : state.position;
    const kind = alias ? this.anchors.get(text.slice(content + 1, end)) : state.kind;
    const colonAfter = colonFollows(text, end);
    const role = scanGap(text, this.gapStarts[d], open);
    const explicit = role === QUESTION || explicitKeyAt(text, first);
    if (kind === 'mapping' || kind === 'sequence') {
      // In a flow mapping (its content opens with '{'), the first node of an entry is a key.
      const inFlowMapping = d > 0 && (role === BRACE || role === COMMA) && text.charCodeAt(skipProperties(text, skipSeparation(text, this.opens[d - 1]))) === BRACE;
      const key = explicit || (role !== COLON && (inFlowMapping || colonAfter >= 0));
      if (key && content !== this.lastCollectionKey) {
        this.lastCollectionKey = content;
        // Keys inside this one closed before it: like PyYAML's composer, only the outer key counts.
        const list = this.collectionKeys.get(this.document);
        while (list && list.length > 0 && list[list.length - 1].offset > content) list.pop();
        push(this.collectionKeys, this.document, { offset: content, template: kind === 'mapping' && precedingChar(text, content) === BRACE });
      }
    }
    if (this.longLines && colonAfter >= 0 && !explicit && role !== COLON && colonAfter - first > PYYAML_MAX_SIMPLE_KEY && first !== this.lastLongKey) {
      const length = pythonLength(text, first, colonAfter);
      if (length > PYYAML_MAX_SIMPLE_KEY) {
        this.lastLongKey = first;
        push(this.longKeys, this.document, { offset: first, length });
      }
    }
  }
}

function push<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The last indicator in the text between two sibling nodes (or a node's start and its first
 * child): `?`, `:`, `{`, `[`, `,`, `-`, or 0. Comments, blanks and properties (`&anchor`, `!tag`)
 * are skipped.
 */
function scanGap(text: string, from: number, to: number): number {
  let last = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < to && text.charCodeAt(i) !== 0x0a) i++;
    } else if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
      i = skipProperty(text, i) - 1;
    } else if (c === BRACE || c === BRACKET || c === COMMA || c === QUESTION || c === COLON || c === DASH) {
      last = c;
    }
  }
  return last;
}

/** Where an alias name starting at `at` ends (js-yaml: at a blank or a flow indicator). */
function aliasEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && !isBlank(text.charCodeAt(i)) && !isFlowIndicator(text.charCodeAt(i))) i++;
  return i;
}

/** The offset of a `:` after `at` on the same line (blanks between), or -1. */
function colonFollows(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09) i++;
  return text.charCodeAt(i) === COLON ? i : -1;
}

/** The last non-blank character before `at` on its line, as a code, or 0. */
function precedingChar(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  return i >= 0 ? text.charCodeAt(i) : 0;
}

/** Whether the node at `at` is an explicit key: `?` and blanks before it on its line. */
function explicitKeyAt(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i >= 0 && text[i] === '?' && (i === 0 || ' \t\n{[,'.includes(text[i - 1]));
}

/** The characters from `start` to `end` as Python counts them (a surrogate pair is one). */
function pythonLength(text: string, start: number, end: number): number {
  let length = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) length++;
  }
  return length;
}
