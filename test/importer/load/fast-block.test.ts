/**
 * The block-style fast path must give js-yaml's value exactly or give up: never a value where
 * js-yaml throws, never a value that differs in key order, types, prototypes or the constructors'
 * counts. Every document here is loaded both ways and compared strictly: the corpus, a generated
 * site, a table of edge cases, seeded random documents and mutants of them.
 */
import { execFileSync } from 'child_process';
import { loadBlockDocument } from '../../../src/importer/load/fast-block';
import { jsyaml } from '../../../src/importer/load/js-yaml';
import { ConstructFailure, FloatMarker, PyTimestamp } from '../../../src/importer/load/py-values';
import { constructStats, PYYAML_SAFE_SCHEMA } from '../../../src/importer/load/pyyaml-schema';
import { splitDocuments } from '../../../src/importer/load/source';
import { corpusFiles, readShared, sharedPath } from '../../helpers/shared';
import { strictDiff } from '../../helpers/strict-diff';

interface Outcome {
  /** The fast path returned a value. */
  readonly taken: boolean;
  readonly jsThrew: boolean;
  /** What went wrong, with the text, or undefined. */
  readonly failure?: string | undefined;
}

const snapshot = () => ({ specials: constructStats.specials, merges: constructStats.merges });

/** Loads `text` both ways and says whether the fast path broke its contract. */
function compare(text: string): Outcome {
  const s0 = snapshot();
  let fast: unknown[] | undefined;
  let fastError: unknown;
  try {
    fast = loadBlockDocument(text);
  } catch (e) {
    fastError = e;
  }
  const s1 = snapshot();
  let js: unknown[] | undefined;
  let jsError: unknown;
  try {
    js = jsyaml.loadAll(text, null, { schema: PYYAML_SAFE_SCHEMA });
  } catch (e) {
    jsError = e;
  }
  const s2 = snapshot();
  const jsThrew = jsError !== undefined;
  const fail = (why: string): Outcome => ({ taken: fast !== undefined, jsThrew, failure: `${why}\n  text: ${JSON.stringify(text)}` });
  if (fastError !== undefined) return fail(`the fast path threw ${String(fastError)}`);
  if (fast === undefined) {
    // Giving up must leave no trace: the loader reads the counters around both paths together.
    if (s1.specials !== s0.specials || s1.merges !== s0.merges) return fail(`the fast path gave up but moved the counters by ${s1.specials - s0.specials}/${s1.merges - s0.merges}`);
    return { taken: false, jsThrew };
  }
  if (jsThrew) return fail(`the fast path returned a value where js-yaml throws: ${String((jsError as Error).message).split('\n')[0]}`);
  const d = strictDiff(fast, js);
  if (d !== undefined) return fail(`the values differ at ${d}`);
  const fastMoved = [s1.specials - s0.specials, s1.merges - s0.merges];
  const jsMoved = [s2.specials - s1.specials, s2.merges - s1.merges];
  if (fastMoved[0] !== jsMoved[0] || fastMoved[1] !== jsMoved[1]) return fail(`the counters moved by ${fastMoved.join('/')} on the fast path, ${jsMoved.join('/')} on js-yaml`);
  return { taken: true, jsThrew };
}

/** Compares every text; the failures (at most 20 shown) are the assertion's message. */
function compareAll(texts: Iterable<string>): { compared: number; taken: number; jsThrew: number; failures: string[] } {
  let compared = 0;
  let taken = 0;
  let jsThrew = 0;
  const failures: string[] = [];
  for (const t of texts) {
    const o = compare(t);
    compared++;
    if (o.taken) taken++;
    if (o.jsThrew) jsThrew++;
    if (o.failure !== undefined && failures.length < 20) failures.push(o.failure);
  }
  return { compared, taken, jsThrew, failures };
}

/** The chunks of a stream, cut as the loader cuts them (after the BOM the loader drops). */
function documentTexts(text: string): string[] {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return splitDocuments(t).map((c) => t.slice(c.start, c.end));
}

// ---------------------------------------------------------------------------------------------
// A small seeded PRNG (mulberry32), so that every run compares the same documents.

class Rng {
  constructor(private state: number) {}
  public next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  public int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  public chance(p: number): boolean {
    return this.next() < p;
  }
  public pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
}

const sp = (n: number) => ' '.repeat(n);

describe('strictDiff', () => {
  test('tells apart what deep equality would not', () => {
    expect(strictDiff({ a: 1, b: 2 }, { a: 1, b: 2 })).toBeUndefined();
    expect(strictDiff({ a: 1, b: 2 }, { b: 2, a: 1 })).toContain('keys');
    expect(strictDiff(0, -0)).toBe('$: 0 vs -0');
    expect(strictDiff(NaN, NaN)).toBeUndefined();
    expect(strictDiff(1n, 1)).toContain('bigint');
    expect(strictDiff('1', 1)).toContain('string');
    expect(strictDiff(new FloatMarker(1), new FloatMarker(1))).toBeUndefined();
    expect(strictDiff(new FloatMarker(1), new FloatMarker(2))).toBe('$.value: 1 vs 2');
    expect(strictDiff(new FloatMarker(1), { value: 1 })).toContain('prototypes');
    expect(strictDiff(new ConstructFailure('=', 'x'), new ConstructFailure('=', 'y'))).toContain('$.message');
    expect(strictDiff(new PyTimestamp(2001, 1, 1), new PyTimestamp(2001, 1, 1))).toBeUndefined();
    expect(strictDiff(new PyTimestamp(2001, 1, 1), new PyTimestamp(2001, 1, 2))).toContain('$.day');
    expect(strictDiff({}, Object.create(null))).toContain('prototypes');
    expect(strictDiff([], {})).toContain('prototypes');
    expect(strictDiff([1, [2]], [1, [2]])).toBeUndefined();
    expect(strictDiff([1, [2]], [1, [2, 3]])).toContain('keys');
    const own = {};
    Object.defineProperty(own, 'k', { value: 1, enumerable: false, writable: true, configurable: true });
    expect(strictDiff(own, { k: 1 })).toContain('descriptors');
  });

  test('compare() reports a fast value where js-yaml throws, with the text', () => {
    // A repeated key: js-yaml throws, the fast path gives up, all is well.
    expect(compare('a: 1\na: 2\n')).toEqual({ taken: false, jsThrew: true });
    expect(compare('a: 1\n')).toEqual({ taken: true, jsThrew: false });
  });
});

// ---------------------------------------------------------------------------------------------
// Real and generated manifests

describe('corpus and generated site', () => {
  test('every corpus document', () => {
    const texts = corpusFiles().flatMap(({ file }) => documentTexts(readShared('corpus', file)));
    const r = compareAll(texts);
    expect(r.failures).toEqual([]);
    expect(r.compared).toBeGreaterThan(100);
    // The corpus is mostly plain block style: most of its documents take the fast path.
    expect(r.taken).toBeGreaterThan(r.compared / 2);
  });

  test('every generated-site document takes the fast path and agrees', () => {
    // The generator bench/synth.bench.ts's generatedSite(250) runs, run here directly: that helper
    // finds the shared tools from the compiled benchmarks' folder, not from the sources'.
    const site = execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '250'], { maxBuffer: 1 << 28, encoding: 'utf8' });
    const texts = documentTexts(site);
    const r = compareAll(texts);
    expect(r.failures).toEqual([]);
    expect(r.compared).toBeGreaterThan(250);
    expect(r.taken).toBe(r.compared);
  });
});

// ---------------------------------------------------------------------------------------------
// Edge cases

/** `fast`: the fast path must take it; `slow`: it must give up; `any`: either, if it agrees. */
type Expect = 'fast' | 'slow' | 'any';

const LONG = 'k'.repeat(1100);
const NEAR_LONG = 'k'.repeat(1024);

function nestedMappings(depth: number): string {
  let s = '';
  for (let i = 0; i < depth; i++) s += `${sp(i)}k:\n`;
  return `${s}${sp(depth)}v: 1\n`;
}

function nestedSequences(depth: number): string {
  let s = '';
  for (let i = 0; i < depth; i++) s += `${sp(i)}-\n`;
  return `${s}${sp(depth)}- 1\n`;
}

function nestedCompact(depth: number): string {
  let s = '';
  for (let i = 0; i < depth; i++) s += `${sp(2 * i)}- k:\n`;
  return `${s}${sp(2 * depth)}- 1\n`;
}

const EDGE_CASES: readonly (readonly [string, Expect])[] = [
  // comments
  ['# only a comment\n', 'slow'],
  ['# c\n  # c\n', 'slow'],
  ['a: 1 # trailing\n', 'fast'],
  ['a: 1  #  trailing\nb: 2\n', 'fast'],
  ['a: a#b\n', 'fast'],
  ['a: a #b\n', 'fast'],
  ['a: a# b\n', 'fast'],
  ['a: #c\n  b: 1\n', 'fast'],
  ['a: # c\n  b: 1\n', 'fast'],
  ['a:# c\n', 'any'],
  ['a:#c\n  b: 1\n', 'any'],
  ['# c\na: 1\n# c\n', 'fast'],
  ['a:\n# c at 0\n  b: 1\n', 'fast'],
  ['a:\n    # c deeper\n  b: 1\n', 'fast'],
  ['a:\n  b: 1\n    # c deeper than the scalar\n  c: 2\n', 'any'],
  ['a:\n  b: 1\n  # c level\n  c: 2\n', 'fast'],
  ['a:\n  b: 1\n # c between\nc: 2\n', 'fast'],
  ['- a # c\n- b\n', 'fast'],
  ['- # c\n  a: 1\n', 'fast'],
  ['-# c\n', 'any'],
  ['a: "x" # c\n', 'fast'],
  ["a: 'x' # c\n", 'fast'],
  ['a: "x"# c\n', 'slow'],
  ['a: [] # c\n', 'fast'],
  ['a: []# c\n', 'slow'],
  // blank lines
  ['\n\na: 1\n\n\nb: 2\n\n', 'fast'],
  ['a:\n\n  b: 1\n\n  c: 2\n', 'fast'],
  ['a: 1\n   \nb: 2\n', 'fast'],
  ['a: x\n\n  y\n', 'slow'],
  // markers
  ['---\na: 1\n', 'fast'],
  ['--- # c\na: 1\n', 'fast'],
  ['---   \na: 1\n', 'fast'],
  ['---\na: 1\n...\n', 'any'],
  ['---\n- a\n...\n', 'fast'],
  ['- a\n... # c\n', 'fast'],
  ['- a\n...# c\n', 'slow'],
  ['- a\n...\n- b\n', 'slow'],
  ['  a: 1\n...\n', 'fast'],
  ['---a: 1\n', 'any'],
  ['--- a: 1\n', 'slow'],
  ['--- a\n', 'slow'],
  ['--- |\n  a\n', 'slow'],
  ['---\n', 'slow'],
  ['---\n...\n', 'slow'],
  [' ---\na: 1\n', 'slow'],
  ['a: 1\n---\nb: 2\n', 'slow'],
  ['%YAML 1.1\n---\na: 1\n', 'slow'],
  ['# c\n---\na: 1\n', 'fast'],
  ['a: ---\n', 'fast'],
  ['a: ...\n', 'fast'],
  // indentless sequences
  ['key:\n- a\nother: 1\n', 'fast'],
  ['key:\n- a\n- b\n', 'fast'],
  ['key:\n- a\n  - b\n', 'slow'],
  ['key:\n-\nother: 1\n', 'fast'],
  ['key:\n- a: 1\n  b: 2\nother: 1\n', 'fast'],
  ['a:\n  key:\n  - a\n  other: 1\nb: 2\n', 'fast'],
  ['- a:\n  - x\n  b: 1\n', 'fast'],
  ['- a:\n- x\n', 'fast'],
  ['key:\n - a\nother: 1\n', 'fast'],
  ['key:\n- a\n other: 1\n', 'slow'],
  // compact mappings in sequences
  ['- a: 1\n  b: 2\n', 'fast'],
  ['- a: 1\n  b: 2\n- c: 3\n', 'fast'],
  ['-   a: 1\n    b: 2\n', 'fast'],
  ['- a: 1\n b: 2\n', 'slow'],
  ['- a: 1\n   b: 2\n', 'slow'],
  ['- a:\n    b: 1\n  c: 2\n', 'fast'],
  ['- a:\n  b: 1\n', 'fast'],
  ['- a:\n   b: 1\n', 'any'],
  ['- a: 1\n  - b\n', 'slow'],
  ['- - a\n', 'any'],
  ['- - a: 1\n    b: 2\n', 'any'],
  ['- a:b\n', 'fast'],
  ['- 1:20\n', 'fast'],
  ['- 1: x\n', 'slow'],
  // `-` alone, null items
  ['-\n  a: 1\n', 'fast'],
  ['-\n  - a\n', 'fast'],
  ['-\n- a\n', 'fast'],
  ['-\n-\n', 'fast'],
  ['-\n', 'fast'],
  ['- \n', 'fast'],
  ['-\n  a\n', 'slow'],
  ['-\n    a: 1\n  b: 2\n', 'slow'],
  ['- ~\n- null\n- \n', 'fast'],
  // js-yaml reads a shallower dash after an empty item into the inner sequence ([[null, 'x']])
  ['-\n -\n- x\n', 'slow'],
  ['-\n  - a\n  -\n- x\n', 'slow'],
  ['-\n  -\n  -   # c\n\n# c\n- x\n', 'slow'],
  ['k:\n-\n -\n -\n- x\n', 'slow'],
  ['- k:\n  -\n- x\n', 'slow'],
  ['k:\n  -\nb: 1\n', 'fast'],
  ['-\n  - k:\n- x\n', 'fast'],
  ['-\n  a:\n- x\n', 'fast'],
  // keys with nothing
  ['a:\n', 'fast'],
  ['a:\nb:\n', 'fast'],
  ['a:   \nb: 1\n', 'fast'],
  ['a:\n  b:\n    c:\nd:\n', 'fast'],
  // nested mappings closing to various levels
  ['a:\n  b:\n    c: 1\n  d: 2\ne: 3\n', 'fast'],
  ['a:\n  b:\n    c:\n      d: 1\ne: 2\n', 'fast'],
  ['a:\n  b:\n    c:\n      d: 1\n    e: 2\n  f: 3\ng: 4\n', 'fast'],
  ['a:\n   b:\n      c: 1\n   d: 2\n', 'fast'],
  // bad indentation
  ['a: 1\n b: 2\n', 'slow'],
  ['a:\n  b: 1\n c: 2\n', 'slow'],
  ['a:\n  b: 1\n   c: 2\n', 'slow'],
  ['a:\n    b: 1\n  c: 2\n', 'slow'],
  ['a:\n  b:\n      c: 1\n    d: 2\n', 'slow'],
  ['  a: 1\nb: 2\n', 'slow'],
  ['- a\n - b\n', 'slow'],
  ['- a\n  - b\n', 'slow'],
  ['  - a\n- b\n', 'slow'],
  ['a:\n  - x\n  b: 1\n', 'slow'],
  ['a:\n  - x\n - y\n', 'slow'],
  ['- a\nb: 1\n', 'slow'],
  ['a: 1\n- b\n', 'slow'],
  // keys that are not plain strings
  ...['1', '-1', '+1', 'true', 'True', 'yes', 'no', 'on', 'Off', 'null', 'Null', '~', '<<', '=', '0x1F', '0b1', '0755', '1_000', '1:20', '1.5', '.5', '1e3', '.inf', '.nan', '2001-01-01', '2001-13-01', '2001-01-01 00:00:00', '"q"', "'q'", '? q', 'a b', 'a\u00a0b', '[a]', '{a: 1}', '&x a', '*x', '!t a', '-a', '.a', 'y', 'n', 'Y', 'N', 'é', '日本'].map(
    (k) => [`${k}: v\n`, 'any'] as const,
  ),
  ['__proto__: v\n', 'slow'],
  ['__proto__:\n  a: 1\n', 'slow'],
  ['a:\n  __proto__: 1\n', 'slow'],
  ['constructor: v\n', 'fast'],
  ['hasOwnProperty: v\ntoString: w\nvalueOf:\n', 'fast'],
  ['- constructor: 1\n  __proto__: 2\n', 'slow'],
  ['<<:\n  a: 1\nb: 2\n', 'slow'],
  ['a.b: 1\na-b: 2\na/b: 3\na_b: 4\n', 'fast'],
  ['1a: 1\n', 'fast'],
  ['_: 1\n', 'fast'],
  ['y: 1\nn: 2\n', 'fast'],
  ['a : 1\n', 'slow'],
  ['a:1\n', 'slow'],
  // repeated keys: js-yaml throws
  ['a: 1\na: 2\n', 'slow'],
  ['a:\n  b: 1\n  b: 2\n', 'slow'],
  ['- a: 1\n  a: 2\n', 'slow'],
  ['a: 1\nb:\n  a: 2\n', 'fast'],
  ['constructor: 1\nconstructor: 2\n', 'slow'],
  // scalars
  ...[
    '1', '-1', '+1', '0', '-0', '00', '0755', '-0755', '08', '0o17', '0x1F', '0x1f', '-0x1F', '0x', '0b101', '0b', '0b2', '1_000', '1__0',
    '1:20', '-1:20', '1:20:30', '1:60', '190:20:30.15', '1:20.5', '0:20',
    '1.0', '1.5', '-1.5', '1.', '.5', '1e3', '1.0e3', '1.0e+3', '1.0e-3', '1e+3', '6.8523015e+5', '685.230_15e+03', '685_230.15', '1_0.0',
    '.inf', '-.inf', '+.inf', '.Inf', '.INF', '.iNf', '.nan', '.NaN', '.NAN', '-.nan', 'inf', 'nan', 'NaN',
    '9007199254740991', '9007199254740992', '9007199254740993', '12345678901234567890', '-12345678901234567890', '0x1FFFFFFFFFFFFFFF', '077777777777777777777', '1:0:0:0:0:0:0:0:0:0:0',
    '1e400', '1.0e400', '-1.0e400', '0.0', '-0.0', '1.7976931348623157e+308',
    'true', 'True', 'TRUE', 'tRue', 'false', 'False', 'FALSE', 'yes', 'Yes', 'YES', 'yEs', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF',
    'y', 'Y', 'n', 'N',
    '2001-01-01', '2001-1-1', '2001-13-01', '2001-02-29', '2000-02-29', '2001-04-31', '0000-01-01', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5',
    '2001-12-14 21:59:43.10', '2001-12-15T02:59:43.1Z', '2001-12-15 2:59:43.10', '2001-12-14 25:00:00', '2001-12-14 21:60:00', '2001-12-14 21:00:00 +24:00', '2001-12-14T21:59:43.1234567Z',
    '~', 'null', 'Null', 'NULL', 'nULL', '=', '==', '<<', '<<<', '<', 'a', 'a b', 'a  b', 'a\u00a0', '\u00a0a', 'é', '日本語', '😀', 'x\u2028y',
    '-x', '--', '---', '-.5', '-a b', 'a-', 'a:', 'a:b', 'a::b', 'a : b', 'a:b: c', 'http://x/y?z=1#f', 'a,b', 'a]', 'a}', 'a[b]', 'a{b}', '{{ .Values.x }}', 'a{{ x }}',
    '"a # b"', '"a: b"', "'it''s'", "''''", "'a''", "'''", '""', "''", '"a"b', '"a" b', "'a'b", "'a' b", '"a\\n"', '"a\\"b"', '"a', "'a", '"\'"', '\'"\'',
    '[]', '{}', '[ ]', '{ }', '[a]', '{a: 1}', '[]]', '[] x', '{}x', '[', '{',
    '?', '? a', '?a', ':', ': a', ':a', '&a', '&a b', '*a', '!tag', '!tag a', '!!str 1', '%', '%a', '@', '@a', '`', '`a', '|', '|-', '>', '>-', '#', ',', ',a', 'a #', 'a#',
  ].flatMap((v) => [[`a: ${v}\n`, 'any'] as const, [`- ${v}\n`, 'any'] as const, [`k:\n  - ${v}\n  - z\n`, 'any'] as const]),
  ['a: 1\nb: 1.0\nc: 1e3\nd: .inf\ne: 12345678901234567890\nf: 2001-01-01\ng: 2001-13-01\nh: =\ni: <<\nj: yes\nk: y\n', 'fast'],
  ['a: 1:20\nb: 0755\nc: 0x1F\nd: -0\ne: -0.0\nf: .nan\n', 'fast'],
  // scalars built before giving up (the counters must not move)
  ['a: 1.0\nb: <<\nc: 2001-13-01\nd: =\ne: x\n  y\n', 'slow'],
  ['a: .nan\na: 1\n', 'slow'],
  ['a: ""\nb: \'\'\nc: "a # b"\nd: \'it\'\'s\'\n', 'fast'],
  ['a: "a\\nb"\n', 'slow'],
  ['- "a": b\n', 'slow'],
  ['a: "a": b\n', 'slow'],
  ["- 'a': b\n", 'slow'],
  ['a: b: c\n', 'slow'],
  ['a: b:\n', 'slow'],
  ['a: [a]\n', 'slow'],
  ['a: {a: 1}\n', 'slow'],
  // multi-line scalars
  ['a: x\n  y\n', 'slow'],
  ['a: x\n  y\nb: 1\n', 'slow'],
  ['a: x\n\n  y\n', 'slow'],
  ['a: x\n  # c\n  y\n', 'slow'],
  ['a: x\n    # c\nb: 1\n', 'any'],
  ['- x\n  y\n', 'slow'],
  ['- x\n y\n', 'slow'],
  ['a: "x\n  y"\n', 'slow'],
  ["a: 'x\n  y'\n", 'slow'],
  ['a: |\n  x\n', 'slow'],
  ['a: >\n  x\n', 'slow'],
  ['a: x\n y: 1\n', 'slow'],
  // tabs and CR
  ['a:\t1\n', 'slow'],
  ['a: 1\t\n', 'slow'],
  ['a: 1 #\tc\n', 'slow'],
  ['\ta: 1\n', 'slow'],
  ['a:\n\tb: 1\n', 'slow'],
  ['a: x\ty\n', 'slow'],
  ['a: 1\r\nb: 2\r\n', 'slow'],
  ['a: 1\rb: 2\n', 'slow'],
  ['a: x\ry\n', 'slow'],
  // deep nesting: within the fast path's limit, and far past js-yaml's stack
  [nestedMappings(50), 'fast'],
  [nestedSequences(50), 'fast'],
  [nestedCompact(30), 'fast'],
  [nestedMappings(98), 'fast'],
  [nestedMappings(100), 'slow'],
  [nestedMappings(200), 'slow'],
  [nestedSequences(200), 'slow'],
  [nestedMappings(4000), 'slow'],
  [nestedSequences(5000), 'slow'],
  [nestedCompact(2500), 'slow'],
  // long keys
  [`${LONG}: 1\n`, 'slow'],
  [`${NEAR_LONG}: 1\n`, 'any'],
  [`a: ${LONG}\n`, 'fast'],
  [`- ${LONG}: 1\n`, 'slow'],
  // unicode
  ['a: é\nb: 日本語\nc: 😀\n', 'fast'],
  ['é: 1\n', 'any'],
  ['a: \ufeffx\n', 'any'],
  ['\ufeffa: 1\n', 'any'],
  // trailing spaces everywhere
  ['a: 1   \nb:   \n  c: x y   \n  d: "q"   \n  e:    []   \n- \n', 'slow'],
  ['---   \na: 1   \nb:   \n  c: x y   \n  d: "q"   \n  e:    []   \nf:   \n-   a   \n-   \n...   \n', 'any'],
  ['a:    \n  - x   \n  -   \n  - y: 1   \n    z: 2   \n', 'fast'],
  // documents of other shapes
  ['', 'slow'],
  ['\n\n', 'slow'],
  ['   \n', 'slow'],
  ['# a\n# b\n', 'slow'],
  ['scalar\n', 'slow'],
  ['"scalar"\n', 'slow'],
  ['1\n', 'slow'],
  ['[]\n', 'slow'],
  ['- a\n- b\n', 'fast'],
  ['- a\n- b', 'fast'],
  ['a: 1', 'fast'],
  ['a:', 'fast'],
  ['-', 'fast'],
  ['  - a\n  - b\n', 'fast'],
  ['a: 1\n\n# end\n', 'fast'],
];

describe('edge cases', () => {
  test.each(EDGE_CASES.map(([t, e]) => [JSON.stringify(t.length > 120 ? `${t.slice(0, 117)}...` : t), t, e] as const))('%s', (_, text, expected) => {
    const o = compare(text);
    expect(o.failure).toBeUndefined();
    if (expected === 'fast') expect({ text, taken: o.taken }).toEqual({ text, taken: true });
    if (expected === 'slow') expect({ text, taken: o.taken }).toEqual({ text, taken: false });
  });
});

// ---------------------------------------------------------------------------------------------
// Random documents and mutants

const PLAIN_KEYS = ['a', 'b', 'c', 'name', 'chart_name', 'release', 'namespace', 'values', 'x.y', 'a-b', 'a/b', 'k1', '_k', 'y', 'n', 'constructor', 'toString', 'é'];
const ODD_KEYS = ['1', 'true', 'yes', 'null', '~', '<<', '=', '0x1F', '1.5', '2001-01-01', '__proto__', '"q"', "'q'", 'a b', '-a', '? a', NEAR_LONG, LONG];
const SCALARS = [
  'a', 'hello world', 'x y  z', '1', '-1', '0', '-0', '0755', '08', '0x1F', '0b101', '1_000', '1:20', '1.0', '1.5', '-0.0', '1e3', '1.0e+3', '.inf', '-.inf', '.nan', '12345678901234567890',
  'true', 'False', 'yes', 'No', 'on', 'OFF', 'y', 'n', '2001-01-01', '2001-13-01', '2001-12-14 21:59:43.10 -5', '2001-02-29', '~', 'null', '=', '<<', '-x', 'a#b', 'a:b', 'a,b', 'é', '日本', '😀',
  'http://x/y', '"a # b"', '"a: b"', "'it''s'", '""', "''", '[]', '{}', '[ ]', '[a]', '{a: 1}', '"a\\n"', '{{ .Values.x }}', '*a', '&a b', '!t x', '|', '>', '%x', '@x', '`x', '?x', ':x', 'a:', 'a: b',
];
const COMMENTS = [' # c', '  # c c', ' #', '#x'];

/** A block-style document drawn from the edge-case vocabulary; mostly valid, sometimes not. */
function randomDocument(r: Rng): string {
  const lines: string[] = [];
  const step = r.int(1, 4);
  const odd = r.chance(0.3) ? 0.05 : 0;
  const tail = () => (r.chance(0.1) ? r.pick(COMMENTS) : '') + (r.chance(0.08) ? sp(r.int(1, 3)) : '');
  const key = (used: Set<string>) => {
    let k = r.chance(odd) ? r.pick(ODD_KEYS) : r.pick(PLAIN_KEYS);
    // A repeated key now and then: js-yaml refuses it, the fast path must give up.
    for (let tries = 0; used.has(k) && !r.chance(0.03) && tries < 20; tries++) k = `${r.pick(PLAIN_KEYS)}${r.int(0, 99)}`;
    used.add(k);
    return k;
  };
  const scalar = () => (r.chance(0.85) ? r.pick(SCALARS.slice(0, 48)) : r.pick(SCALARS));

  function mapping(col: number, depth: number, firstPrefix?: string): void {
    const used = new Set<string>();
    const n = r.int(1, depth > 3 ? 2 : 4);
    for (let i = 0; i < n; i++) {
      const prefix = i === 0 && firstPrefix !== undefined ? firstPrefix : sp(col);
      const k = key(used);
      const kind = depth > 4 ? 0 : r.int(0, 5);
      if (kind <= 1) lines.push(`${prefix}${k}: ${scalar()}${tail()}`);
      else if (kind === 2) {
        lines.push(`${prefix}${k}:${tail()}`);
        mapping(col + step, depth + 1);
      } else if (kind === 3) {
        lines.push(`${prefix}${k}:${tail()}`);
        sequence(r.chance(0.5) ? col : col + step, depth + 1);
      } else if (kind === 4) lines.push(`${prefix}${k}:${tail()}`);
      else lines.push(`${prefix}${k}: ${r.pick(['[]', '{}', '""', "''", '~'])}${tail()}`);
    }
  }

  function sequence(col: number, depth: number, firstPrefix?: string): void {
    const n = r.int(1, depth > 3 ? 2 : 4);
    for (let i = 0; i < n; i++) {
      const dash = `${i === 0 && firstPrefix !== undefined ? firstPrefix : sp(col)}-`;
      const kind = depth > 4 ? 0 : r.int(0, 5);
      if (kind <= 1) lines.push(`${dash} ${scalar()}${tail()}`);
      else if (kind === 2) {
        const gap = r.chance(0.8) ? 1 : r.int(2, 3);
        mapping(col + 1 + gap, depth + 1, `${dash}${sp(gap)}`);
      } else if (kind === 3) {
        lines.push(`${dash}${tail()}`);
        if (r.chance(0.5)) mapping(col + step, depth + 1);
        else sequence(col + step, depth + 1);
      } else if (kind === 4) lines.push(`${dash}${tail()}`);
      else lines.push(`${dash} ${r.pick(['[]', '{}', '""', '~'])}${tail()}`);
    }
  }

  if (r.chance(0.2)) lines.push(r.pick(['---', '--- # c', '---  ']));
  const base = r.chance(0.08) ? r.int(1, 3) : 0;
  if (r.chance(0.8)) mapping(base, 0);
  else sequence(base, 0);
  if (r.chance(0.08)) lines.push(r.pick(['...', '... # c']));
  // comments and blank lines between any two lines, at any indentation
  const out: string[] = [];
  for (const l of lines) {
    if (r.chance(0.06)) out.push(r.chance(0.5) ? sp(r.int(0, 3)) : `${sp(r.int(0, 10))}# c`);
    out.push(l);
  }
  return out.join('\n') + (r.chance(0.9) ? '\n' : '');
}

const MUTATION_CHARS = ':-#\'"[]{}&*!|> \n';

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Small random edits. They never split a surrogate pair: the loader's input is decoded text,
 * which has none alone (the caller refuses other unacceptable characters before the fast path).
 */
function mutate(r: Rng, text: string): string {
  let t = text;
  for (let m = r.int(1, 2); m > 0; m--) {
    let at = r.int(0, t.length);
    if (isLowSurrogate(t.charCodeAt(at))) at--;
    const op = r.int(0, 6);
    if (op === 0 && t.length > 0) {
      let i = Math.min(at, t.length - 1);
      if (isLowSurrogate(t.charCodeAt(i))) i--;
      t = t.slice(0, i) + t.slice(i + (isLowSurrogate(t.charCodeAt(i + 1)) ? 2 : 1));
    } else if (op === 1) t = `${t.slice(0, at)}${r.pick([...MUTATION_CHARS])}${t.slice(at)}`;
    else if (op === 2) t = `${t.slice(0, at)} ${t.slice(at)}`;
    else if (op === 3) {
      const i = t.lastIndexOf(' ', at);
      if (i >= 0) t = t.slice(0, i) + t.slice(i + 1);
    } else {
      const lines = t.split('\n');
      const i = r.int(0, lines.length - 1);
      if (op === 4) lines.splice(i, 0, lines[i]);
      else if (op === 5) lines.splice(i, 1);
      else {
        const d = r.pick([-2, -1, 1, 2]);
        lines[i] = d > 0 ? sp(d) + lines[i] : lines[i].replace(new RegExp(`^ {1,${-d}}`), '');
      }
      t = lines.join('\n');
    }
  }
  return t;
}

const LINE_SHAPES = ['-', '- ', '- a', '- 1.0', '- k: v', '- k:', '- k: <<', '-   k: v', 'k:', 'k: v', 'j: 1.0', 'k: []', 'j:  # c', '# c', '', '...', '---', '- - a', '- # c', 'k: v # c', 'a: x y', 'x'];

/**
 * Lines of a few shapes at any indentation: few are valid, and together they try every way
 * block collections can open and close.
 */
function lineSoup(r: Rng): string {
  const lines: string[] = [];
  for (let n = r.int(1, 8); n > 0; n--) {
    const shape = r.pick(LINE_SHAPES);
    // fresh keys, so that most soups are not refused for a repeated key
    lines.push(sp(r.int(0, 6)) + shape.replace(/^(-\s+)?([kj]):/, (_, d: string | undefined, k: string) => `${d ?? ''}${k}${r.int(0, 999)}:`));
  }
  return lines.join('\n') + (r.chance(0.8) ? '\n' : '');
}

describe('random documents', () => {
  const LINE_SOUPS = 20000;

  test(`${LINE_SOUPS} soups of lines agree`, () => {
    const r = new Rng(99);
    const res = compareAll(Array.from({ length: LINE_SOUPS }, () => lineSoup(r)));
    expect(res.failures).toEqual([]);
    expect(res.taken).toBeGreaterThan(LINE_SOUPS / 20);
    expect(res.jsThrew).toBeGreaterThan(LINE_SOUPS / 5);
  });

  const RANDOM_DOCUMENTS = 5000;
  const MUTANTS_PER_DOCUMENT = 8;
  const CORPUS_MUTANTS = 15000;

  test(`${RANDOM_DOCUMENTS} generated documents agree`, () => {
    const r = new Rng(20261203);
    const docs = Array.from({ length: RANDOM_DOCUMENTS }, () => randomDocument(r));
    const res = compareAll(docs);
    expect(res.failures).toEqual([]);
    // The generator mostly writes valid block style: the fast path must take a good share.
    expect(res.taken).toBeGreaterThan(RANDOM_DOCUMENTS / 4);
    expect(res.jsThrew).toBeGreaterThan(0);
  });

  test(`${RANDOM_DOCUMENTS * MUTANTS_PER_DOCUMENT} mutants of generated documents agree`, () => {
    const r = new Rng(7);
    const mutants: string[] = [];
    for (let i = 0; i < RANDOM_DOCUMENTS; i++) {
      const doc = randomDocument(r);
      for (let j = 0; j < MUTANTS_PER_DOCUMENT; j++) mutants.push(mutate(r, doc));
    }
    const res = compareAll(mutants);
    expect(res.failures).toEqual([]);
    // Both sides of the contract are probed: values taken, and errors js-yaml throws.
    expect(res.taken).toBeGreaterThan(res.compared / 10);
    expect(res.jsThrew).toBeGreaterThan(res.compared / 5);
  });

  test(`${CORPUS_MUTANTS} mutants of corpus documents agree`, () => {
    const r = new Rng(42);
    const docs = corpusFiles()
      .flatMap(({ file }) => documentTexts(readShared('corpus', file)))
      .filter((d) => d.length < 6000);
    const mutants = Array.from({ length: CORPUS_MUTANTS }, () => mutate(r, r.pick(docs)));
    const res = compareAll(mutants);
    expect(res.failures).toEqual([]);
    // Both sides of the contract are probed: values taken, and errors js-yaml throws.
    expect(res.taken).toBeGreaterThan(res.compared / 10);
    expect(res.jsThrew).toBeGreaterThan(res.compared / 5);
  });
});
