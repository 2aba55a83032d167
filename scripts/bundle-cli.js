/**
 * Bundles the compiled CLI (`lib/src/cli/main.js`, the tsc output) into one CommonJS file,
 * `lib/armada-cdk-cli.js`, which `bin/armada-cdk.js` runs. A short run (`armada-cdk validate` of
 * a small file) otherwise spends most of its time finding, reading and compiling ~50 modules.
 *
 * What goes in, measured on that run:
 * - Our modules, each in esbuild's CommonJS wrapper, which runs a module when it is first
 *   required: the lazy `require`s of the sources stay lazy.
 * - js-yaml, which every run loads, as the single-file build its package ships (what
 *   `src/importer/load/js-yaml.ts` finds at run time); `require('js-yaml')` gets the same build.
 * - Not `yaml`, ajv or ajv-draft-04: only some inputs load them, and compiling their code on
 *   every run costs more than resolving them from `node_modules` when they are needed. Nor `tar`,
 *   which only `convert --package-charts` and `--check-subcharts` load (to fetch chart tarballs).
 * - Not `@pulumi/pulumi`: `armada-cdk wait` runs the Pulumi readiness gate's own code, whose
 *   default log is Pulumi's; the command gives it its own log, so Pulumi is never loaded.
 * - Not our JSON data (the keleustes values schema): it stays a file beside the compiled module,
 *   parsed as JSON when a conversion needs it, instead of compiled as JavaScript on every run.
 *
 * Usage: `node scripts/bundle-cli.js [--lib DIR]` after tsc (`npm run build` does both); DIR is
 * the tsc output directory (default: `lib`), and the bundle is written into it.
 */
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const libArg = process.argv.indexOf('--lib');
const LIB = libArg > 0 ? path.resolve(process.argv[libArg + 1]) : path.join(ROOT, 'lib');
const ENTRY = path.join(LIB, 'src', 'cli', 'main.js');
const OUT = path.join(LIB, 'armada-cdk-cli.js');
const EXTERNAL = ['yaml', 'ajv', 'ajv-draft-04', 'tar', '@pulumi/pulumi'];

const JS_YAML_BUILD = path.join(path.dirname(require.resolve('js-yaml')), 'dist', 'js-yaml.js');
const JS_YAML_LOADER = path.join(LIB, 'src', 'importer', 'load', 'js-yaml.js');

/** js-yaml as its single-file build, read here once instead of looked for on every run. */
const jsYamlBuild = {
  name: 'js-yaml-build',
  setup(build) {
    build.onResolve({ filter: /^js-yaml$/ }, () => ({ path: JS_YAML_BUILD }));
    build.onLoad({ filter: /[\\/]importer[\\/]load[\\/]js-yaml\.js$/ }, (args) =>
      args.path === JS_YAML_LOADER ? { contents: '"use strict";\nexports.jsyaml = require("js-yaml");\n', loader: 'js' } : undefined,
    );
  },
};

/** Our JSON files stay files, required from the bundle's directory. */
const jsonBeside = {
  name: 'json-beside',
  setup(build) {
    build.onResolve({ filter: /\.json$/ }, (args) => {
      if (args.kind !== 'require-call' || !args.path.startsWith('.')) return undefined;
      const file = path.resolve(args.resolveDir, args.path);
      if (!file.startsWith(path.join(LIB, 'src') + path.sep)) return undefined;
      return { path: `./${path.relative(LIB, file).split(path.sep).join('/')}`, external: true };
    });
  },
};

async function main() {
  if (!fs.existsSync(ENTRY)) {
    console.error(`bundle-cli: ${path.relative(ROOT, ENTRY)} is missing; run tsc first (npm run build)`);
    process.exit(1);
  }
  if (!fs.existsSync(JS_YAML_BUILD)) {
    console.error(`bundle-cli: js-yaml's single-file build ${path.relative(ROOT, JS_YAML_BUILD)} is missing`);
    process.exit(1);
  }

  const result = await esbuild.build({
    // Module names in the bundle are relative to the package (`lib/src/cli/main.js`), wherever it is built.
    absWorkingDir: path.dirname(LIB),
    entryPoints: [ENTRY],
    outfile: OUT,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    // Not minified, so that a stack trace of our own bug reads as the source does. Not
    // keepNames: it wraps every named closure in a defineProperty call each time the closure is
    // made, thousands of times per large run in the per-chart code (a 1.4% slower 8,000-chart
    // conversion); esbuild renames only what two modules both define (run, run2), and no code
    // reads a function's name (errors set theirs).
    keepNames: false,
    external: EXTERNAL.flatMap((p) => [p, `${p}/*`]),
    plugins: [jsYamlBuild, jsonBeside],
    banner: { js: '// armada-cdk CLI, bundled from lib/src by scripts/bundle-cli.js; do not edit.' },
    logLevel: 'warning',
    charset: 'ascii',
    write: false,
  });
  // Quiet on success: `npm pack --json` prints what prepack writes to stdout before its JSON.
  if (result.errors.length || result.warnings.length) process.exit(1);
  for (const f of result.outputFiles) fs.writeFileSync(f.path, asciiOnly(f.text));
}

/**
 * V8 keeps a source that has one character outside ASCII as two bytes per character, every
 * character of it: the whole bundle costs each run twice the memory and a slower decode, parse
 * and compile-cache check (about 4 ms of a short run's start-up). esbuild escapes such characters in
 * strings, templates and regular expressions (its ASCII charset), not in the comments it keeps;
 * what is left is escaped here, which leaves a comment readable and any code meaning the same.
 */
function asciiOnly(code) {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
