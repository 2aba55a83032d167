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
