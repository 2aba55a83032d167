#!/usr/bin/env node
'use strict';
// The CLI ships as one bundled file (`npm run build` makes it after tsc): a short run loads one
// file instead of ~50 modules. A checkout compiled by tsc alone runs the compiled modules.
const fs = require('fs');
const path = require('path');

const bundle = path.join(__dirname, '..', 'lib', 'armada-cdk-cli.js');
require(fs.existsSync(bundle) ? bundle : '../lib/src/cli/main.js')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
