/**
 * Objects that two files of one app both write. `kubectl apply -f dist/` applies every file: the
 * last one silently replaces the object, and `kubectl delete -f` of either file deletes the
 * other's. The check covers the whole app once, in one pass over its objects.
 */
import * as cdk8s from 'cdk8s';
import { IConstruct } from 'constructs';

/** A construct of this library that writes objects when cdk8s validates the app. */
export interface ObjectWriter extends IConstruct {
  /** Writes its objects now if it can (idempotent); its errors are its own validation's. */
  _renderNow(): void;
  /** How errors name it: its kind and path, and what else identifies what it writes. */
  _describe(): string;
  /** Whether a clash inside one chart's file is already its own validation's error. */
  readonly _reportsSameFile: boolean;
}

// Keyed by app: the writers of one app are never checked against another app's.
const writersByApp = new WeakMap<IConstruct, Set<ObjectWriter>>();
const chartOwners = new WeakMap<IConstruct, ObjectWriter>();
const MAX_LISTED = 5;

/** Registers a writer; the first of an app adds the app's check. */
export function watchClashes(writer: ObjectWriter): void {
  const app = writer.node.root;
  let writers = writersByApp.get(app);
  if (!writers) {
    writersByApp.set(app, (writers = new Set()));
    const set = writers;
    app.node.addValidation({ validate: () => appClashes(app, set) });
  }
  writers.add(writer);
}

/** Marks a chart a writer created outside its own subtree (the operator's release namespaces, CRDs). */
export function ownChart(chart: cdk8s.Chart, writer: ObjectWriter): void {
  // A shared chart (an API's CRDs) is its first writer's.
  if (!chartOwners.has(chart)) chartOwners.set(chart, writer);
}

interface Written {
  readonly object: cdk8s.ApiObject;
  readonly chart: IConstruct;
  readonly owner: ObjectWriter | undefined;
}

function appClashes(app: IConstruct, writers: ReadonlySet<ObjectWriter>): string[] {
  // The app is validated first; the writers' objects are made at their own validation.
  for (const w of writers) w._renderNow();
  const first = new Map<string, Written>();
  const pairs = new Map<string, { a: Written; b: Written; objects: string[] }>();
  for (const c of app.node.findAll()) {
    if (!cdk8s.ApiObject.isApiObject(c) || c.apiVersion.startsWith('armada/')) continue; // Armada documents are no Kubernetes objects.
    const here = written(c, writers);
    const key = identity(c);
    const seen = first.get(key);
    if (!seen) {
      first.set(key, here);
      continue;
    }
    if (!clashes(seen, here)) continue;
    const pairKey = `${seen.owner?.node.path ?? seen.object.node.path}\u0000${here.owner?.node.path ?? here.object.node.path}\u0000${seen.chart.node.path}\u0000${here.chart.node.path}`;
    let pair = pairs.get(pairKey);
    if (!pair) pairs.set(pairKey, (pair = { a: seen, b: here, objects: [] }));
    pair.objects.push(describeObject(c));
  }
  return [...pairs.values()].map(message);
}

/** A clash this check reports: this library writes one of them, and no writer reports it itself. */
function clashes(a: Written, b: Written): boolean {
  if (a.owner === undefined && b.owner === undefined) return false;
  if (a.chart !== b.chart) return true;
  return !(a.owner?._reportsSameFile || b.owner?._reportsSameFile);
}

function written(o: cdk8s.ApiObject, writers: ReadonlySet<ObjectWriter>): Written {
  const chart = cdk8s.Chart.of(o);
  let owner: ObjectWriter | undefined;
  for (let s: IConstruct | undefined = o.node.scope; s && !owner; s = s.node.scope) owner = writers.has(s as ObjectWriter) ? (s as ObjectWriter) : chartOwners.get(s);
  return { object: o, chart, owner };
}

/** What makes two objects one to the API server: group (not version), kind, namespace, name. */
function identity(o: cdk8s.ApiObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  return `${group}\u0000${o.kind}\u0000${o.metadata.namespace ?? ''}\u0000${o.name}`;
}

function describeObject(o: cdk8s.ApiObject): string {
  return `${o.kind} ${o.metadata.namespace === undefined ? '' : `${o.metadata.namespace}/`}${o.name}`;
}

function message({ a, b, objects }: { a: Written; b: Written; objects: string[] }): string {
  const who = (w: Written) => w.owner?._describe() ?? w.object.node.path;
  const listed = objects.slice(0, MAX_LISTED).join(', ') + (objects.length > MAX_LISTED ? ` and ${objects.length - MAX_LISTED} more` : '');
  const files = a.chart === b.chart ? `both into ${a.chart.node.path}'s file` : `into ${b.chart.node.path}'s file and ${a.chart.node.path}'s`;
  return `${who(b)} writes ${listed}, which ${who(a)} writes as well, ${files}: applied, one would replace the other, and kubectl delete -f of either file would delete the other's; give them different names or namespaces, or write them once`;
}
