/**
 * Deckhand's layering actions (`DocumentLayering._apply_action`): each applied to a deep copy of
 * the parent's rendered data, `merge` a deep merge whose lists and scalars the child's replace,
 * `replace` the child's value at the path, `delete` Deckhand's `deep_delete` (it removes the
 * first node, in a depth-first walk of the whole data, whose value equals the value at the path).
 */
import { DeckhandCodes } from './codes';
import { Doc, IndexEntry } from './document';
import { Fatal } from './fatal';
import { floatAt, JsonPathError, jsonpathParse, jsonpathReplace } from './jsonpath';
import { copyKeyType, copyValueType, deepCopy, deleteKey, Dict, isDict, newDict, PyException, pyEq, pyRepr, setKey } from './python';

/** `deep_merge(dct, merge_dct)`: merges `from` into `into` in place. */
function deepMerge(into: Dict, from: Dict): void {
  for (const k of Object.keys(from)) {
    const mine = Object.prototype.hasOwnProperty.call(into, k) ? into[k] : undefined;
    if (mine !== undefined && isDict(mine) && isDict(from[k])) deepMerge(mine, from[k] as Dict);
    else {
      // Python keeps the key object already there (its type too), and takes the value's.
      if (mine === undefined) copyKeyType(from, k, into);
      setKey(into, k, from[k]);
      copyValueType(from, k, into);
    }
  }
}

/** `deep_delete(target, value, parent)`: true when a node was removed. */
function deepDelete(target: unknown, value: unknown, parent: unknown): boolean {
  if (pyEq(value, target)) {
    if (Array.isArray(parent)) {
      const i = parent.findIndex((x) => pyEq(x, value));
      parent.splice(i, 1);
      return true;
    }
    if (isDict(parent)) {
      for (const k of Object.keys(parent)) {
        if (pyEq(parent[k], value)) {
          deleteKey(parent, k);
          return true;
        }
      }
    }
  } else if (Array.isArray(value)) {
    for (const v of [...value]) if (deepDelete(target, v, value)) return true;
  } else if (isDict(value)) {
    for (const v of Object.values(value)) if (deepDelete(target, v, value)) return true;
  }
  return false;
}

/** Deckhand's normalisation of an action path: relative to `data`, starting with `.` or `$.`. */
function actionPath(path: string): string {
  let p = path;
  if (p.startsWith('.data')) p = p.slice(5);
  else if (p.startsWith('$.data')) p = p.slice(6);
  if (!(p.startsWith('.') || p.startsWith('$.'))) p = '.' + p;
  return p;
}

/** Applies `action` of `child` to `overall` (the parent's entry); returns the new entry. */
export function applyAction(action: unknown, index: number, child: Doc, overall: IndexEntry): IndexEntry {
  const field = `metadata.layeringDefinition.actions[${index}]`;
  const a = isDict(action) ? action : newDict();
  const method = a['method'];
  if (method !== 'merge' && method !== 'replace' && method !== 'delete') {
    throw new Fatal(child, DeckhandCodes.ACTION, `Method in ${pyRepr(action)} is invalid for document ${child.label}: Deckhand supports merge, replace and delete`, field);
  }
  const data = { value: deepCopy(overall.data) as unknown };
  if (data.value === undefined) data.value = null;
  const childData = deepCopy(child.data);
  const path = actionPath(String(a['path']));
  const missing = () =>
    new Fatal(
      child,
      DeckhandCodes.ACTION,
      `Missing action path in ${pyRepr(action)} needed for layering from either the data section of the parent [${overall.schema}, ${overall.layer}] ${overall.name} or child [${child.schema}, ${child.layer}] ${child.name} document`,
      field,
    );
  const replace = (d: unknown, value: unknown, valueIsFloat: boolean) => jsonpathReplace(d, value, path, { valueIsFloat, deepCopy: (v) => deepCopy(v) });
  try {
    if (method === 'delete') {
      if (path === '.') {
        data.value = newDict();
      } else {
        const target = jsonpathParse(data.value, path);
        if (target === null) throw missing();
        deepDelete(target, data.value, null);
      }
    } else if (method === 'merge') {
      let fromOverall = jsonpathParse(data.value, path);
      const fromChild = jsonpathParse(childData, path);
      if (fromChild === null) throw missing();
      let isFloat = false;
      if (isDict(fromOverall) && isDict(fromChild)) deepMerge(fromOverall, fromChild);
      else {
        fromOverall = fromChild;
        isFloat = floatAt(childData, path);
      }
      data.value = replace(data.value, fromOverall, isFloat);
    } else {
      const fromChild = jsonpathParse(childData, path);
      if (fromChild === null) throw missing();
      data.value = replace(data.value, fromChild, floatAt(childData, path));
    }
  } catch (e) {
    if (e instanceof PyException || e instanceof JsonPathError) {
      throw new Fatal(child, e instanceof JsonPathError ? DeckhandCodes.UNSUPPORTED : DeckhandCodes.ACTION, `layering action ${pyRepr(action)} cannot be applied to the data of [${overall.schema}, ${overall.layer}] ${overall.name}: ${e.message}`, field);
    }
    throw e;
  }
  return { schema: overall.schema, layer: overall.layer, name: overall.name, data: data.value, secretPaths: overall.secretPaths };
}
