/**
 * Tabs PyYAML refuses. Its scanner skips only spaces between tokens, and ends a plain scalar at a
 * tab, so a tab anywhere but inside a quoted scalar, a block scalar's content or a comment stops it
 * ("found character '\t' that cannot start any token"): after a `:`, a `-` or a `,`, before a
 * comment, inside or after a plain scalar. YAML 1.2 and js-yaml take a tab there as white space,
 * so such a document would load here and fail in Armada.
 */
/** The offset in `text` of the first tab PyYAML refuses, if any (the text holds one document or a few). */
export function firstRefusedTab(text: string): number | undefined {
  if (!text.includes('\t')) return undefined;
  // Loaded here: only a document with a tab needs the yaml package's tokens.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Parser } = require('yaml') as typeof import('yaml');
  let first: number | undefined;
  const note = (offset: number) => {
    if (first === undefined || offset < first) first = offset;
  };
  const visit = (token: unknown): void => {
    if (Array.isArray(token)) return token.forEach(visit);
    if (token === null || typeof token !== 'object') return;
    const t = token as { type?: unknown; source?: unknown; offset?: unknown } & Record<string, unknown>;
    // Tabs are content in quoted scalars, block scalars and comments; elsewhere they separate.
    if ((t.type === 'space' || t.type === 'newline' || t.type === 'scalar') && typeof t.source === 'string' && typeof t.offset === 'number') {
      const at = t.source.indexOf('\t');
      if (at >= 0) note(t.offset + at);
    }
    for (const part of ['start', 'key', 'sep', 'value', 'items', 'end', 'props']) {
      if (part in t && t[part] !== null && typeof t[part] === 'object') visit(t[part]);
    }
  };
  for (const token of new Parser().parse(text)) visit(token);
  return first;
}
