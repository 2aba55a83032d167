/**
 * One document as Deckhand's `DocumentDict` sees it: the accessors read `metadata` the same
 * forgiving way (a missing or empty value reads as `''`, `{}` or `[]`), and the document itself
 * is a private deep copy of the input, changed in place as Deckhand changes its own.
 */
import { deepCopy, Dict, getKey, isDict, setKey } from './python';

/** Where a document was read: the input's `origin`. */
export interface DocOrigin {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Schemas whose documents are secrets in themselves (besides any with `storagePolicy: encrypted`). */
export const SECRET_SCHEMAS: readonly string[] = ['deckhand/Passphrase/', 'deckhand/Certificate/', 'deckhand/CertificateKey/', 'deckhand/CertificateAuthorityKey/', 'deckhand/PrivateKey/', 'deckhand/PublicKey/'];

const EMPTY: Dict = Object.freeze({}) as Dict;

function dictOr(v: unknown): Dict {
  return isDict(v) && Object.keys(v).length > 0 ? v : EMPTY;
}

function stringOr(v: unknown): string {
  return typeof v === 'string' && v !== '' ? v : '';
}

/** A document being rendered. */
export class Doc {
  /** The document, as Deckhand outputs it in the end (changed in place while rendering). */
  public readonly raw: Dict;
  /** Position in the input. */
  public readonly order: number;
  public readonly origin: DocOrigin;
  /** Deckhand's `replaced_by`: the document with `replacement: true` that takes this one's place. */
  public replacedBy: Doc | undefined;
  /**
   * Paths under `data` holding a value from a secret source; `[]` (all of it) for a
   * {@link secretSource}.
   */
  public readonly secretPaths: (string | number)[][] = [];
  /**
   * Whether the document is a secret as written: one of Deckhand's secret schemas, or
   * `storagePolicy: encrypted` in the input. Not the `storagePolicy` Deckhand gives a destination
   * of an encrypted source: only the substituted values of that one are secret.
   */
  public readonly secretSource: boolean;

  constructor(raw: Dict, order: number, origin: DocOrigin) {
    this.raw = raw;
    this.order = order;
    this.origin = origin;
    this.secretSource = this.isEncrypted || SECRET_SCHEMAS.some((s) => this.schema.startsWith(s));
    if (this.secretSource) this.secretPaths.push([]);
  }

  /** A private copy of `raw` (the caller's value is never changed). */
  public static copyOf(raw: Dict, order: number, origin: DocOrigin): Doc {
    return new Doc(deepCopy(raw), order, origin);
  }

  public get metadata(): Dict {
    return dictOr(getKey(this.raw, 'metadata'));
  }
  public get schema(): string {
    return stringOr(getKey(this.raw, 'schema'));
  }
  public get name(): string {
    return stringOr(this.metadata['name']);
  }
  public get layeringDefinition(): Dict {
    return dictOr(this.metadata['layeringDefinition']);
  }
  public get layer(): string {
    return stringOr(this.layeringDefinition['layer']);
  }
  /** Deckhand's `meta`: `(schema, layer, name)`, as one key. */
  public get key(): string {
    return metaKey(this.schema, this.layer, this.name);
  }
  public get isAbstract(): boolean {
    return this.layeringDefinition['abstract'] === true;
  }
  public get isControl(): boolean {
    const s = this.metadata['schema'];
    return typeof s === 'string' && s.startsWith('metadata/Control');
  }
  public get parentSelector(): Dict {
    return dictOr(this.layeringDefinition['parentSelector']);
  }
  public get labels(): Dict {
    return dictOr(this.metadata['labels']);
  }
  public get actions(): unknown[] {
    const a = this.layeringDefinition['actions'];
    return Array.isArray(a) ? a : [];
  }
  public get substitutions(): unknown[] {
    const s = this.metadata['substitutions'];
    return Array.isArray(s) ? s : [];
  }
  public get storagePolicy(): string {
    return stringOr(this.metadata['storagePolicy']);
  }
  public set storagePolicy(value: string) {
    const metadata = getKey(this.raw, 'metadata');
    if (isDict(metadata)) setKey(metadata, 'storagePolicy', value);
  }
  public get isEncrypted(): boolean {
    return this.storagePolicy === 'encrypted';
  }
  public get isReplacement(): boolean {
    return this.metadata['replacement'] === true;
  }
  public get hasReplacement(): boolean {
    return this.replacedBy !== undefined;
  }
  public get data(): unknown {
    return getKey(this.raw, 'data') ?? null;
  }
  public set data(value: unknown) {
    setKey(this.raw, 'data', value);
  }
  /** `[schema, layer] name`, as Deckhand names a document in its messages. */
  public get label(): string {
    return `[${this.schema}, ${this.layer}] ${this.name}`;
  }
  /** `file:line:column`. */
  public get location(): string {
    return `${this.origin.file}:${this.origin.line}:${this.origin.column}`;
  }
}

/** The key of `(schema, layer, name)`. */
export function metaKey(schema: string, layer: string, name: string): string {
  return JSON.stringify([schema, layer, name]);
}

/**
 * What `_documents_by_index` maps a document to while rendering: the document itself, or after
 * layering a copy of its parent carrying the rendered data (Deckhand names the parent in later
 * messages about it).
 */
export interface IndexEntry {
  readonly schema: string;
  readonly layer: string;
  readonly name: string;
  data: unknown;
  /** Paths under `data` holding a value from a secret source. */
  readonly secretPaths: (string | number)[][];
}
