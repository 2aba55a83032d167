/**
 * The two cheap text tests that decide whether a chunk's keys need the `yaml` AST, written as
 * scanners: a regex engine tries its pattern at every separator and line break of a
 * many-megabyte site, while these jump with `indexOf` to the few characters a match must contain
 * (a `:`, an opening bracket, a `?`, a `*`) and look around them.
 *
 * Each scanner answers exactly what its pattern below answers for `'\n' + text` (the tests compare
 * them on the corpus and on generated texts); the patterns stay the definition, exported for
 * those tests.
 */

// A plain key PyYAML may not read as a string: YAML 1.1 booleans, null, a number. The leading
// line break stands for a line start (the text is tested after a '\n').
export const NON_STRING_KEY = /[\n\r\u2028\u2029{,?-][ \t]*(?:[yYnN]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|[-+.]?[0-9][0-9a-fA-F_.:xob+-]*)[ \t]*:(?:[ \t]|$)/m;

// Where a key may be a mapping or a sequence: a flow collection opening with another (`{{ x }}`),
// an explicit `? ` key, a flow collection before a block `:`, an alias used as a key (`*m : 1`,
// which may name a collection). Tested after a '\n' like NON_STRING_KEY.
export const MAYBE_COLLECTION_KEY = /[[{][ \t]*[[{]|[\n\r\u2028\u2029][ \t-]*\?(?:[ \t]|$)|[\n\r\u2028\u2029][ \t-]*[[{].*[\]}][ \t]*:(?:[ \t]|$)|(?:[\n\r\u2028\u2029][ \t-]*|[{,][ \t]*)\*[^ \t,\]}]+[ \t]*:(?:[ \t]|$)/m;

const TAB = 9;
const SPACE = 32;
const PLUS = 43;
const COMMA = 44;
const DASH = 45;
const DOT = 46;
const COLON = 58;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const TILDE = 126;

// Character classes by code, for the ASCII range; the two Unicode line breaks are added in cls().
const BLANK = 1; // [ \t]
const BREAK = 2; // the line terminators of `.` and multiline `$`
const KEY_START = 4; // [\n\r\u2028\u2029{,?-]
const LINE_PREFIX = 8; // [ \t-]
const LETTER = 16;
const NUMBER = 32; // [0-9a-fA-F_.:xob+-]
const ASCII_CLASSES = (() => {
  const t = new Uint8Array(128);
  const add = (chars: string, flag: number) => {
    for (const ch of chars) t[ch.charCodeAt(0)] |= flag;
  };
  add(' \t', BLANK | LINE_PREFIX);
  add('\n\r', BREAK | KEY_START);
  add('{,?', KEY_START);
  add('-', KEY_START | LINE_PREFIX | NUMBER);
  add('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', LETTER);
  add('0123456789', NUMBER);
  add('abcdefABCDEF_.:xob+', NUMBER);
  return t;
})();
const cls = (c: number) => (c < 128 ? ASCII_CLASSES[c] : c === 0x2028 || c === 0x2029 ? BREAK | KEY_START : 0);
const isBlank = (c: number) => c === SPACE || c === TAB;
const isBreak = (c: number) => (cls(c) & BREAK) !== 0;
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Is the character at `c` followed by `[ \t]` or multiline `$`? */
function blankOrLineEndAfter(text: string, c: number): boolean {
  if (c + 1 === text.length) return true;
  const next = text.charCodeAt(c + 1);
  return isBlank(next) || isBreak(next);
}

/** Does a line break (or the text's start) end at `i`, after a run of `[ \t-]`? */
function lineStartBefore(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0) {
    const c = cls(text.charCodeAt(j));
    if (!(c & LINE_PREFIX)) return (c & BREAK) !== 0;
    j--;
  }
  return true;
}

/** The NON_STRING_KEY answer. */
export function mayHaveNonStringKey(text: string): boolean {
  for (let c = text.indexOf(':'); c !== -1; c = text.indexOf(':', c + 1)) {
    if (!blankOrLineEndAfter(text, c) || c === 0) continue;
    // The key cannot end in a blank, so it ends where the blanks before the colon begin.
    let e = c;
    let last = text.charCodeAt(c - 1);
    while (isBlank(last)) {
      if (--e === 0) break;
      last = text.charCodeAt(e - 1);
    }
    if (e === 0) continue;
    const k = cls(last);
    if ((k & LETTER && wordKeyEndsAt(text, e, last)) || (k & NUMBER && numberKeyEndsAt(text, e, last)) || (last === TILDE && keyStartsAt(text, e - 1))) return true;
  }
  return false;
}

// The words of two letters or more, by their last two letters.
const WORDS = ['yes', 'Yes', 'YES', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'null', 'Null', 'NULL'];
const WORD_ENDINGS = new Map<number, string[]>();
for (const w of WORDS) {
  const ending = w.charCodeAt(w.length - 2) * 128 + w.charCodeAt(w.length - 1);
  WORD_ENDINGS.set(ending, [...(WORD_ENDINGS.get(ending) ?? []), w]);
}
const ENDS_A_WORD = new Uint8Array(128 * 128);
for (const ending of WORD_ENDINGS.keys()) ENDS_A_WORD[ending] = 1;

/** A word key ending at `e` (no letter can come right before a key, so it is the whole run of letters). */
function wordKeyEndsAt(text: string, e: number, last: number): boolean {
  const pen = e > 1 ? text.charCodeAt(e - 2) : 0;
  if (!(cls(pen) & LETTER)) return (last === 121 || last === 89 || last === 110 || last === 78) && keyStartsAt(text, e - 1); // y Y n N
  const ending = pen * 128 + last;
  if (!ENDS_A_WORD[ending]) return false;
  for (const w of WORD_ENDINGS.get(ending)!) {
    const s = e - w.length;
    if (s >= 0 && text.startsWith(w, s) && keyStartsAt(text, s)) return true;
  }
  return false;
}

/**
 * A number key `[-+.]?[0-9][0-9a-fA-F_.:xob+-]*` ending at `e`: it lies in the run of number
 * characters before `e`, and starts either where the run does or right after a `-` of the run
 * (the only number character that may also come before a key).
 */
function numberKeyEndsAt(text: string, e: number, last: number): boolean {
  let r = e - 1;
  let c = last;
  for (;;) {
    if (c === DASH && numberStartsAt(text, r + 1, e)) return true;
    if (r === 0) break;
    const before = text.charCodeAt(r - 1);
    if (!(cls(before) & NUMBER)) break;
    r--;
    c = before;
  }
  return (isDigit(c) || ((c === DASH || c === PLUS || c === DOT) && r + 1 < e && isDigit(text.charCodeAt(r + 1)))) && keyStartsAt(text, r);
}

/** Does `[-+.]?[0-9]` begin at `k`, before `e`? */
function numberStartsAt(text: string, k: number, e: number): boolean {
  if (k >= e) return false;
  const c = text.charCodeAt(k);
  if (isDigit(c)) return true;
  return (c === DASH || c === PLUS || c === DOT) && k + 1 < e && isDigit(text.charCodeAt(k + 1));
}

/** `[\n\r\u2028\u2029{,?-][ \t]*` before `i` (the text's start counts as a line break). */
function keyStartsAt(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && isBlank(text.charCodeAt(j))) j--;
  return j < 0 || (cls(text.charCodeAt(j)) & KEY_START) !== 0;
}

/** The MAYBE_COLLECTION_KEY answer. */
export function mayHaveCollectionKeys(text: string): boolean {
  return flowKeyAfter(text, OPEN_BRACKET) || flowKeyAfter(text, OPEN_BRACE) || hasExplicitKey(text) || hasAliasKey(text);
}

/** `[[{][ \t]*[[{]` and `LB[ \t-]*[[{].*[\]}][ \t]*:(?:[ \t]|$)`, for openers `open`. */
function flowKeyAfter(text: string, open: number): boolean {
  const n = text.length;
  const ch = String.fromCharCode(open);
  for (let o = text.indexOf(ch); o !== -1; o = text.indexOf(ch, o + 1)) {
    let j = o + 1;
    while (j < n && isBlank(text.charCodeAt(j))) j++;
    if (j < n) {
      const c = text.charCodeAt(j);
      if (c === OPEN_BRACKET || c === OPEN_BRACE) return true;
    }
    // Only the first opener of a line can start the second shape: one scan of the line each.
    if (!lineStartBefore(text, o)) continue;
    for (let k = o + 1; k < n; k++) {
      const c = text.charCodeAt(k);
      if (isBreak(c)) break;
      if (c !== CLOSE_BRACKET && c !== CLOSE_BRACE) continue;
      let colon = k + 1;
      while (colon < n && isBlank(text.charCodeAt(colon))) colon++;
      if (colon < n && text.charCodeAt(colon) === COLON && blankOrLineEndAfter(text, colon)) return true;
    }
  }
  return false;
}

/** `LB[ \t-]*\?(?:[ \t]|$)` */
function hasExplicitKey(text: string): boolean {
  for (let q = text.indexOf('?'); q !== -1; q = text.indexOf('?', q + 1)) {
    if (blankOrLineEndAfter(text, q) && lineStartBefore(text, q)) return true;
  }
  return false;
}

/** `(?:LB[ \t-]*|[{,][ \t]*)\*[^ \t,\]}]+[ \t]*:(?:[ \t]|$)` */
function hasAliasKey(text: string): boolean {
  const n = text.length;
  // The name run after a `*` (it may cross lines) ends at `runEnd`; a `*` inside the last run
  // shares it, so each run is read once: its last colon that can end a key, and whether blanks
  // and a key colon follow it.
  let runEnd = -1;
  let lastKeyColon = -1;
  let colonAfterRun = false;
  for (let a = text.indexOf('*'); a !== -1; a = text.indexOf('*', a + 1)) {
    if (!aliasStartsAt(text, a)) continue;
    if (a >= runEnd) {
      lastKeyColon = -1;
      let z = a + 1;
      for (; z < n; z++) {
        const c = text.charCodeAt(z);
        if (isBlank(c) || c === COMMA || c === CLOSE_BRACKET || c === CLOSE_BRACE) break;
        // a colon inside the run ends a key only before a line break (the run's other characters)
        if (c === COLON && z + 1 < n && isBreak(text.charCodeAt(z + 1))) lastKeyColon = z;
      }
      runEnd = z;
      if (z === n || isBlank(text.charCodeAt(z))) {
        if (text.charCodeAt(z - 1) === COLON) lastKeyColon = z - 1;
      }
      colonAfterRun = false;
      if (z < n && isBlank(text.charCodeAt(z))) {
        let c = z;
        while (c < n && isBlank(text.charCodeAt(c))) c++;
        colonAfterRun = c < n && text.charCodeAt(c) === COLON && blankOrLineEndAfter(text, c);
      }
    }
    // the name is one character or more
    if (lastKeyColon >= a + 2 || (colonAfterRun && runEnd >= a + 2)) return true;
  }
  return false;
}

/** `LB[ \t-]*` or `[{,][ \t]*` before the `*` at `a`. */
function aliasStartsAt(text: string, a: number): boolean {
  let j = a - 1;
  while (j >= 0 && isBlank(text.charCodeAt(j))) j--;
  if (j >= 0) {
    const c = text.charCodeAt(j);
    if (c === OPEN_BRACE || c === COMMA) return true;
  }
  return lineStartBefore(text, j + 1);
}
