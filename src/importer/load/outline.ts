/**
 * A line-by-line reading of block-style YAML that finds where keys and sequence items are written,
 * for documents too big for the `yaml` package's AST (its parse of a 50 MB document takes over
 * twenty seconds and more than a gigabyte). It understands block mappings and sequences (compact
 * `- key: v` items included) and skips block scalars, multi-line flow collections and quoted
 * scalars; it does not follow aliases or merge keys, or look inside flow collections, where a
 * path then stops at the deepest part it found. Of a key written twice in one mapping, it looks
 * into the last, which PyYAML keeps, as the AST does. Manifests are written in block style, so
 * this is exact where it matters.
 */
import { DuplicateKey, pathKey, SourcePosition, WirePath } from './wire-path';
import { PyKey, pyKeyOf, plainKeyString } from './pyyaml-schema';

interface Container {
  readonly indent: number;
  readonly kind: 'map' | 'seq';
  readonly path: (string | number)[];
  count: number;
  lastPath: (string | number)[];
  /** Where each key's first copy is, and the key as read. */
  readonly keys?: Map<string, FirstCopy> | undefined;
}

/** Called for each key and item; return `false` to stop the walk. */
type Visitor = (path: (string | number)[], line: number, column: number) => boolean | void;
/** A key's first copy in its mapping; `read.py` is worked out only for a repeated key. */
interface FirstCopy {
  readonly line: number;
  readonly column: number;
  readonly read: { readonly py: PyKey };
}
type DuplicateVisitor = (key: string, path: (string | number)[], first: FirstCopy, line: number, column: number, again: { readonly py: PyKey }) => void;

/**
 * Single lookups walk the document (from its start, as far as the paths they look for) this many
 * times; past that, one walk goes on as far as each lookup needs, remembering every position it
 * passes, so that any number of lookups walks the document once.
 */
const WALKS_BEFORE_INDEX = 4;

/**
 * How many leading parts of `path` are in `found`, each written after the one before: a part
 * written before its parent's (last) copy lies under an earlier copy of a repeated key, which
 * PyYAML drops, so the path ends there.
 */
function partsFound(found: ReadonlyMap<string, SourcePosition>, path: WirePath): number {
  let n = 0;
  for (let parent: SourcePosition | undefined; n < path.length; n++) {
    const at = found.get(pathKey(path.slice(0, n + 1)));
    if (at === undefined || (parent !== undefined && (at.line < parent.line || (at.line === parent.line && at.column < parent.column)))) break;
    parent = at;
  }
  return n;
}

/** The position of `path`, or of its deepest part in `found`. */
function deepest(found: ReadonlyMap<string, SourcePosition>, path: WirePath): SourcePosition | undefined {
  const n = partsFound(found, path);
  return n === 0 ? undefined : found.get(pathKey(path.slice(0, n)));
}

export class BlockOutline {
  constructor(
    private readonly text: string,
    /** 1-based line of the text's first character in its file. */
    private readonly firstLine: number,
    /** The loader found a key written twice in one mapping of the text. @default false */
    private readonly repeatsKeys = false,
  ) {}

  // A report locates its findings one at a time, and one walk each would make thousands of
  // findings in one document quadratic; indexing every position of the document would make a
  // thousand findings near its start cost as much as a million.
  private calls = 0;
  private index: Map<string, SourcePosition> | undefined;
  private resumed: OutlineWalk | undefined;
  /** The line of the last copy of each repeated key, by path (with `repeatsKeys`). */
  private lastCopies: Map<string, number> | undefined;

  /** The position of each path, or of its deepest part that was found (`undefined`: none). */
  public locateMany(paths: readonly WirePath[]): (SourcePosition | undefined)[] {
    if (this.repeatsKeys) {
      // Where each repeated key's last copy is shows only at the end of the text: every lookup
      // shares one walk, which goes past the last copy of each part of its path.
      if (this.lastCopies === undefined) this.duplicateKeys(0);
      const index = (this.index ??= new Map<string, SourcePosition>());
      const walk = (this.resumed ??= new OutlineWalk(this.text, this.firstLine));
      return paths.map((p) => follow(walk, p, index, true, this.lastCopies));
    }
    if (this.index === undefined && ++this.calls <= WALKS_BEFORE_INDEX) {
      if (paths.length !== 1) return this.walkFor(paths);
      const found = new Map<string, SourcePosition>();
      return [follow(new OutlineWalk(this.text, this.firstLine), paths[0], found, false)];
    }
    const index = (this.index ??= new Map<string, SourcePosition>());
    const walk = (this.resumed ??= new OutlineWalk(this.text, this.firstLine));
    return paths.map((p) => follow(walk, p, index, true));
  }

  /** Keys written twice in one block mapping (merge keys aside): the first `limit` of them. */
  public duplicateKeys(limit = Infinity): DuplicateKey[] {
    const out: DuplicateKey[] = [];
    const lastCopies = new Map<string, number>();
    new OutlineWalk(this.text, this.firstLine).run(undefined, (key, path, first, line, column, again) => {
      lastCopies.set(pathKey(path), line);
      if (out.length < limit) out.push({ key, path, first: { line: first.line, column: first.column }, again: { line, column }, firstKey: first.read.py, againKey: again.py });
    });
    // The loader asks for these (to warn) before any position, which can then use them.
    this.lastCopies = lastCopies;
    return out;
  }

  /** One walk from the start that stops once it has passed every path (or their deepest parts). */
  private walkFor(paths: readonly WirePath[]): (SourcePosition | undefined)[] {
    const wanted = new Set<string>();
    const full = new Set<string>();
    for (const p of paths) {
      full.add(pathKey(p));
      for (let i = 1; i <= p.length; i++) wanted.add(pathKey(p.slice(0, i)));
    }
    const found = new Map<string, SourcePosition>();
    let missing = full.size;
    new OutlineWalk(this.text, this.firstLine).run((path, line, column) => {
      const k = pathKey(path);
      if (!wanted.has(k) || found.has(k)) return true;
      found.set(k, { line, column });
      if (full.has(k)) missing--;
      return missing > 0;
    });
    return paths.map((p) => deepest(found, p));
  }
}

/**
 * Walks on until `p`, or until the walk has left the deepest part of `p` it passed: nothing of `p`
 * lies further on. A path inside a flow mapping (`source: {type: tar}`), which this outline does
 * not read, is thus answered at the line after its mapping, not at the end of the document.
 * @param found - positions passed so far (all of them with `keepAll`, else the parts of `p`)
 * @param lastCopies - the lines of repeated keys' last copies (needs `keepAll`), which the walk
 *   passes first: only there is the part of `p` that PyYAML keeps. Without it, the text has none.
 */
function follow(walk: OutlineWalk, p: WirePath, found: Map<string, SourcePosition>, keepAll: boolean, lastCopies?: ReadonlyMap<string, number>): SourcePosition | undefined {
  if (lastCopies !== undefined && lastCopies.size > 0) {
    let reach = 0;
    for (let i = 1; i <= p.length; i++) reach = Math.max(reach, lastCopies.get(pathKey(p.slice(0, i))) ?? 0);
    const record: Visitor = (path, line, column) => void found.set(pathKey(path), { line, column });
    while (walk.lineRead < reach && walk.line(record));
  }
  // How much of p the walk has passed, and whether it is still inside that part.
  let n = partsFound(found, p);
  if (n < p.length) {
    let done = n > 0 && walk.last !== undefined && !startsWith(walk.last, p, n);
    const visit: Visitor = (path, line, column) => {
      if (keepAll) {
        // A repeated key's later copy replaces what an earlier one placed.
        const k = pathKey(path);
        if (lastCopies !== undefined || !found.has(k)) found.set(k, { line, column });
      }
      if (done) return;
      if (n > 0 && !startsWith(path, p, n)) done = true;
      else if (path.length === n + 1 && startsWith(path, p, n + 1)) {
        if (!keepAll) found.set(pathKey(path), { line, column });
        done = ++n === p.length;
      }
    };
    // A line is read to its end, so that a walk can go on from the next one.
    while (!done && walk.line(visit));
  }
  return deepest(found, p);
}

/** Whether the first `n` segments of `path` are those of `p` (an index and its digits alike). */
function startsWith(path: readonly (string | number)[], p: WirePath, n: number): boolean {
  if (path.length < n) return false;
  for (let i = 0; i < n; i++) if (path[i] !== p[i] && String(path[i]) !== String(p[i])) return false;
  return true;
}

/** A walk through the text's lines, which can stop after any line and go on later. */
class OutlineWalk {
  /** The path of the last key or item read. */
  public last: (string | number)[] | undefined;
  /** The line last read, in the file's numbering. */
  public get lineRead(): number {
    return this.lineNo;
  }
  private readonly stack: Container[] = [];
  private pos = 0;
  private lineNo: number;
  private scalarIndent = -1; // inside a block scalar whose parent is at this column
  private flowDepth = 0; // inside a multi-line flow collection
  private quote: string | undefined; // inside a multi-line quoted scalar

  constructor(
    private readonly text: string,
    firstLine: number,
  ) {
    this.lineNo = firstLine - 1;
  }

  /** Every line, until `visit` returns `false`. */
  public run(visit?: Visitor, onDuplicate?: DuplicateVisitor): void {
    while (this.line(visit, onDuplicate));
  }

  /** Reads the next line: `false` when there was none, or when `visit` returned `false`. */
  public line(visit?: Visitor, onDuplicate?: DuplicateVisitor): boolean {
    const text = this.text;
    if (this.pos >= text.length) return false;
    const nl = text.indexOf('\n', this.pos);
    const end = nl < 0 ? text.length : nl;
    const lineStart = this.pos;
    this.pos = end + 1;
    const lineNo = ++this.lineNo;
    let col = 0;
    while (lineStart + col < end && text.charCodeAt(lineStart + col) === 32) col++;
    const first = lineStart + col < end ? text.charCodeAt(lineStart + col) : -1;
    const blank = first === -1 || first === 13;

    if (this.quote !== undefined) {
      if (closesQuote(text, lineStart, end, this.quote) >= 0) this.quote = undefined;
      return true;
    }
    if (this.flowDepth > 0) {
      this.flowDepth += bracketBalance(text, lineStart, end);
      return true;
    }
    if (this.scalarIndent >= 0) {
      if (blank || col > this.scalarIndent) return true;
      this.scalarIndent = -1;
    }
    if (blank || first === 35 /* # */ || (col === 0 && (first === 37 /* % */ || isMarker(text, lineStart, end)))) return true;

    // one line may hold several nested entries: `- - key: value`
    for (let c = col; ; ) {
      const at = lineStart + c;
      const ch = text.charCodeAt(at);
      if (ch === 45 /* - */ && (at + 1 >= end || isBlank(text.charCodeAt(at + 1)))) {
        const seq = this.enter(c, 'seq');
        const path = [...seq.path, seq.count++];
        seq.lastPath = path;
        let next = c + 1;
        while (lineStart + next < end && isBlank(text.charCodeAt(lineStart + next))) next++;
        const inline = lineStart + next < end && text.charCodeAt(lineStart + next) !== 35;
        this.last = path;
        // like the AST: an item is where its content starts
        if (visit && visit(path, lineNo, (inline ? next : c) + 1) === false) return false;
        if (!inline) break;
        const rest = afterValueStart(text, lineStart + next, end);
        if (this.after(rest, c)) break;
        c = next;
        continue;
      }
      const key = readKey(text, at, end);
      if (!key) break;
      const map = this.enter(c, 'map');
      const path = [...map.path, key.name];
      map.lastPath = path;
      if (key.name !== '<<' || key.quoted) {
        const prev = map.keys!.get(key.name);
        if (prev !== undefined) onDuplicate?.(key.name, path, prev, lineNo, c + 1, key);
        else map.keys!.set(key.name, { line: lineNo, column: c + 1, read: key });
      }
      this.last = path;
      if (visit && visit(path, lineNo, c + 1) === false) return false;
      let v = key.end;
      while (v < end && isBlank(text.charCodeAt(v))) v++;
      if (v >= end || text.charCodeAt(v) === 35) break;
      this.after(afterValueStart(text, v, end), c);
      break;
    }
    return true;
  }

  /** Notes what the following lines are inside of; `true` unless an entry follows on the line. */
  private after(rest: ValueStart, c: number): boolean {
    if (rest.kind === 'block') this.scalarIndent = c;
    else if (rest.kind === 'flow') this.flowDepth = rest.depth;
    else if (rest.kind === 'quote') this.quote = rest.quote;
    return rest.kind !== 'content';
  }

  private enter(col: number, kind: 'map' | 'seq'): Container {
    const stack = this.stack;
    while (stack.length > 0 && stack[stack.length - 1].indent > col) stack.pop();
    let top = stack[stack.length - 1];
    if (top && top.indent === col && top.kind !== kind) {
      // `key:` followed by `- item` lines at the key's own indentation
      if (kind === 'seq') top = this.push(col, kind, top.lastPath);
      else {
        stack.pop();
        top = stack[stack.length - 1];
      }
    }
    if (!top || top.indent < col) top = this.push(col, kind, top ? top.lastPath : []);
    return top;
  }

  private push(indent: number, kind: 'map' | 'seq', path: (string | number)[]): Container {
    const c: Container = { indent, kind, path, count: 0, lastPath: path, ...(kind === 'map' ? { keys: new Map<string, FirstCopy>() } : {}) };
    this.stack.push(c);
    return c;
  }
}

type ValueStart = { kind: 'content' } | { kind: 'leaf' } | { kind: 'block' } | { kind: 'flow'; depth: number } | { kind: 'quote'; quote: string };

/** What a value that starts at `at` is, as far as the following lines are concerned. */
function afterValueStart(text: string, at: number, end: number): ValueStart {
  // anchors and tags before the value: `&a`, `!!map`
  while (at < end && (text[at] === '&' || text[at] === '!')) {
    while (at < end && !isBlank(text.charCodeAt(at))) at++;
    while (at < end && isBlank(text.charCodeAt(at))) at++;
  }
  if (at >= end || text.charCodeAt(at) === 35) return { kind: 'leaf' };
  const ch = text[at];
  if (ch === '|' || ch === '>') return { kind: 'block' };
  if (ch === '{' || ch === '[') {
    const depth = bracketBalance(text, at, end);
    return depth > 0 ? { kind: 'flow', depth } : { kind: 'leaf' };
  }
  if (ch === '"' || ch === "'") return closesQuote(text, at + 1, end, ch) >= 0 ? { kind: 'leaf' } : { kind: 'quote', quote: ch };
  // a compact nested entry after `- `: `- key: v` or `- - x`
  if (ch === '-' && (at + 1 >= end || isBlank(text.charCodeAt(at + 1)))) return { kind: 'content' };
  return readKey(text, at, end) ? { kind: 'content' } : { kind: 'leaf' };
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13;
}

function isMarker(text: string, at: number, end: number): boolean {
  const m = text.slice(at, at + 3);
  return (m === '---' || m === '...') && (at + 3 >= end || isBlank(text.charCodeAt(at + 3)));
}

/** A mapping key written at `at` (`name: `, `'quoted': `, `"quoted":`), with where its value starts. */
function readKey(text: string, at: number, end: number): { name: string; quoted: boolean; end: number; readonly py: PyKey } | undefined {
  const ch = text[at];
  if (ch === '"' || ch === "'") {
    const close = closesQuote(text, at + 1, end, ch);
    if (close < 0) return undefined;
    let colon = close + 1;
    while (colon < end && isBlank(text.charCodeAt(colon))) colon++;
    if (text[colon] !== ':' || (colon + 1 < end && !isBlank(text.charCodeAt(colon + 1)))) return undefined;
    const raw = text.slice(at + 1, close);
    let name = raw;
    if (ch === "'") name = raw.replace(/''/g, "'");
    else {
      try {
        name = JSON.parse(`"${raw}"`);
      } catch {
        name = raw;
      }
    }
    return { name, quoted: true, end: colon + 1, get py() { return pyKeyOf(name, text.slice(at, close + 1), false); } };
  }
  if ('{[]},#&*!|>%@`?'.includes(ch)) return undefined;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 58 /* : */ && (i + 1 >= end || isBlank(text.charCodeAt(i + 1)))) {
      const name = text.slice(at, i).trimEnd();
      if (name === '') return undefined;
      return { name: plainKeyString(name), quoted: false, end: i + 1, get py() { return pyKeyOf(name, name, true); } };
    }
    if (c === 35 /* # */ && isBlank(text.charCodeAt(i - 1))) return undefined;
  }
  return undefined;
}

/** Offset of the quote that closes a scalar opened before `from`, or -1 when the line has none. */
function closesQuote(text: string, from: number, end: number, quote: string): number {
  for (let i = from; i < end; i++) {
    const c = text[i];
    if (quote === '"' && c === '\\') i++;
    else if (c === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

/** Opening minus closing brackets on a line, quoted text and comments aside. */
function bracketBalance(text: string, from: number, end: number): number {
  let depth = 0;
  for (let i = from; i < end; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = closesQuote(text, i + 1, end, c);
      if (close < 0) return depth;
      i = close;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '#' && (i === from || isBlank(text.charCodeAt(i - 1)))) break;
  }
  return depth;
}
