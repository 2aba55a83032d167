import { applySets, applyValuesFiles, armadaUpdate, cloneShared, OverridableDocument, quotedSet, sharedNodes } from '../../src/importer/overrides';
import { OverrideTrace, setSource } from '../../src/importer/override-trace';

function docs(): OverridableDocument[] {
  return [
    { schema: 'armada/Chart/v1', name: 'blog-1', data: { release: 'blog-1', values: { a: { b: 1 } }, dependencies: ['x'], wait: { timeout: 100 } } },
    { schema: 'armada/Chart/v2', name: 'blog-1', data: { release: 'v2' } },
    { schema: 'armada/ChartGroup/v1', name: 'g', data: { chart_group: ['blog-1'] } },
    { schema: 'armada/Manifest/v1', name: 'm', data: { release_prefix: 'p', chart_groups: ['g'] } },
  ];
}

describe('Armada overrides', () => {
  test('--values: matched by schema type AND version and name; maps merge, scalars replace, a string onto a list is comma-split', () => {
    const d = docs();
    const diags = applyValuesFiles(d, [
      { schema: 'armada/Chart/v1', name: 'blog-1', location: 'o.yaml:1:1', data: { values: { a: { c: 2 } }, dependencies: 'helm-toolkit, other ', wait: { timeout: 600 } } },
      { schema: 'armada/Chart/v1', name: 'nope', location: 'o.yaml:9:1', data: { release: 'x' } },
      { schema: 'deckhand/Passphrase/v1', name: 'blog-1', location: 'o.yaml:12:1', data: 'secret' },
    ]);
    expect(d[0].data).toEqual({ release: 'blog-1', values: { a: { b: 1, c: 2 } }, dependencies: ['helm-toolkit', 'other'], wait: { timeout: 600 } });
    expect(d[1].data).toEqual({ release: 'v2' });
    expect(diags).toEqual([
      { severity: 'warning', location: 'o.yaml:9:1', document: 'armada/Chart/v1 nope', code: 'override', message: 'this override document matches no document of the same schema and name; Armada ignores it' },
    ]);
  });

  test('--set: values are always strings (so wait.timeout=600 becomes "600"), lists are comma-split, any version, first match', () => {
    const d = docs();
    expect(applySets(d, ['chart:blog-1:wait.timeout=600', 'chart:blog-1:values.new.deep=x', 'manifest:m:chart_groups=a,b', 'chart:blog-1:values.a.b=true'])).toEqual([]);
    expect(d[0].data.wait).toEqual({ timeout: '600' });
    expect(d[0].data.values).toEqual({ a: { b: 'true' }, new: { deep: 'x' } });
    expect(d[3].data.chart_groups).toEqual(['a', 'b']);
    expect(d[1].data).toEqual({ release: 'v2' });
  });

  test('--set mistakes are diagnostics, not crashes', () => {
    const d = docs();
    expect(applySets(d, ['chart:blog-1:values.a', 'chart:blog-1=1', 'pod:x:a=1', 'chart:nope:a=1', 'chart:blog-1:a=', 'chart:blog-1:a="q"', 'chart:blog-1:values.a.b.c=1']).map((x) => x.message)).toEqual([
      '"chart:blog-1:values.a": expected TYPE:NAME:PATH=VALUE (no "=" found)',
      '"chart:blog-1=1": expected TYPE:NAME:PATH=VALUE (TYPE is chart, chart_group or manifest)',
      '"pod:x:a=1": unknown document type "pod"; Armada knows chart, chart_group and manifest',
      '"chart:nope:a=1": no chart document named "nope" (Armada: UnknownDocumentOverrideException)',
      '"chart:blog-1:a=": the value is empty (Armada fails on an empty --set value)',
      '"chart:blog-1:a=\\"q\\"": the value has a double quote that is not escaped: Armada writes the value between double quotes into a JSON text as it is, so the quote ends the string and json.loads fails (JSONDecodeError); write \\" for a double quote',
      '"chart:blog-1:values.a.b.c=1": data.values.a.b: the override is a non-empty mapping but the document has a number there (Armada fails on this: it calls .get() on it)',
    ]);
  });

  test('--set: a path that would nest the document past what Armada handles is refused before anything is built', () => {
    const path = (n: number) => ['values', ...Array.from({ length: n - 1 }, (_, i) => `k${i}`)].join('.');
    const d = docs();
    // The document's mapping and data are levels 1 and 2; 489 segments end at level 490 with the value.
    expect(applySets(d, [`chart:blog-1:${path(489)}=x`])).toEqual([]);
    for (const n of [490, 20_000]) {
      const before = docs();
      const diags = applySets(before, [`chart:blog-1:${path(n)}=x`]);
      expect(diags.map((x) => [x.severity, x.location, x.message.slice(x.message.indexOf(': the path') + 2)])).toEqual([
        ['error', '--set[0]', `the path has ${n} segments, so the document would nest more than 490 levels deep: more than Armada handles (its merge and PyYAML recurse once or more per level and stop with a RecursionError)`],
      ]);
      expect(before).toEqual(docs());
    }
  });

  test("--set reproduces Armada's repeated-segment behaviour, with a warning", () => {
    const d = docs();
    const diags = applySets(d, ['chart:blog-1:values.x.values=1']);
    // Armada builds {values: "1", x: {values: "1"}}: the whole of data.values is replaced.
    expect(d[0].data.values).toBe('1');
    expect(d[0].data.x).toEqual({ values: '1' });
    expect(diags.map((x) => [x.severity, x.message])).toEqual([
      ['warning', '"chart:blog-1:values.x.values=1": the path repeats its last segment "values"; Armada then also sets it at the first place it appears'],
    ]);
  });
});

describe('Armada overrides: no-ops and shared nodes', () => {
  test('an empty mapping onto a list, a string or null changes nothing (update() loops over nothing)', () => {
    const d: OverridableDocument[] = [{ schema: 'armada/Chart/v1', name: 'c', data: { values: { l: [1], s: 'x', n: null } } }];
    expect(applyValuesFiles(d, [{ schema: 'armada/Chart/v1', name: 'c', location: 'o.yaml:1:1', data: { values: { l: {}, s: {}, n: {}, added: {} } } }])).toEqual([]);
    expect(d[0].data).toEqual({ values: { l: [1], s: 'x', n: null, added: {} } });
  });

  test('cloneShared keeps what aliases share, so an override through one place shows at the other', () => {
    const labels = { app: 'x' };
    const data = { wait: { labels, resources: [{ type: 'pod', labels }] } };
    const copy = cloneShared(data);
    expect(copy).toEqual(data);
    expect(copy.wait.labels).not.toBe(labels);
    expect(copy.wait.resources[0].labels).toBe(copy.wait.labels);
    const d: OverridableDocument[] = [{ schema: 'armada/Chart/v1', name: 'c', data: copy, shared: sharedNodes(copy) }];
    const diags = applySets(d, ['chart:c:wait.labels.tier=db']);
    expect(copy.wait.resources[0].labels).toEqual({ app: 'x', tier: 'db' });
    expect(diags.map((x) => [x.severity, x.location, x.message])).toEqual([
      ['warning', '--set[0]', '"chart:c:wait.labels.tier=db": data.wait.labels is a node the document shares through a YAML alias; as in Armada, the change shows at every place that refers to it'],
    ]);
  });

  test('--set refuses control characters and a non-Armada document before its target', () => {
    const d: OverridableDocument[] = [{ schema: 'armada/Chart/v1', name: 'c', data: {}, precededBy: [{ label: 'deckhand/Passphrase/v1 p', location: 'f.yaml:1:1' }] }];
    expect(applySets(d, ['chart:c:a=x\ry', 'chart:c:a=1']).map((x) => x.message)).toEqual([
      '"chart:c:a=x\\ry": the value contains a carriage return, which Armada\'s JSON round trip of --set values refuses ("Invalid control character"); write it as a JSON escape (\\t, \\n, \\u0001) or put the value in a --values file',
      '"chart:c:a=1": document deckhand/Passphrase/v1 p (f.yaml:1:1) is not an Armada document and comes before the chart "c" in the stream; Armada\'s --set looks documents up in stream order and fails on it (\'NoneType\' object has no attribute \'type\'): pass the Armada documents first, or in files of their own',
    ]);
    expect(d[0].data).toEqual({});
  });
});

describe('--set arguments in messages', () => {
  test('quoted whole up to 200 characters; longer ones by their first 160 and their length', () => {
    const short = `chart:c:values.${'a'.repeat(183)}=1`;
    expect(short).toHaveLength(200);
    expect(quotedSet(short)).toBe(JSON.stringify(short));
    const long = `chart:c:values.${'a'.repeat(184)}=1`;
    expect(quotedSet(long)).toBe(`"chart:c:values.${'a'.repeat(145)}…" (201 characters)`);
    // A quote inside the part shown stays escaped; the count is of the argument as given.
    expect(quotedSet(`chart:c:"${'b'.repeat(1_200)}`)).toBe(`"chart:c:\\"${'b'.repeat(151)}…" (1,209 characters)`);
  });

  test('a finding about a value written by a long --set quotes it the same way', () => {
    const docs: OverridableDocument[] = [{ schema: 'armada/Chart/v1', name: 'c', data: { values: {} }, location: 'f.yaml:1:1' } as OverridableDocument];
    const value = 'v'.repeat(300);
    const writes: { quoted: string }[] = [];
    expect(applySets(docs, [`chart:c:values.x=${value}`], (w) => writes.push(w))).toEqual([]);
    expect(writes.map((w) => w.quoted)).toEqual([`"chart:c:values.x=${'v'.repeat(143)}…" (317 characters)`]);
  });
});

describe('where overridden values came from', () => {
  test('armadaUpdate tells the paths it replaced or created, not the mappings it merged into nor the no-ops', () => {
    const written: string[] = [];
    const d: Record<string, unknown> = { wait: { timeout: 1 }, l: ['x'], s: 'x' };
    armadaUpdate(d, { wait: { timeout: 2, labels: { a: 'b' } }, l: 'y, z', s: {}, added: { deep: 1 } }, ['data'], (p) => written.push(p.join('.')));
    expect(written).toEqual(['data.wait.timeout', 'data.wait.labels', 'data.wait.labels.a', 'data.l', 'data.added', 'data.added.deep']);
  });

  test('the deepest path written decides; writing a path again forgets what was written under it', () => {
    const [a, b, c] = [setSource(0), setSource(1), setSource(2)];
    const trace = new OverrideTrace();
    expect(trace.empty).toBe(true);
    trace.record(['data', 'wait'], a);
    trace.record(['data', 'wait', 'timeout'], b);
    trace.record(['data', 'list'], a);
    expect(trace.empty).toBe(false);
    expect(trace.find(['data', 'wait', 'timeout'])).toBe(b);
    expect(trace.find(['data', 'wait', 'labels', 'x'])).toBe(a);
    expect(trace.find(['data', 'list', 3, 'x'])).toBe(a);
    expect(trace.find(['data'])).toBeUndefined();
    expect(trace.find(['data', 'values'])).toBeUndefined();
    trace.record(['data', 'wait'], c);
    expect(trace.find(['data', 'wait', 'timeout'])).toBe(c);
    expect(c.locate(['data', 'wait'])).toEqual({ line: 0, column: 0, elsewhere: '--set[2]' });
  });

  test('applyValuesFiles and applySets record their writes in the trace of the document they change', () => {
    const d = docs();
    const traces = d.map(() => new OverrideTrace());
    const traced = d.map((x, i) => ({ ...x, trace: traces[i] }));
    const file = { locate: () => ({ line: 7, column: 3, elsewhere: 'o.yaml:7:3' }) };
    applyValuesFiles(traced, [{ schema: 'armada/Chart/v1', name: 'blog-1', location: 'o.yaml:1:1', data: { wait: { timeout: 5 } }, source: file }]);
    applySets(traced, ['chart:blog-1:values.a.b=2']);
    expect(traces[0].find(['data', 'wait', 'timeout'])).toBe(file);
    expect(traces[0].find(['data', 'values', 'a', 'b'])?.locate([])).toEqual({ line: 0, column: 0, elsewhere: '--set[0]' });
    expect(traces[0].find(['data', 'values', 'a'])).toBeUndefined();
    expect(traces.slice(1).every((t) => t.empty)).toBe(true);
  });
});
