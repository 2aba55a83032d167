/**
 * Small readers of YAML text at an offset, for the listeners that follow js-yaml's parse
 * (`key-watch.ts`, `final-block-scalar.ts`): the blanks and comments between nodes, and a
 * node's properties.
 */

/** A space, a tab or a line break. */
export function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** Past blanks, line breaks and comments. */
export function skipSeparation(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (isBlank(c)) at++;
    else if (c === 0x23 /* # */) {
      while (at < text.length && text.charCodeAt(at) !== 0x0a) at++;
    } else return at;
  }
}

/** Past a node's anchor and tag (and the separation after each): where its content starts. */
export function skipProperties(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 0x26 /* & */ && c !== 0x21 /* ! */) return at;
    at = skipSeparation(text, skipProperty(text, at));
  }
}

/** Past one property token: `&name`, `!tag`, `!<verbatim tag>`. */
export function skipProperty(text: string, at: number): number {
  if (text.charCodeAt(at) === 0x21 && text.charCodeAt(at + 1) === 0x3c /* < */) {
    const close = text.indexOf('>', at);
    return close < 0 ? text.length : close + 1;
  }
  const anchor = text.charCodeAt(at) === 0x26;
  let i = at + 1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isBlank(c) || (anchor && isFlowIndicator(c))) break;
  }
  return i;
}

/** `,`, `[`, `]`, `{` or `}`. */
export function isFlowIndicator(c: number): boolean {
  return c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}
