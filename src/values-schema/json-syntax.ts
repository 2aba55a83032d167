/**
 * Finds where and why JSON text is invalid. `JSON.parse` reports a character offset at best, and
 * its wording changes between Node versions, so schema files are rescanned on failure to give a
 * stable line:column and a message that says what was found and what was expected.
 */

/** A JSON syntax error: 1-based line and column (UTF-16 code units), and what is wrong. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

class SyntaxFound extends Error {
  constructor(public readonly offset: number, message: string) {
    super(message);
  }
}

/** The first syntax error in `text`, or `undefined` when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    new Scanner(text).document();
    return undefined;
  } catch (e) {
    if (e instanceof SyntaxFound) return { ...lineColumn(text, e.offset), message: e.message };
    // Nesting deep enough to exhaust the stack: no position, but still an answer.
    return { line: 1, column: 1, message: 'nested too deeply to locate the error' };
  }
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  public document(): void {
    this.skipSpace();
    this.value();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(`${this.found()} after the end of the JSON value`);
  }

  private value(): void {
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    this.fail(`${this.found()}; expected a value`);
  }

  private object(): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') {
        this.fail(`${this.found()}; expected a key in double quotes`);
      }
      this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ':') this.fail(`${this.found()}; expected ":" after the key`);
      this.pos++;
      this.skipSpace();
      this.value();
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === '}') {
        this.pos++;
        return;
      }
      if (c !== ',') this.fail(`${this.found()}; expected "," or "}"`);
      this.pos++;
      this.skipSpace();
      if (this.text[this.pos] === '}') this.fail('unexpected "}" after ","; JSON does not allow trailing commas');
    }
  }

  private array(): void {
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (;;) {
      this.value();
      this.skipSpace();
      const c = this.text[this.pos];
      if (c === ']') {
        this.pos++;
        return;
      }
      if (c !== ',') this.fail(`${this.found()}; expected "," or "]"`);
      this.pos++;
      this.skipSpace();
      if (this.text[this.pos] === ']') this.fail('unexpected "]" after ","; JSON does not allow trailing commas');
    }
  }

  private string(): void {
    const start = this.pos;
    this.pos++;
    for (;;) {
      if (this.pos >= this.text.length) this.fail('unterminated string', start);
      const code = this.text.charCodeAt(this.pos);
      if (code === 0x22) {
        this.pos++;
        return;
      }
      if (code < 0x20) this.fail('unescaped control character in a string (use \\n, \\t, ...)');
      if (code === 0x5c) {
        const esc = this.text[this.pos + 1];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
            this.fail('invalid \\u escape; expected four hex digits');
          }
          this.pos += 6;
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) {
          this.fail(`invalid escape "\\${esc ?? ''}" in a string`);
        }
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
  }

  private number(): void {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(this.text.slice(this.pos));
    if (!match || match[0] === '-') this.fail('invalid number');
    this.pos += match[0].length;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos] as string)) this.pos++;
  }

  /** Names what is at the current position, for "unexpected X" messages. */
  private found(): string {
    if (this.pos >= this.text.length) return 'unexpected end of file';
    const rest = this.text.slice(this.pos);
    if (rest.startsWith('//') || rest.startsWith('/*')) return 'unexpected comment (JSON has no comments)';
    if (rest[0] === "'") return "unexpected \"'\" (JSON strings use double quotes)";
    const word = /^[A-Za-z_$][\w$]*/.exec(rest);
    if (word) return `unexpected ${JSON.stringify(word[0])}`;
    return `unexpected ${JSON.stringify(String.fromCodePoint(rest.codePointAt(0) as number))}`;
  }

  private fail(message: string, offset = this.pos): never {
    throw new SyntaxFound(offset, message);
  }
}

/** Where valid JSON text nests deeper than allowed: the bracket that opens one level too many. */
export interface JsonTooDeep {
  readonly line: number;
  readonly column: number;
  /** Keys and indexes from the root to the value that opens the level. */
  readonly path: (string | number)[];
}

/**
 * The first object or array of `text` (valid JSON) that opens nesting level `maxDepth + 1`, or
 * `undefined` when the text nests no deeper than `maxDepth` (the top-level value is level 1).
 * A loop over the characters, not a recursion: the text is too deep for one.
 */
export function findJsonTooDeep(text: string, maxDepth: number): JsonTooDeep | undefined {
  // Each level takes at least two characters (its brackets).
  if (text.length <= 2 * maxDepth) return undefined;
  // One frame per open object or array: its key (or index) so far, and whether a key comes next.
  const frames: { array: boolean; key: string | number; expectKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      const top = frames[frames.length - 1];
      if (top && !top.array && top.expectKey) {
        top.key = JSON.parse(text.slice(start, i + 1)) as string;
        top.expectKey = false;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (frames.length >= maxDepth) return { ...lineColumn(text, i), path: frames.map((f) => f.key) };
      frames.push({ array: c === 0x5b, key: 0, expectKey: c === 0x7b });
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
    } else if (c === 0x2c) {
      const top = frames[frames.length - 1];
      if (top?.array) top.key = (top.key as number) + 1;
      else if (top) top.expectKey = true;
    }
  }
  return undefined;
}
