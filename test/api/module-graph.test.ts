import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

/**
 * The import graph of src, type-only imports and lazy `require`s included, checked against the
 * design's layering: imports flow one way, the model imports no framework, each target alone
 * imports its framework, and no two modules import each other, however indirectly.
 */
const SRC = path.resolve(__dirname, '..', '..', 'src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** What a module imports: other modules of src (as files) and packages (by name). */
function importsOf(file: string): { modules: string[]; packages: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = new Set(ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName));
  for (const m of text.matchAll(/\brequire\(\s*'([^']+)'\s*\)/g)) specifiers.add(m[1]);
  const modules: string[] = [];
  const packages: string[] = [];
  for (const s of specifiers) {
    if (!s.startsWith('.')) {
      packages.push(s.replace(/^node:/, '').split('/').slice(0, s.startsWith('@') ? 2 : 1).join('/'));
      continue;
    }
    const base = path.resolve(path.dirname(file), s);
    const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
    if (found) modules.push(found);
    else if (!fs.existsSync(base)) throw new Error(`${path.relative(SRC, file)} imports ${s}, which is not a module of src`);
  }
  return { modules, packages };
}

const files = sources(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => path.relative(SRC, f).split(path.sep).join('/');
const area = (f: string) => rel(f).split('/')[0].replace(/\.ts$/, '');

/** Every cycle's modules (the strongly connected components of more than one module, or a self-import). */
function cycles(): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)!.modules) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(rel(w));
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.modules.includes(v)) out.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return out;
}

/** `from -> to` for every import of a module of `areas` that leaves `allowed`. */
function crossings(areas: readonly string[], allowed: readonly string[]): string[] {
  return files
    .filter((f) => areas.includes(area(f)))
    .flatMap((f) => graph.get(f)!.modules.filter((m) => !allowed.includes(area(m))).map((m) => `${rel(f)} -> ${rel(m)}`));
}

/** `module: package` for every module outside `areas` that imports one of `packages`. */
function packageUsers(packages: readonly string[], areas: readonly string[]): string[] {
  return files
    .filter((f) => !areas.includes(area(f)))
    .flatMap((f) => graph.get(f)!.packages.filter((p) => packages.includes(p)).map((p) => `${rel(f)}: ${p}`));
}

describe('the module graph of src', () => {
  test('it is read whole', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get(path.join(SRC, 'cli', 'main.ts'))!.modules.length).toBeGreaterThan(3);
  });

  test('has no import cycle, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });

  test('the model imports nothing but itself, and no package', () => {
    expect(crossings(['model'], ['model'])).toEqual([]);
    expect(files.filter((f) => area(f) === 'model').flatMap((f) => graph.get(f)!.packages.map((p) => `${rel(f)}: ${p}`))).toEqual([]);
  });

  test('the constructs import the model, the chart values checks and the constructs library only', () => {
    expect(crossings(['constructs'], ['model', 'values-schema', 'constructs'])).toEqual([]);
    expect(crossings(['values-schema'], ['model', 'values-schema'])).toEqual([]);
    expect(files.filter((f) => area(f) === 'constructs').flatMap((f) => graph.get(f)!.packages.filter((p) => p !== 'constructs'))).toEqual([]);
  });

  test('only the cdk8s target imports cdk8s, only the Pulumi target imports @pulumi', () => {
    expect(packageUsers(['cdk8s', 'cdk8s-plus-28'], ['cdk8s'])).toEqual([]);
    expect(packageUsers(['@pulumi/pulumi', '@pulumi/kubernetes'], ['pulumi'])).toEqual([]);
  });

  test('nothing below the CLI imports it', () => {
    expect(files.filter((f) => area(f) !== 'cli').flatMap((f) => graph.get(f)!.modules.filter((m) => area(m) === 'cli').map((m) => `${rel(f)} -> ${rel(m)}`))).toEqual([]);
  });

  test('a cycle, a model import of a framework and a CLI import from below would be found', () => {
    // The checks above pass on this tree; these show they look at the right edges.
    const a = path.join(SRC, 'model', 'plan.ts');
    const b = path.join(SRC, 'model', 'spec.ts');
    const saved = [graph.get(a)!, graph.get(b)!];
    try {
      graph.set(a, { modules: [...saved[0].modules, b], packages: [...saved[0].packages, 'cdk8s'] });
      graph.set(b, { modules: [...saved[1].modules, a, path.join(SRC, 'cli', 'io.ts')], packages: saved[1].packages });
      expect(cycles().some((c) => c.includes('model/plan.ts') && c.includes('model/spec.ts'))).toBe(true);
      expect(packageUsers(['cdk8s'], ['cdk8s'])).toContain('model/plan.ts: cdk8s');
      expect(crossings(['model'], ['model'])).toContain('model/spec.ts -> cli/io.ts');
    } finally {
      graph.set(a, saved[0]);
      graph.set(b, saved[1]);
    }
  });
});
