import { classifyDocuments, LoadedDocument, unrenderedReasons, validateArmadaDocuments } from '../../../src/importer/load';
import { canonical, corpusFiles, havePyYaml, loadCorpusFile, parseText, pyyamlLoadAll, readCorpusIndex, CORPUS, SHARED } from './helpers';
import * as fs from 'fs';
import * as path from 'path';

const index = readCorpusIndex();
const files = corpusFiles();

function doc(file: string, name: string): LoadedDocument {
  const d = loadCorpusFile(file).documents.find((x) => x.name === name);
  if (!d) throw new Error(`${name} not in ${file}`);
  return d;
}

describe('the corpus', () => {
  it('has an INDEX.md entry for every file and a file for every entry', () => {
    expect([...index.keys()].sort()).toEqual(files);
  });

  it.each(files)('%s parses without errors, with the documents INDEX.md lists', (file) => {
    const r = loadCorpusFile(file);
    expect(r.diagnostics).toEqual([]);
    const entry = index.get(file)!;
    if (entry.documents.length === 0) {
      // the legacy single-document `armada:` format
      expect(r.documents).toHaveLength(1);
      expect(r.documents[0].schema).toBeUndefined();
      expect(Object.keys(r.documents[0].raw as object)).toEqual(['armada']);
    } else {
      expect(r.documents.map((d) => [d.schema, d.name])).toEqual(entry.documents);
    }
    expect(r.documents.map((d) => d.index)).toEqual(r.documents.map((_, i) => i));
    expect(r.documents.every((d) => d.file === file)).toBe(true);
  });

  it.each(files)("%s: Armada's HEAD schemas say what INDEX.md says", (file) => {
    const r = loadCorpusFile(file);
    const c = classifyDocuments(r.documents);
    const entry = index.get(file)!;
    const got = new Map<string, string[]>();
    for (const d of validateArmadaDocuments(c.armada)) {
      expect(d).toMatchObject({ severity: 'error', code: 'ARM100' });
      got.set(d.document!, [...(got.get(d.document!) ?? []), d.message.replace(/: (did you mean|recreate_pods was).*$/, '')]);
    }
    if (entry.validation === undefined) {
      // n/a: no Armada document at all
      expect(c.armada).toEqual([]);
      return;
    }
    const sorted = (m: Map<string, string[]>) => [...m].map(([k, v]) => [k, [...v].sort()]).sort();
    expect(sorted(got)).toEqual(sorted(entry.validation));
  });

  it('points each schema error at the offending key', () => {
    const r = loadCorpusFile('openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml');
    const errors = validateArmadaDocuments(classifyDocuments(r.documents).armada);
    expect(errors).toEqual([
      {
        severity: 'error',
        location: 'openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml:243:7',
        document: 'armada/Chart/v1 rabbitmq',
        field: 'data.upgrade.options.recreate_pods',
        code: 'ARM100',
        message: "Additional properties are not allowed ('recreate_pods' was unexpected): recreate_pods was accepted only by the pre-Helm-3 schemas; Helm 3 has no equivalent",
      },
    ]);
    const missing = validateArmadaDocuments(loadCorpusFile('treasuremap__type__skiff__charts__osh__openstack-glance__glance.yaml').documents);
    // a missing property is reported where it belongs: at the `data:` key of the document
    expect(missing.map((d) => [d.location, d.field, d.message])).toEqual([
      ['treasuremap__type__skiff__charts__osh__openstack-glance__glance.yaml:24:1', 'data.namespace', "'namespace' is a required property"],
      ['treasuremap__type__skiff__charts__osh__openstack-glance__glance.yaml:24:1', 'data.chart_name', "'chart_name' is a required property"],
      ['treasuremap__type__skiff__charts__osh__openstack-glance__glance.yaml:24:1', 'data.release', "'release' is a required property"],
      ['treasuremap__type__skiff__charts__osh__openstack-glance__glance.yaml:24:1', 'data.source', "'source' is a required property"],
    ]);
  });

  it('locates fields at their line and column', () => {
    const simple = 'armada__examples__simple.yaml';
    const blog1 = doc(simple, 'blog-1');
    const blog2 = doc(simple, 'blog-2');
    expect(blog1.startLine).toBe(1);
    expect(blog2.startLine).toBe(20);
    expect(blog1.locate(['metadata', 'name'])).toEqual({ line: 5, column: 3 });
    expect(blog1.locate(['data', 'source', 'reference'])).toEqual({ line: 19, column: 5 });
    expect(blog1.location(['data', 'source', 'reference'])).toBe(`${simple}:19:5`);
    expect(blog2.locate(['data', 'values', 'some'])).toEqual({ line: 30, column: 5 });
    expect(blog1.locate()).toEqual({ line: 2, column: 1 });

    const osh = 'openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml';
    const ovs = doc(osh, 'openvswitch');
    expect(ovs.locate(['data', 'wait', 'resources', 0, 'min_ready'])).toEqual({ line: 633, column: 9 });
    expect(ovs.locate(['data', 'wait', 'resources', 0])).toEqual({ line: 632, column: 9 });
    // missing parts of a path fall back to the deepest part that exists
    expect(ovs.locate(['data', 'wait', 'resources', 5, 'min_ready'])).toEqual({ line: 631, column: 5 });
    expect(ovs.locate(['data', 'nope', 'deeper'])).toEqual({ line: 623, column: 1 });

    const ingress = doc('treasuremap__global__software__charts__ucp__core__ingress.yaml', 'ucp-ingress');
    expect(ingress.locate(['data', 'wait', 'resources', 0, 'min_ready'])).toEqual({ line: 79, column: 9 });
    expect((ingress.data as { wait: { resources: { min_ready: unknown }[] } }).wait.resources[0].min_ready).toBe('33%');

    const htk = doc('treasuremap__global__software__charts__osh__openstack-compute-kit__nova.yaml', 'nova-htk');
    expect(htk.startLine).toBe(431);
    expect(htk.index).toBe(1);
    expect(htk.locate(['metadata', 'name'])).toEqual({ line: 435, column: 3 });
    expect(htk.locate(['metadata', 'layeringDefinition', 'abstract'])).toEqual({ line: 437, column: 5 });
  });

  it('locates through aliases to where the anchored content is written', () => {
    const legacy = loadCorpusFile('armada__examples__openstack-helm.yaml').documents[0];
    const raw = legacy.raw as { armada: { charts: { chart_group: { chart: { name: string; dependencies: { name: string }[] } }[] }[] } };
    const mariadb = raw.armada.charts[0].chart_group[1].chart;
    expect(mariadb.name).toBe('mariadb');
    expect(mariadb.dependencies[0].name).toBe('helm-toolkit');
    const text = fs.readFileSync(path.join(CORPUS, 'armada__examples__openstack-helm.yaml'), 'utf8').split('\n');
    const at = legacy.locate(['armada', 'charts', 0, 'chart_group', 1, 'chart', 'dependencies', 0, 'name']);
    expect(text[at.line - 1].slice(at.column - 1)).toMatch(/^name: helm-toolkit/);
    expect(at.line).toBeLessThan(18); // in the &helm-toolkit anchor, above mariadb
  });

  it("flags the treasuremap fragments as unrendered, and the openstack-helm gate manifests (with ${VAR}s) as not", () => {
    const nova = doc('treasuremap__global__software__charts__osh__openstack-compute-kit__nova.yaml', 'nova-global');
    // What a document alone shows: substitutions and layering need the rest of the stream (unrenderedInStream).
    expect(unrenderedReasons(nova).map((r) => r.path.join('.'))).toEqual(['metadata.layeringDefinition.abstract', 'data']);
    const glance = doc('treasuremap__type__skiff__charts__osh__openstack-glance__glance.yaml', 'glance');
    expect(unrenderedReasons(glance).map((r) => r.path.join('.'))).toEqual(['data']);
    for (const file of [
      'openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml',
      'openstack-helm-infra__tools__deployment__armada__manifests__armada-ceph.yaml',
      'openstack-helm-infra__tools__deployment__armada__manifests__armada-cluster-ingress.yaml',
    ]) {
      const docs = loadCorpusFile(file).documents;
      expect(JSON.stringify(docs.map((d) => d.raw))).toContain('${');
      expect(docs.flatMap((d) => unrenderedReasons(d))).toEqual([]);
    }
  });

  describe('cross-checked against PyYAML safe_load_all', () => {
    const run = havePyYaml(1) ? it : it.skip;
    run('the operator examples and the schemas load as PyYAML loads them, and fail where it fails', () => {
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const f of fs.readdirSync(dir).sort()) {
          const p = path.join(dir, f);
          if (fs.statSync(p).isDirectory()) walk(p);
          else if (/\.ya?ml$/.test(f)) files.push(p);
        }
      };
      walk(path.join(SHARED, 'operator-examples'));
      walk(path.join(SHARED, 'schemas'));
      expect(files.length).toBeGreaterThan(50);
      const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
      const expected = pyyamlLoadAll(texts);
      files.forEach((file, i) => {
        const r = parseText(texts[i], file);
        const errors = r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
        const want = expected[i];
        if ('error' in want) expect({ file, failed: errors.length > 0 }).toEqual({ file, failed: true });
        else expect({ file, errors, docs: r.documents.map(canonical) }).toEqual({ file, errors: [], docs: want.docs });
      });
    });

    run('every corpus file gives the same documents, value for value', () => {
      const texts = files.map((f) => fs.readFileSync(path.join(CORPUS, f), 'utf8'));
      const expected = pyyamlLoadAll(texts);
      files.forEach((file, i) => {
        const want = expected[i];
        if ('error' in want) throw new Error(`PyYAML failed on ${file}: ${want.error}`);
        expect({ file, docs: loadCorpusFile(file).documents.map(canonical) }).toEqual({ file, docs: want.docs });
      });
    });
  });
});
