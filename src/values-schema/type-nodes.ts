/**
 * A small model of the TypeScript types that are generated, so that unions can be flattened and
 * deduplicated and parentheses placed by precedence before anything is printed.
 */
import { propertyName, stringLiteral } from './identifiers';

export type KeywordName = 'string' | 'number' | 'boolean' | 'null' | 'undefined' | 'unknown' | 'never';

export type TypeNode =
  | { readonly kind: 'keyword'; readonly name: KeywordName; readonly comment?: string | undefined }
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'reference'; readonly name: string }
  | { readonly kind: 'array'; readonly element: TypeNode; readonly readonly: boolean }
  | {
      readonly kind: 'tuple';
      readonly elements: readonly { readonly type: TypeNode; readonly optional: boolean }[];
      readonly rest?: TypeNode | undefined;
      readonly readonly: boolean;
    }
  | { readonly kind: 'union'; readonly members: readonly TypeNode[] }
  | { readonly kind: 'intersection'; readonly members: readonly TypeNode[] }
  | { readonly kind: 'object'; readonly members: readonly MemberNode[] };

export type MemberNode =
  | {
      readonly kind: 'property';
      readonly key: string;
      readonly type: TypeNode;
      readonly optional: boolean;
      readonly readonly: boolean;
      readonly doc: readonly string[];
    }
  | { readonly kind: 'index'; readonly type: TypeNode; readonly readonly: boolean; readonly doc: readonly string[] };

export const UNKNOWN: TypeNode = { kind: 'keyword', name: 'unknown' };
export const NEVER: TypeNode = { kind: 'keyword', name: 'never' };

export function keyword(name: KeywordName, comment?: string): TypeNode {
  return comment === undefined ? { kind: 'keyword', name } : { kind: 'keyword', name, comment };
}

/** `unknown`, with a comment saying why nothing more precise was generated. */
export function unsupported(reason: string): TypeNode {
  return keyword('unknown', reason);
}

export function reference(name: string): TypeNode {
  return { kind: 'reference', name };
}

/** A union, flattened and deduplicated; `unknown` absorbs the rest and `never` disappears. */
export function union(members: readonly TypeNode[]): TypeNode {
  const flat: TypeNode[] = [];
  const seen = new Set<string>();
  for (const m of members.flatMap((m) => (m.kind === 'union' ? m.members : [m]))) {
    if (m.kind === 'keyword' && m.name === 'unknown') return m;
    if (m.kind === 'keyword' && m.name === 'never') continue;
    const text = printType(m);
    if (seen.has(text)) continue;
    seen.add(text);
    flat.push(m);
  }
  if (flat.length === 0) return NEVER;
  if (flat.length === 1) return flat[0] as TypeNode;
  return { kind: 'union', members: flat };
}

/** An intersection, flattened and deduplicated; `never` absorbs the rest and `unknown` disappears. */
export function intersection(members: readonly TypeNode[]): TypeNode {
  const flat: TypeNode[] = [];
  const seen = new Set<string>();
  for (const m of members.flatMap((m) => (m.kind === 'intersection' ? m.members : [m]))) {
    if (m.kind === 'keyword' && m.name === 'never') return m;
    if (m.kind === 'keyword' && m.name === 'unknown') continue;
    const text = printType(m);
    if (seen.has(text)) continue;
    seen.add(text);
    flat.push(m);
  }
  if (flat.length === 0) {
    // Keep the reason when every member was an unsupported construct.
    const commented = members.find((m) => m.kind === 'keyword' && m.name === 'unknown' && m.comment);
    return commented ?? UNKNOWN;
  }
  if (flat.length === 1) return flat[0] as TypeNode;
  return { kind: 'intersection', members: flat };
}

/** The TypeScript literal type of a JSON value (`'a'`, `3`, `null`, `[1, 2]`, `{ a: true }`). */
export function jsonLiteral(value: unknown): TypeNode {
  if (value === null) return keyword('null');
  if (typeof value === 'string') return { kind: 'literal', text: stringLiteral(value) };
  if (typeof value === 'number' || typeof value === 'boolean') return { kind: 'literal', text: String(value) };
  if (Array.isArray(value)) {
    return {
      kind: 'tuple',
      elements: value.map((v) => ({ type: jsonLiteral(v), optional: false })),
      readonly: false,
    };
  }
  if (typeof value === 'object') {
    return {
      kind: 'object',
      members: Object.entries(value as Record<string, unknown>).map(([key, v]) => ({
        kind: 'property' as const,
        key,
        type: jsonLiteral(v),
        optional: false,
        readonly: false,
        doc: [],
      })),
    };
  }
  return unsupported('not a JSON value');
}

/** A `/* ... *\/` comment body that cannot end the comment early. */
export function safeComment(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/[\r\n]+/g, ' ');
}

/**
 * Prints a type. `indent` is the indentation of the line the type starts on, used when an object
 * literal type has to span several lines.
 */
export function printType(node: TypeNode, indent = ''): string {
  switch (node.kind) {
    case 'keyword':
      return node.comment === undefined ? node.name : `${node.name} /* ${safeComment(node.comment)} */`;
    case 'literal':
      return node.text;
    case 'reference':
      return node.name;
    case 'array': {
      const element = printType(node.element, indent);
      const wrapped = needsParensAsElement(node.element) ? `(${element})` : element;
      return `${node.readonly ? 'readonly ' : ''}${wrapped}[]`;
    }
    case 'tuple': {
      const parts = node.elements.map((e) => {
        const text = printType(e.type, indent);
        if (!e.optional) return text;
        return `${needsParensAsElement(e.type) ? `(${text})` : text}?`;
      });
      if (node.rest) {
        const rest = printType(node.rest, indent);
        parts.push(`...${needsParensAsElement(node.rest) ? `(${rest})` : rest}[]`);
      }
      return `${node.readonly ? 'readonly ' : ''}[${parts.join(', ')}]`;
    }
    case 'union':
      return node.members
        .map((m) => {
          const text = printType(m, indent);
          // `A & B | C` is correct, but parentheses spare the reader the precedence rules.
          return m.kind === 'intersection' ? `(${text})` : text;
        })
        .join(' | ');
    case 'intersection':
      return node.members
        .map((m) => {
          const text = printType(m, indent);
          return m.kind === 'union' ? `(${text})` : text;
        })
        .join(' & ');
    case 'object':
      return printObjectLiteral(node.members, indent);
  }
}

function needsParensAsElement(node: TypeNode): boolean {
  return node.kind === 'union' || node.kind === 'intersection' || (node.kind === 'keyword' && !!node.comment);
}

const ONE_LINE = 80;

function printObjectLiteral(members: readonly MemberNode[], indent: string): string {
  if (members.length === 0) return '{}';
  const oneLine = flatObject(members, ONE_LINE - indent.length);
  if (oneLine !== undefined) return oneLine;
  const inner = `${indent}  `;
  return `{\n${members.map((m) => printMemberWithDoc(m, inner)).join('\n')}\n${indent}}`;
}

/**
 * An object literal type on one line, `{ a: string; b?: number }`, when it fits in `budget`
 * characters and no member (at any depth) has a doc comment; `undefined` otherwise. Gives up as
 * soon as the budget is spent: trying the one-line form with `printType`, then printing the
 * several-line form, printed each nested literal twice per level, 2^depth times in all.
 */
function flatObject(members: readonly MemberNode[], budget: number): string | undefined {
  if (members.some((m) => m.doc.length > 0)) return undefined;
  let out = '{';
  for (const m of members) {
    const mod = m.readonly ? 'readonly ' : '';
    const head = m.kind === 'index' ? `${mod}[key: string]:` : `${mod}${propertyName(m.key)}${m.optional ? '?' : ''}:`;
    out += ` ${head} `;
    if (out.length > budget) return undefined;
    const type = flatType(m.type, budget - out.length);
    if (type === undefined) return undefined;
    out += `${type};`;
  }
  out += ' }';
  return out.length > budget ? undefined : out.replace(/; }$/, ' }');
}

/** {@link printType} of a type that fits on one line in `budget` characters, or `undefined`. */
function flatType(node: TypeNode, budget: number): string | undefined {
  if (budget < 0) return undefined;
  let out: string;
  switch (node.kind) {
    case 'object':
      return node.members.length === 0 ? (budget >= 2 ? '{}' : undefined) : flatObject(node.members, budget);
    case 'array': {
      const element = flatType(node.element, budget);
      if (element === undefined) return undefined;
      out = `${node.readonly ? 'readonly ' : ''}${needsParensAsElement(node.element) ? `(${element})` : element}[]`;
      break;
    }
    case 'tuple': {
      const parts: string[] = [];
      let used = 0;
      for (const e of node.elements) {
        const text = flatType(e.type, budget - used);
        if (text === undefined) return undefined;
        const part = e.optional ? `${needsParensAsElement(e.type) ? `(${text})` : text}?` : text;
        parts.push(part);
        used += part.length + 2;
      }
      if (node.rest) {
        const rest = flatType(node.rest, budget - used);
        if (rest === undefined) return undefined;
        parts.push(`...${needsParensAsElement(node.rest) ? `(${rest})` : rest}[]`);
      }
      out = `${node.readonly ? 'readonly ' : ''}[${parts.join(', ')}]`;
      break;
    }
    case 'union':
    case 'intersection': {
      const parts: string[] = [];
      let used = 0;
      for (const m of node.members) {
        const text = flatType(m, budget - used);
        if (text === undefined) return undefined;
        const other = node.kind === 'union' ? 'intersection' : 'union';
        const part = m.kind === other ? `(${text})` : text;
        parts.push(part);
        used += part.length + 3;
      }
      out = parts.join(node.kind === 'union' ? ' | ' : ' & ');
      break;
    }
    default:
      out = printType(node);
  }
  return out.length > budget ? undefined : out;
}

const MAX_LINE = 100;

/**
 * A member without its doc comment: `readonly key?: Type;`, with one union member per line when
 * the line would be too long.
 */
export function printMember(member: MemberNode, indent: string): string {
  const mod = member.readonly ? 'readonly ' : '';
  const head = member.kind === 'index' ? `${mod}[key: string]:` : `${mod}${propertyName(member.key)}${member.optional ? '?' : ''}:`;
  const line = `${head} ${printType(member.type, indent)};`;
  if (member.type.kind !== 'union' || indent.length + line.length <= MAX_LINE || line.includes('\n')) return line;
  const inner = `${indent}  `;
  return `${head}\n${member.type.members.map((m) => `${inner}| ${printType(m, inner)}`).join('\n')};`;
}

/** A member with its doc comment, each line indented. */
export function printMemberWithDoc(member: MemberNode, indent: string): string {
  return `${printDoc(member.doc, indent)}${indent}${printMember(member, indent)}`;
}

/** A doc comment (`/** ... *\/`), or nothing for no lines. */
export function printDoc(lines: readonly string[], indent: string): string {
  if (lines.length === 0) return '';
  const safe = lines.map((l) => l.replace(/\*\//g, '*\\/'));
  if (safe.length === 1 && indent.length + (safe[0] as string).length <= 90) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`)).join('\n')}\n${indent} */\n`;
}
