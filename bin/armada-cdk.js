#!/usr/bin/env node
'use strict';
// Node's own compile cache (Node.js 22.1 and later) keeps the bytecode of the modules loaded
// below, so that a short run does not parse and compile them again. Where the function does not
// exist it is left out; NODE_DISABLE_COMPILE_CACHE=1 turns it off and NODE_COMPILE_CACHE=<dir>
// moves it, as Node documents.
const { enableCompileCache } = require('module');
if (typeof enableCompileCache === 'function') enableCompileCache();

// The CLI ships as one bundled file (`npm run build` makes it after tsc): a short run loads one
// file instead of ~50 modules. The compiled modules run instead when there is no bundle, or in a
// checkout (it has tsconfig.json, a package does not) compiled again by tsc alone after the
// bundle was made: then some module under lib/src is newer than the bundle (tsc rewrites only
// the modules whose output changed, so `main.js` alone cannot tell). In an installed package the
// files' times say only in which order they were unpacked.
// tsc (incremental) rewrites lib/.tsbuildinfo whenever it emits, so a checkout whose build info
// is older than the bundle was bundled after its last emit: one stat instead of a walk over
// every module, which would cost a short run a quarter of its time.
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const lib = path.join(root, 'lib');
const bundle = path.join(lib, 'armada-cdk-cli.js');
const modules = path.join(lib, 'src', 'cli', 'main.js');
function newerModule(dir, than) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() ? newerModule(p, than) : e.name.endsWith('.js') && fs.statSync(p).mtimeMs > than) return true;
  }
  return false;
}
function current() {
  const built = fs.statSync(bundle, { throwIfNoEntry: false });
  if (built === undefined) return false;
  if (!fs.existsSync(path.join(root, 'tsconfig.json')) || !fs.existsSync(modules)) return true;
  const info = fs.statSync(path.join(lib, '.tsbuildinfo'), { throwIfNoEntry: false });
  if (info !== undefined && info.mtimeMs <= built.mtimeMs) return true;
  return !newerModule(path.join(lib, 'src'), built.mtimeMs);
}

require(current() ? bundle : modules)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
