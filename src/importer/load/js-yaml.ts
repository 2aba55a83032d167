/**
 * js-yaml, loaded from the single-file build its package ships (`dist/js-yaml.js`: the same
 * version and code as `index.js`, bundled). `index.js` requires 24 more files, and resolving and
 * compiling them cost a short run (`armada-cdk validate` of one small file) more than parsing.
 *
 * Every module that builds or reads this loader's types (the PyYAML schema, its `YAMLException`)
 * imports it from here, so that they share one copy.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * The build, found where `require('js-yaml')` looks (the `node_modules` folders from here up).
 * The package's `exports` name only `index.js`, and resolving a name through `exports` loads
 * Node's ES module resolver, which alone costs a small run milliseconds.
 */
function jsYamlFile(): string {
  for (const dir of require.resolve.paths('js-yaml') ?? []) {
    const file = path.join(dir, 'js-yaml', 'dist', 'js-yaml.js');
    if (fs.existsSync(file)) return file;
  }
  return require.resolve('js-yaml');
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const jsyaml = require(jsYamlFile()) as typeof import('js-yaml');
