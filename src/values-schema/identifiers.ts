/** Names and literals for generated TypeScript. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Names a type cannot have, because TypeScript reserves them for its own types or keywords.
const RESERVED_TYPE_NAMES = new Set([
  'any', 'bigint', 'boolean', 'never', 'null', 'number', 'object', 'string', 'symbol', 'undefined',
  'unknown', 'void', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default',
  'delete', 'do', 'else', 'enum', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if',
  'import', 'in', 'instanceof', 'new', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try',
  'typeof', 'var', 'while', 'with', 'implements', 'interface', 'let', 'package', 'private',
  'protected', 'public', 'static', 'yield', 'await', 'type',
]);

/** True for an ASCII identifier, which can be written unquoted as a property name or path key. */
export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text);
}

/** True when `name` can name an exported interface or type alias. */
export function isValidTypeName(name: string): boolean {
  return isIdentifier(name) && !RESERVED_TYPE_NAMES.has(name);
}

/**
 * `db-init` → `DbInit`, `replicaCount` → `ReplicaCount`, `API_KEY` → `ApiKey`. Words keep their
 * inner capitals (camelCase stays readable); words in capitals only are treated as one word.
 */
export function pascalCase(text: string): string {
  return text
    .split(/[^\p{ID_Continue}]+|_+/u)
    .filter((word) => word !== '')
    .map((word) => {
      const cased = word.length > 1 && word === word.toUpperCase() ? word[0] + word.slice(1).toLowerCase() : word;
      return cased.charAt(0).toUpperCase() + cased.slice(1);
    })
    .join('');
}

/** A single-quoted TypeScript string literal. */
export function stringLiteral(text: string): string {
  // JSON.stringify does the escaping (control characters, backslashes); only the quotes differ.
  const body = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${body}'`;
}

/** A property name as written in an interface: bare when it is an identifier, quoted otherwise. */
export function propertyName(key: string): string {
  return isIdentifier(key) ? key : stringLiteral(key);
}

/**
 * Hands out unique type names. A name already taken gets the first free numeric suffix (`Foo2`,
 * `Foo3`, ...), so the outcome depends only on the order of requests, which follows the schema.
 */
export class NameAllocator {
  private readonly taken = new Set<string>();

  public allocate(base: string): string {
    if (!this.taken.has(base)) {
      this.taken.add(base);
      return base;
    }
    for (let n = 2; ; n++) {
      const candidate = `${base}${n}`;
      if (!this.taken.has(candidate)) {
        this.taken.add(candidate);
        return candidate;
      }
    }
  }
}
