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

let cli = { exports: undefined, save: () => undefined };
if (current()) {
  const cache = require(path.join(lib, 'src', 'cli', 'code-cache.js'));
  cli = cache.runWithCodeCache(bundle, cache.codeCacheDirectory(), argv[0]);
} else {
  cli.exports = require(modules);
}
// A large input gets V8's later optimization (src/cli/tier-up.ts says why and when; the setting
// still takes effect after the code is loaded); standard input from a pipe gets it once that much
// has been read.
cli.exports.tierUpForInputs(argv);
cli.exports.main(argv).then((code) => {
  process.exitCode = code;
  // A cache written under the raised threshold's V8 flags would be refused by every later run.
  if (!cli.exports.tierUpRaised()) cli.save();
});
