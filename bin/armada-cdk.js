#!/usr/bin/env node
'use strict';
// The CLI ships as one bundled file (`npm run build` makes it after tsc): a short run loads one
// file instead of ~50 modules. The compiled modules run instead when there is no bundle, or when
// they are newer than it (a checkout compiled again by tsc alone).
const fs = require('fs');
const path = require('path');

const bundle = path.join(__dirname, '..', 'lib', 'armada-cdk-cli.js');
const modules = path.join(__dirname, '..', 'lib', 'src', 'cli', 'main.js');
function current() {
  try {
    return fs.statSync(bundle).mtimeMs >= fs.statSync(modules).mtimeMs;
  } catch {
    return fs.existsSync(bundle);
  }
}
require(current() ? bundle : modules)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
