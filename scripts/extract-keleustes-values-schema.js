#!/usr/bin/env node
// Extracts the closed `values` schema of the keleustes v1alpha1 ArmadaChart CRD into the JSON file
// the keleustes target reads at synth, so that the library does not need the CRD file at run time.
//   node scripts/extract-keleustes-values-schema.js <path to armada.airshipit.org_armadacharts.yaml>
const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');

const crdPath = process.argv[2];
if (!crdPath) {
  console.error('usage: extract-keleustes-values-schema.js CRD.yaml');
  process.exit(2);
}
const crd = yaml.load(fs.readFileSync(crdPath, 'utf8'));
const version = crd.spec.versions.find((v) => v.name === 'v1alpha1');
const values = version.schema.openAPIV3Schema.properties.spec.properties.values;
// Descriptions are placeholders ("contains tbd") and make up most of the file: drop them.
const strip = (s) => {
  if (Array.isArray(s)) return s.map(strip);
  if (s && typeof s === 'object') {
    const out = {};
    for (const k of Object.keys(s)) if (k !== 'description') out[k] = strip(s[k]);
    return out;
  }
  return s;
};
const out = path.join(__dirname, '..', 'src', 'model', 'wire', 'keleustes-values-schema.json');
fs.writeFileSync(out, JSON.stringify(strip(values)) + '\n');
console.log(`wrote ${out}`);
