'use strict';
/**
 * `node -r test/helpers/register-ts.js script.ts`: runs the TypeScript of a test's child process,
 * each file compiled on its own by esbuild (a dependency already, for the CLI bundle), as ts-jest
 * and `tsc --noEmit` leave type checking to `npm test`'s first step. Three times less CPU per
 * process than ts-node's transpiler, which loads and runs TypeScript's compiler. Stack traces
 * point into the .ts files, as they do under ts-node.
 */
const fs = require('fs');
const { transformSync } = require('esbuild');

// As tsconfig.json compiles: ES2022 (class fields defined, not assigned), esModuleInterop.
const OPTIONS = { loader: 'ts', format: 'cjs', target: 'es2022', sourcemap: 'inline', tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, esModuleInterop: true } } };

process.setSourceMapsEnabled(true);
require.extensions['.ts'] = (module, filename) => {
  module._compile(transformSync(fs.readFileSync(filename, 'utf8'), { ...OPTIONS, sourcefile: filename }).code, filename);
};
