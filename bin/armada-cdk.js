#!/usr/bin/env node
'use strict';
// The CLI ships as one bundled file (`npm run build` makes it after tsc): a short run loads one
// file instead of ~50 modules, compiled from a V8 code cache when an earlier run left one
// (lib/src/cli/code-cache.js says where and why it is safe). The compiled modules run instead
// when there is no bundle, or in a checkout (it has tsconfig.json, a package does not) compiled
// again by tsc alone, whose modules are then newer than the bundle. In an installed package the
// files' times say only in which order they were unpacked.
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const lib = path.join(root, 'lib');
const bundle = path.join(lib, 'armada-cdk-cli.js');
const modules = path.join(lib, 'src', 'cli', 'main.js');
function current() {
  try {
    const built = fs.statSync(bundle).mtimeMs;
    return !fs.existsSync(path.join(root, 'tsconfig.json')) || built >= fs.statSync(modules).mtimeMs;
  } catch {
    return fs.existsSync(bundle);
  }
}
const argv = process.argv.slice(2);

// V8 optimizes a function once it has run about 66 kB of bytecode, a threshold made for pages and
// servers that run for hours. A conversion runs each per-chart function a few thousand times and
// exits: at that threshold its compiler threads spend more CPU optimizing the per-chart code than
// the optimized code then saves (a sixth of a 2,000-chart conversion's CPU), and on a machine of
// two cores they take it from the main thread. Four times the threshold leaves the hot loops
// (parsing, writing) optimized as before: 7 to 19% less CPU and 0 to 7% less wall time, at 250
// to 8,000 charts. Only for inputs of 256 KiB or more (about 150 charts): loading the v8 module
// costs a small run 3 ms, and it compiles too little for the setting to matter. This process
// only: the library, in a user's own process, leaves V8 as it is.
// Standard input counts when it is a file (`validate - < site.yaml`); a pipe's size is not known.
function inputBytes(args) {
  let n = 0;
  for (const a of args) {
    if (a.startsWith('-') && a !== '-') continue;
    try {
      const st = a === '-' ? fs.fstatSync(0) : fs.statSync(a);
      if (st.isFile()) n += st.size;
    } catch {
      // not a file: a command, a target, an option's value; or no standard input at all
    }
  }
  return n;
}
if (inputBytes(argv) >= 256 * 1024) require('v8').setFlagsFromString('--interrupt-budget=270336');

let cli = { exports: undefined, save: () => undefined };
if (current()) {
  const cache = require(path.join(lib, 'src', 'cli', 'code-cache.js'));
  cli = cache.runWithCodeCache(bundle, cache.codeCacheDirectory(), argv[0]);
} else {
  cli.exports = require(modules);
}
cli.exports.main(argv).then((code) => {
  process.exitCode = code;
  cli.save();
});
