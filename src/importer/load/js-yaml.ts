/**
 * js-yaml, loaded from the single-file build its package ships (`dist/js-yaml.js`: the same
 * version and code as `index.js`, bundled). `index.js` requires 24 more files, and resolving and
 * compiling them cost a short run (`armada-cdk validate` of one small file) more than parsing.
 *
 * Every module that builds or reads this loader's types (the PyYAML schema, its `YAMLException`)
 * imports it from here, so that they share one copy.
 */
import * as path from 'path';

// The package's `exports` name only `index.js`; the build sits beside it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const jsyaml = require(path.join(path.dirname(require.resolve('js-yaml')), 'dist', 'js-yaml.js')) as typeof import('js-yaml');
