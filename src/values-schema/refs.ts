/** Resolution of `$ref`s that point inside the schema that holds them. */
import { isSchema, isSchemaObject, JsonSchema } from './json-schema';

/** Where a `$ref` leads: the schema and the JSON pointer segments from the root to it. */
export type ResolvedRef =
  | { readonly ok: true; readonly schema: JsonSchema; readonly segments: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Resolves `#`, `#/json/pointer` (with `~0`, `~1` and percent escapes), `#anchor` (`$anchor`, or a
 * draft-04..07 `$id`/`id` that is a bare fragment) and the root's own `$id` followed by a fragment.
 * Anything that needs another document is reported as unsupported.
 */
export class RefResolver {
  private readonly rootId: string | undefined;
  private anchors: Map<string, { schema: JsonSchema; segments: string[] }> | undefined;

  constructor(private readonly root: JsonSchema) {
    const id = isSchemaObject(root) ? (root.$id ?? root.id) : undefined;
    this.rootId = typeof id === 'string' ? id.replace(/#.*$/, '') : undefined;
  }

  public resolve(ref: string): ResolvedRef {
    let fragment: string;
    if (ref.startsWith('#')) {
      fragment = ref.slice(1);
    } else if (this.rootId && ref.startsWith(`${this.rootId}#`)) {
      fragment = ref.slice(this.rootId.length + 1);
    } else if (this.rootId && ref === this.rootId) {
      fragment = '';
    } else {
      return { ok: false, reason: `unsupported $ref ${JSON.stringify(ref)}: only references inside this schema are supported` };
    }
    if (fragment === '') return { ok: true, schema: this.root, segments: [] };
    if (!fragment.startsWith('/')) {
      const anchor = this.anchorIndex().get(decode(fragment));
      if (!anchor) return { ok: false, reason: `$ref ${JSON.stringify(ref)}: no such anchor` };
      return { ok: true, ...anchor };
    }
    const segments = fragment
      .slice(1)
      .split('/')
      .map((s) => decode(s).replace(/~1/g, '/').replace(/~0/g, '~'));
    let current: unknown = this.root;
    for (const segment of segments) {
      if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment)) {
        current = current[Number(segment)];
      } else if (isSchemaObject(current) && Object.prototype.hasOwnProperty.call(current, segment)) {
        current = current[segment];
      } else {
        return { ok: false, reason: `$ref ${JSON.stringify(ref)} points to nothing in this schema` };
      }
    }
    if (!isSchema(current)) return { ok: false, reason: `$ref ${JSON.stringify(ref)} points to something that is not a schema` };
    return { ok: true, schema: current, segments };
  }

  private anchorIndex(): Map<string, { schema: JsonSchema; segments: string[] }> {
    if (this.anchors) return this.anchors;
    const anchors = new Map<string, { schema: JsonSchema; segments: string[] }>();
    const seen = new Set<object>();
    const walk = (node: unknown, segments: string[]): void => {
      if (typeof node !== 'object' || node === null || seen.has(node)) return;
      seen.add(node);
      if (Array.isArray(node)) {
        node.forEach((child, i) => walk(child, [...segments, String(i)]));
        return;
      }
      const obj = node as Record<string, unknown>;
      const names = [obj.$anchor, obj.$id, obj.id]
        .filter((v): v is string => typeof v === 'string')
        .map((v) => (v === obj.$anchor ? v : v.startsWith('#') ? v.slice(1) : ''))
        .filter((v) => v !== '');
      for (const name of names) {
        if (!anchors.has(name)) anchors.set(name, { schema: obj as JsonSchema, segments });
      }
      // Values of `enum`, `const`, `default` and `examples` are data: an `$id` there is not an anchor.
      for (const [key, child] of Object.entries(obj)) {
        if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
        walk(child, [...segments, key]);
      }
    };
    walk(this.root, []);
    this.anchors = anchors;
    return anchors;
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
