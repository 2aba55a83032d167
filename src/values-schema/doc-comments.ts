/** Doc comment lines from a schema's annotations. */
import { isSchemaObject, JsonSchema } from './json-schema';

const INLINE_JSON_WIDTH = 60;

/**
 * Lines for a doc comment: `title`, `description`, `@default` from `default`, one `@example` per
 * entry of `examples` (and of the OpenAPI-style `example` that some charts use), `@deprecated`.
 */
export function docLines(schema: JsonSchema): string[] {
  if (!isSchemaObject(schema)) return [];
  const paragraphs: string[][] = [];
  const title = typeof schema.title === 'string' ? schema.title.trim() : '';
  const description = typeof schema.description === 'string' ? schema.description.trim() : '';
  if (title) paragraphs.push(textLines(title));
  if (description && description !== title) paragraphs.push(textLines(description));

  const tags: string[] = [];
  if ('default' in schema) tags.push(...tagWithJson('@default', schema.default));
  const examples = Array.isArray(schema.examples) ? schema.examples : 'example' in schema ? [schema.example] : [];
  for (const example of examples) tags.push(...tagWithJson('@example', example));
  if (schema.deprecated === true) tags.push('@deprecated');
  if (tags.length > 0) paragraphs.push(tags);

  return paragraphs.flatMap((p, i) => (i === 0 ? p : ['', ...p]));
}

function textLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.trimEnd());
}

function tagWithJson(tag: string, value: unknown): string[] {
  if (value === undefined) return [];
  const compact = JSON.stringify(value);
  if (compact.length <= INLINE_JSON_WIDTH) return [`${tag} ${compact}`];
  return [tag, ...JSON.stringify(value, null, 2).split('\n')];
}
