/**
 * A local timing check, not a test: parse + classify + validate of a generated site against the
 * baseline (js-yaml's default load + ajv-draft-04 on the same data).
 *
 *   node ../shared/tools/gen-manifest.mjs 2000 > site-2000.yaml
 *   TS_NODE_TRANSPILE_ONLY=1 npx ts-node test/importer/load/timing.script.ts site-2000.yaml [ROUNDS]
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv-draft-04';
import * as jsyaml from 'js-yaml';
import { classifyDocuments, parseYamlStream, validateArmadaDocuments } from '../../../src/importer/load';

const file = process.argv[2];
if (!file) {
  console.error('usage: timing.script.ts SITE.yaml [ROUNDS]');
  process.exit(2);
}
const rounds = Number(process.argv[3] ?? 7);
const text = fs.readFileSync(file, 'utf8');

function baselineSchemas() {
  const dir = path.resolve(__dirname, '../../../schemas/armada');
  const out = new Map<string, object>();
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
    const doc = jsyaml.load(fs.readFileSync(path.join(dir, f), 'utf8')) as { metadata: { name: string }; data: Record<string, unknown> };
    delete doc.data.$schema;
    out.set(doc.metadata.name, doc.data);
  }
  return out;
}

let validators: Map<string, ReturnType<Ajv['compile']>> | undefined;

// Schemas compiled once, as ours are: the warm rounds compare parsing and validating only.
function baseline(): number {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    validators = new Map([...baselineSchemas()].map(([k, s]) => [k, ajv.compile(s)]));
  }
  let errors = 0;
  for (const d of jsyaml.loadAll(text) as { schema: string; data: unknown }[]) {
    const v = validators.get(d.schema);
    if (v && !v(d.data)) errors += v.errors!.length;
  }
  return errors;
}

function ours(): number {
  const parsed = parseYamlStream({ file, text });
  const classified = classifyDocuments(parsed.documents);
  return parsed.diagnostics.length + classified.diagnostics.length + validateArmadaDocuments(classified.armada).length;
}

function time(fn: () => number): { ms: number; result: number } {
  const t = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, result };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cold = { ours: time(ours), baseline: time(baseline) };
const warm = { ours: [] as number[], baseline: [] as number[] };
for (let i = 0; i < rounds; i++) {
  warm.baseline.push(time(baseline).ms);
  warm.ours.push(time(ours).ms);
}
const mb = (text.length / 1e6).toFixed(1);
console.log(`${file}: ${mb} MB, diagnostics ours=${cold.ours.result} baseline errors=${cold.baseline.result}`);
console.log(`cold: ours ${cold.ours.ms.toFixed(0)} ms, baseline ${cold.baseline.ms.toFixed(0)} ms`);
console.log(`warm median of ${rounds}: ours ${median(warm.ours).toFixed(0)} ms, baseline ${median(warm.baseline).toFixed(0)} ms, ratio ${(median(warm.ours) / median(warm.baseline)).toFixed(2)}`);
console.log(`heap used after: ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
