/**
 * Which values of a Deckhand site are secret: the data of `deckhand/Passphrase`, `Certificate`,
 * `CertificateKey`, `CertificateAuthorityKey`, `PrivateKey` and `PublicKey` documents and of any
 * document written with `storagePolicy: encrypted`, and every value substituted from one, from
 * then on (a substitution from a path that holds a secret carries it further). Not the rest of a
 * document Deckhand encrypted because it took a value from an encrypted one: that is cleartext
 * configuration. Pure.
 */
import { SECRET_SCHEMAS } from '../deckhand/document';
import { redact as pathHash } from '../deckhand/redact';
import { leafPaths } from '../model/values';
import { DataPath, parseDataPath } from './deckhand-path';

type Doc = Record<string, unknown>;
const isMap = (v: unknown): v is Doc => v !== null && typeof v === 'object' && !Array.isArray(v);
const meta = (d: Doc): Doc => (isMap(d.metadata) ? d.metadata : {});

/** Whether a document is stored encrypted (`storagePolicy: encrypted`). */
function isEncrypted(raw: Doc): boolean {
  return meta(raw).storagePolicy === 'encrypted';
}

/** A path Deckhand replaced by its hash (sha256 hex of the JSON text) when the source was encrypted. */
const HASHED_PATH = /^[0-9a-f]{64}$/;

function substitutionsOf(raw: Doc): Doc[] {
  const subs = meta(raw).substitutions;
  return Array.isArray(subs) ? subs.filter(isMap) : [];
}

function destinationsOf(sub: Doc): Doc[] {
  return (Array.isArray(sub.dest) ? sub.dest : [sub.dest]).filter(isMap);
}

/**
 * Whether Deckhand made the document `encrypted` while rendering it: a document of no secret
 * schema, encrypted, whose substitution paths it replaced by hashes (it does that to a destination
 * of an encrypted source, and encrypts it). Its own values stay cleartext; only what it took from
 * the encrypted source is secret. No real site writes `storagePolicy: encrypted` on a document of
 * another schema, but one that did and took a value from an encrypted source would read as this.
 */
export function isEncryptedByDeckhand(raw: unknown): boolean {
  if (!isMap(raw) || !isEncrypted(raw) || hasSecretSchema(raw)) return false;
  return substitutionsOf(raw).some((sub) => destinationsOf(sub).some((d) => typeof d.path === 'string' && HASHED_PATH.test(d.path)));
}

function hasSecretSchema(raw: Doc): boolean {
  return typeof raw.schema === 'string' && SECRET_SCHEMAS.some((s) => (raw.schema as string).startsWith(s));
}

/**
 * Whether a whole document is secret: one of Deckhand's secret schemas, or stored encrypted as
 * written (not a document Deckhand encrypted because it took a value from an encrypted one: see
 * {@link isEncryptedByDeckhand}).
 */
export function isSecretDocument(raw: unknown): boolean {
  if (!isMap(raw)) return false;
  if (hasSecretSchema(raw)) return true;
  return isEncrypted(raw) && !isEncryptedByDeckhand(raw);
}

/**
 * The paths of `data` that Deckhand's hashes of destination paths stand for: every node's path is
 * written the ways a substitution writes it (`.a.b[0]`, `$.a.b[0]`, `a.b[0]`) and hashed. A hash
 * found nowhere (a path written another way) stands for all of `data`: then the document is
 * secret whole, rather than a secret shown.
 */
function hashedDestinations(raw: Doc): DataPath[] {
  const wanted = new Set<string>();
  for (const sub of substitutionsOf(raw)) for (const d of destinationsOf(sub)) if (typeof d.path === 'string' && HASHED_PATH.test(d.path)) wanted.add(d.path);
  if (wanted.size === 0) return [];
  const found: DataPath[] = [];
  const seen = new Set<string>();
  const visit = (v: unknown, path: (string | number)[], text: string) => {
    if (path.length > 0) {
      for (const form of [text, `$${text}`, text.startsWith('.') ? text.slice(1) : text]) {
        const h = pathHash(form);
        if (wanted.has(h) && !seen.has(h)) {
          seen.add(h);
          found.push([...path]);
        }
      }
    } else {
      for (const form of ['.', '$']) {
        const h = pathHash(form);
        if (wanted.has(h) && !seen.has(h)) {
          seen.add(h);
          found.push([]);
        }
      }
    }
    if (seen.size === wanted.size) return;
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...path, i], `${text}[${i}]`));
    else if (isMap(v)) for (const k of Object.keys(v)) visit(v[k], [...path, k], `${text}.${k}`);
  };
  visit(raw.data, [], '');
  return seen.size === wanted.size ? found : [[]];
}

/**
 * For each document of a rendered stream, the paths inside its `data` that hold a secret value
 * carried there by a substitution: destinations of substitutions from a secret document, or from
 * a path of another document that holds a secret itself (followed until nothing changes). A
 * secret document's own data is secret whole (`[]`).
 */
export function secretDestinations(raws: readonly unknown[]): DataPath[][] {
  const docs = raws.map((r) => (isMap(r) ? r : undefined));
  const out: DataPath[][] = docs.map((d) => (d === undefined ? [] : isSecretDocument(d) ? [[]] : isEncryptedByDeckhand(d) ? hashedDestinations(d) : []));
  const byKey = new Map<string, number>();
  docs.forEach((d, i) => {
    if (d && typeof d.schema === 'string' && typeof meta(d).name === 'string') byKey.set(`${d.schema}\u0000${meta(d).name as string}`, i);
  });
  const edges: { from: number; srcPath: DataPath; to: number; dest: DataPath; whole: boolean }[] = [];
  docs.forEach((d, i) => {
    if (!d || !Array.isArray(meta(d).substitutions)) return;
    for (const sub of meta(d).substitutions as unknown[]) {
      if (!isMap(sub) || !isMap(sub.src) || typeof sub.src.path !== 'string') continue;
      const from = byKey.get(`${String(sub.src.schema)}\u0000${String(sub.src.name)}`);
      const srcPath = parseDataPath(sub.src.path);
      if (from === undefined || !('path' in srcPath)) continue;
      for (const dest of Array.isArray(sub.dest) ? sub.dest : [sub.dest]) {
        // A hashed path (an encrypted source's) is not a path: {@link hashedDestinations} found it.
        if (!isMap(dest) || typeof dest.path !== 'string' || HASHED_PATH.test(dest.path)) continue;
        const p = parseDataPath(dest.path);
        // A pattern puts the value inside a string: the whole string is secret then.
        if ('path' in p) edges.push({ from, srcPath: srcPath.path, to: i, dest: p.path, whole: typeof dest.pattern === 'string' || typeof sub.src.pattern === 'string' });
      }
    }
  });
  const has = (i: number, p: DataPath) => out[i].some((q) => q.length === p.length && q.every((s, k) => s === p[k]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of edges) {
      for (const secret of [...out[e.from]]) {
        let add: DataPath | undefined;
        if (startsWith(e.srcPath, secret)) add = e.dest;
        else if (startsWith(secret, e.srcPath)) add = e.whole ? e.dest : [...e.dest, ...secret.slice(e.srcPath.length)];
        if (add && !has(e.to, add)) {
          out[e.to].push(add);
          changed = true;
        }
      }
    }
  }
  return out;
}

function startsWith(p: DataPath, prefix: DataPath): boolean {
  return prefix.length <= p.length && prefix.every((s, i) => s === p[i]);
}

/**
 * Shortest secret text matched by value: a shorter passphrase (`admin`) is too likely to be an
 * ordinary word of other values.
 */
const MIN_MATCHED = 8;

/** The secrets of a stream: where they are, and their texts (to keep them out of messages). */
export interface StreamSecrets {
  /** For each document, the paths inside `data` whose values are secret. */
  readonly paths: readonly (readonly DataPath[])[];
  /** Every secret text, longest first. */
  readonly texts: readonly string[];
}

/**
 * The secrets of a rendered stream: where they are, either `known` (the engine's, when it rendered
 * the stream: it followed every value) or found from the documents ({@link secretDestinations});
 * and, for documents Deckhand layered from a parent that is no longer in the stream, strings that
 * contain the text of a secret document (at least {@link MIN_MATCHED} characters). The texts are
 * those of the documents secret whole: every secret value is one of them, or contains one.
 */
export function streamSecrets(raws: readonly unknown[], known?: readonly (readonly DataPath[])[]): StreamSecrets {
  const paths: DataPath[][] = known !== undefined ? raws.map((_, i) => [...(known[i] ?? [])]) : secretDestinations(raws);
  const whole = raws.map((raw, i) => (known !== undefined ? paths[i].some((p) => p.length === 0) : isSecretDocument(raw)));
  // The texts of the secret documents themselves: what a value derived from one contains.
  const texts = new Set<string>();
  raws.forEach((raw, i) => {
    if (isMap(raw) && whole[i]) collectStrings(raw.data, (s) => texts.add(s));
  });
  const matched = [...texts].filter((t) => t.length >= MIN_MATCHED);
  if (matched.length > 0) {
    raws.forEach((raw, i) => {
      if (!isMap(raw) || whole[i]) return;
      walkStrings(raw.data, [], (p, s) => {
        if (matched.some((t) => s.includes(t)) && !paths[i].some((q) => startsWith(p, q))) paths[i].push(p);
      });
    });
  }
  return { paths, texts: [...texts].filter((t) => t.length > 0).sort((a, b) => b.length - a.length) };
}

function collectStrings(v: unknown, add: (s: string) => void): void {
  if (typeof v === 'string') add(v);
  else if (Array.isArray(v)) v.forEach((x) => collectStrings(x, add));
  else if (isMap(v)) Object.values(v).forEach((x) => collectStrings(x, add));
}

function walkStrings(v: unknown, path: (string | number)[], visit: (p: DataPath, s: string) => void): void {
  if (typeof v === 'string') visit([...path], v);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, [...path, i], visit));
  else if (isMap(v)) for (const k of Object.keys(v)) walkStrings(v[k], [...path, k], visit);
}

/** What a secret is shown as. */
export const REDACTED = '<secret>';

/** `text` with every secret text in it replaced by {@link REDACTED}. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * For each chart (the first document of a name, as Armada takes it), the secret paths inside its
 * values, each once. A secret substituted at `values` itself or at the document's root (or a chart
 * document secret whole) makes every value secret: then each leaf of the document's values is
 * given, so that every consumer (Flux's placeholders, Helmfile's references, codegen's and
 * `loadPeglegSite`'s secret readers) handles it as any other secret value.
 */
export function chartValueSecrets(
  documents: readonly { readonly schema?: string | undefined; readonly name?: string | undefined; readonly data?: unknown }[],
  secrets: StreamSecrets,
): Map<string, DataPath[]> {
  const out = new Map<string, DataPath[]>();
  const seen = new Set<string>();
  documents.forEach((doc, i) => {
    if ((doc.schema !== 'armada/Chart/v1' && doc.schema !== 'armada/Chart/v2') || doc.name === undefined || seen.has(doc.name)) return;
    seen.add(doc.name);
    const found = secrets.paths[i] ?? [];
    const whole = found.some((p) => p.length === 0 || (p.length === 1 && p[0] === 'values'));
    const values = isMap(doc.data) ? doc.data.values : undefined;
    const paths = whole ? leafPaths(values, () => true).filter((p) => p.length > 0) : found.filter((p) => p.length > 1 && p[0] === 'values').map((p) => p.slice(1));
    // A value substituted twice (two substitutions, or a layer's and its parent's) is one.
    const unique = [...new Map(paths.map((p) => [JSON.stringify(p), p])).values()];
    if (unique.length > 0) out.set(doc.name, unique);
  });
  return out;
}
