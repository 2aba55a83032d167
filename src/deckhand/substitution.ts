/**
 * Deckhand's substitutions (`SecretsSubstitution.substitute_all` and `_substitute_one`), as
 * Pegleg runs them (`fail_on_missing_sub_src=False`): a missing source document is skipped with
 * a warning, a missing source path substitutes `None` (null, or the string `None` through a
 * pattern) with a warning, a substitution that fails is skipped with a warning. A source with
 * `storagePolicy: encrypted` makes the destination encrypted and its substitution paths hashed.
 *
 * Also tracked here, for the caller: which paths now hold secrets, and writes that reach another
 * document's data through the shallow copy a pattern-less substitution makes (Deckhand's
 * aliasing, which makes its output depend on input order).
 */
import { DeckhandCodes } from './codes';
import { Doc } from './document';
import { Fatal } from './fatal';
import { Chain, findPath, floatAt, JsonPathError, jsonpathParse, jsonpathReplace, normalizeJsonPath, parseJsonPath, Step } from './jsonpath';
import { copyKeyType, copyValueType, deepCopy, Dict, isDict, PyException, setKey, truthy } from './python';
import { PatternError } from './python-regex';
import { redact } from './redact';
import { sourceKey } from './layering';

type Path = (string | number)[];

/** Where a shared container sits in each document holding it. */
interface Owner {
  readonly doc: Doc;
  readonly path: Path;
}

/** What substitution needs from the renderer. */
export interface SubstitutionContext {
  readonly sources: ReadonlyMap<string, Doc>;
  readonly failOnMissingSource: boolean;
  warn(doc: Doc, code: string, message: string, field?: string): void;
  /** Containers placed in several documents by pattern-less substitutions. */
  readonly shared: WeakMap<object, Owner[]>;
}

const UUID_HEX = /^[0-9a-f]{32}$/;

/** `DocumentDict.has_barbican_ref`: the data is a Barbican secret URL. */
export function hasBarbicanRef(data: unknown): boolean {
  if (typeof data !== 'string' || !/^https?:\/\/[a-zA-Z0-9$-_@.&+!*(),%]/.test(data) || !data.includes('secrets')) return false;
  const last = data.split('/').pop()!.toLowerCase().replace(/^urn:/, '').replace(/^uuid:/, '').replace(/[{}-]/g, '');
  return UUID_HEX.test(last);
}

function stepsOf(path: string): Path | undefined {
  try {
    const out: Path = [];
    for (const s of parseJsonPath(normalizeJsonPath(path)).steps) {
      if ('root' in s) out.length = 0;
      else out.push('field' in s ? s.field : s.index);
    }
    return out;
  } catch {
    return undefined;
  }
}

function startsWith(path: readonly (string | number)[], prefix: readonly (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => seg === path[i]);
}

function addPath(list: Path[], path: Path): void {
  if (!list.some((p) => startsWith(path, p))) list.push(path);
}

function register(shared: WeakMap<object, Owner[]>, container: object, owner: Owner): void {
  let owners = shared.get(container);
  if (owners === undefined) shared.set(container, (owners = []));
  if (!owners.some((o) => o.doc === owner.doc && o.path.length === owner.path.length && startsWith(o.path, owner.path))) owners.push(owner);
}

/** Runs every substitution of `doc`, in order, changing it in place. */
export function substituteAll(doc: Doc, ctx: SubstitutionContext): void {
  let redactDest = false;
  doc.substitutions.forEach((sub, i) => {
    const field = `metadata.substitutions[${i}]`;
    const s = sub as Dict;
    const src = s['src'] as Dict;
    const srcSchema = src['schema'];
    const srcName = src['name'];
    const srcPath = String(src['path']);
    const srcPattern = typeof src['pattern'] === 'string' ? src['pattern'] : undefined;
    const matchGroup = src['match_group'] ?? 0;
    const srcDeepcopy = src['deepcopy'] === true;
    const srcDoc = ctx.sources.get(sourceKey(srcSchema, srcName));
    if (srcDoc === undefined) {
      const message = `Could not find substitution source document [${String(srcSchema)}] ${String(srcName)} among the provided substitution sources (no concrete document has this schema and name); the substitution is skipped`;
      if (ctx.failOnMissingSource) throw new Fatal(doc, DeckhandCodes.MISSING_SOURCE, message, `${field}.src`);
      ctx.warn(doc, DeckhandCodes.MISSING_SOURCE, message, `${field}.src`);
      return;
    }
    const encrypted = srcDoc.isEncrypted;
    if (encrypted) redactDest = true;
    const srcData = srcDoc.data;
    let secret: unknown;
    try {
      secret = isDict(srcData) ? jsonpathParse(srcData, srcPath) : srcData;
    } catch (e) {
      if (e instanceof JsonPathError || e instanceof PyException) throw new Fatal(doc, DeckhandCodes.UNSUPPORTED, `substitution source path ${JSON.stringify(srcPath)}: ${e.message}`, `${field}.src.path`);
      throw e;
    }
    if (secret === null) {
      const message = `Could not find source path ${srcPath} in source document or the secret extracted is None. Source document: ${srcDoc.label} (${srcDoc.location}). Destination document: ${doc.label}; Deckhand substitutes None`;
      if (ctx.failOnMissingSource) throw new Fatal(doc, DeckhandCodes.SUBSTITUTION, message, `${field}.src.path`);
      ctx.warn(doc, DeckhandCodes.SUBSTITUTION, message, `${field}.src.path`);
    }
    if (encrypted && hasBarbicanRef(srcData)) {
      throw new Fatal(doc, DeckhandCodes.ENCRYPTION_SOURCE, `Required encryption source reference could not be resolved into a secret: the source document ${srcDoc.label} (${srcDoc.location}) holds a Barbican reference, which only a Deckhand service can resolve`, `${field}.src`);
    }
    const valueIsFloat = isDict(srcData) && floatAt(srcData, srcPath);
    // Which part of what is substituted is secret.
    const srcSteps = isDict(srcData) ? stepsOf(srcPath) ?? [] : [];
    // Secret as far as a secret value reached (`secretPaths`), not as far as Deckhand's encryption
    // spread: a cleartext value of a destination of an encrypted source stays cleartext.
    const wholeSecret = srcDoc.secretPaths.some((p) => startsWith(srcSteps, p));
    const innerSecrets = wholeSecret ? [] : srcDoc.secretPaths.filter((p) => startsWith(p, srcSteps) && p.length > srcSteps.length).map((p) => p.slice(srcSteps.length));

    const destIsList = Array.isArray(s['dest']);
    const dests = (destIsList ? s['dest'] : [s['dest']]) as Dict[];
    dests.forEach((dest, j) => {
      const destField = destIsList ? `${field}.dest[${j}]` : `${field}.dest`;
      const destPath = String(dest['path']);
      const destPattern = typeof dest['pattern'] === 'string' ? dest['pattern'] : undefined;
      const recurse = dest['recurse'] ?? newRecurse();
      if (encrypted) {
        setKey(src, 'path', redact(srcPath));
        setKey(dest, 'path', redact(destPath));
      }
      substituteOne(doc, srcDoc, secret, { destPath, destPattern, recurse, srcPattern, matchGroup, srcDeepcopy, srcSteps, wholeSecret, innerSecrets, valueIsFloat, field: destField }, ctx);
    });
  });
  if (!doc.isEncrypted && redactDest) doc.storagePolicy = 'encrypted';
}

function newRecurse(): Dict {
  return {};
}

interface OneSubstitution {
  readonly destPath: string;
  readonly destPattern: string | undefined;
  readonly recurse: unknown;
  readonly srcPattern: string | undefined;
  readonly matchGroup: unknown;
  readonly srcDeepcopy: boolean;
  readonly srcSteps: Path;
  readonly wholeSecret: boolean;
  readonly innerSecrets: readonly Path[];
  readonly valueIsFloat: boolean;
  readonly field: string;
}

function substituteOne(doc: Doc, srcDoc: Doc, value: unknown, sub: OneSubstitution, ctx: SubstitutionContext): void {
  const destSteps = stepsOf(sub.destPath);
  const warned = new Set<Doc>();
  const onWrite = (_container: object, chain: Chain, steps: readonly Step[]) => {
    // A container of another document's data: Deckhand writes through the shallow copy.
    for (let depth = 0; depth < chain.length; depth++) {
      const c = chain[depth];
      if (c === null || typeof c !== 'object') continue;
      const owners = ctx.shared.get(c);
      if (owners === undefined) continue;
      const others = owners.filter((o) => o.doc !== doc);
      if (others.length === 0) continue;
      const rest: Path = [];
      for (const st of steps.slice(depth)) {
        if ('field' in st) rest.push(st.field);
        else if ('index' in st) rest.push(st.index);
      }
      for (const o of others) {
        if (sub.wholeSecret || sub.innerSecrets.length > 0) addPath(o.doc.secretPaths, [...o.path, ...rest]);
        if (warned.has(o.doc)) continue;
        warned.add(o.doc);
        ctx.warn(
          doc,
          DeckhandCodes.ALIASING,
          `the substitution into ${sub.destPath} of ${doc.label} also writes into ${o.doc.label} (${o.doc.location}) at ${formatPath(o.path)}: an earlier substitution without pattern gave them the same nested value (Deckhand's shallow copy), so what each renders depends on the input order`,
          sub.field,
        );
      }
      break;
    }
  };
  let problem = '';
  try {
    const result = jsonpathReplace(doc.data, value, sub.destPath, {
      pattern: sub.destPattern,
      recurse: sub.recurse,
      srcPattern: sub.srcPattern,
      srcMatchGroup: sub.matchGroup,
      srcDeepcopy: sub.srcDeepcopy,
      valueIsFloat: sub.valueIsFloat,
      onWrite,
      deepCopy: (v) => deepCopy(v),
    });
    const data = doc.data;
    if (isDict(data) && isDict(result)) {
      for (const k of Object.keys(result)) {
        if (!Object.prototype.hasOwnProperty.call(data, k)) copyKeyType(result, k, data);
        setKey(data, k, result[k]);
        copyValueType(result, k, data);
      }
    } else if (truthy(result)) {
      doc.data = result;
    } else {
      problem = `Failed to create JSON path "${sub.destPath}" in the destination document ${doc.label}. No data was substituted.`;
    }
  } catch (e) {
    // A pattern Python refuses too is skipped with a warning, as Deckhand does; one only this engine cannot run is an error.
    if (e instanceof PatternError && !e.pythonRejects) throw new Fatal(doc, DeckhandCodes.UNSUPPORTED, e.message, sub.field);
    if (e instanceof JsonPathError && e.unsupported) throw new Fatal(doc, DeckhandCodes.UNSUPPORTED, e.message, sub.field);
    if (!(e instanceof PyException || e instanceof JsonPathError || e instanceof PatternError)) throw e;
    problem = `substitution from ${srcDoc.label} into ${sub.destPath} failed (${e.message}); Deckhand skips it`;
  }
  if (problem !== '') {
    if (ctx.failOnMissingSource) throw new Fatal(doc, DeckhandCodes.SUBSTITUTION, problem, sub.field);
    ctx.warn(doc, DeckhandCodes.SUBSTITUTION, problem, sub.field);
    return;
  }
  if (destSteps === undefined) return;
  // Secrets now in the destination.
  if (sub.wholeSecret) addPath(doc.secretPaths, destSteps);
  else if (!truthy(sub.destPattern)) for (const inner of sub.innerSecrets) addPath(doc.secretPaths, [...destSteps, ...inner]);
  else if (sub.innerSecrets.length > 0) addPath(doc.secretPaths, destSteps);
  // A pattern-less substitution shares the value's nested containers with the source.
  if (!truthy(sub.destPattern) && !sub.srcDeepcopy && !truthy(sub.srcPattern)) {
    const placed = destSteps.length === 0 ? doc.data : findPath(doc.data, parseJsonPath(normalizeJsonPath(sub.destPath)))?.value;
    const each = (k: string | number, child: unknown) => {
      if (child === null || typeof child !== 'object') return;
      // Only what came from the source (a root destination keeps the document's other keys).
      const from = Array.isArray(value) ? value[k as number] : isDict(value) ? value[k as string] : undefined;
      if (from !== child) return;
      register(ctx.shared, child, { doc: srcDoc, path: [...sub.srcSteps, k] });
      register(ctx.shared, child, { doc, path: [...destSteps, k] });
    };
    if (Array.isArray(placed)) placed.forEach((child, k) => each(k, child));
    else if (isDict(placed)) for (const k of Object.keys(placed)) each(k, placed[k]);
  }
}

function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : `.${seg}`;
  return out === '' ? '.' : out;
}
