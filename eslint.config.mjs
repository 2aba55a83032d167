// @ts-check
// ESLint flat config. typescript-eslint's syntax-only recommended rules (no type information, so a
// run takes seconds; tsc already checks types) plus a few rules the code follows everywhere.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The globals a plain CommonJS Node script sees. */
const commonjsGlobals = Object.fromEntries(
  ['require', 'module', 'exports', 'process', 'console', '__dirname', '__filename', 'Buffer'].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    // Lint the sources (src, test, bench, examples, scripts); build output and generated validators are not sources.
    ignores: ['lib/', 'dist/', 'coverage/', '.bench/', 'node_modules/', 'schemas/armada/validators/', 'api/', 'bin/', '*.js', '*.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      'object-shorthand': 'error',
      'no-throw-literal': 'error',
      // YAML and shell quoting match control characters on purpose.
      'no-control-regex': 'off',
      // `Chart<any>` keeps charts of every values type in one collection, and tests read untyped YAML.
      '@typescript-eslint/no-explicit-any': 'off',
      // A named options interface that only extends another is public API, not an accident.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // The same convention as tsc's noUnusedParameters: a leading underscore marks a deliberate unused name.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Pulumi serializes dynamic providers' methods into its provider process, where only a plain
    // `require` at call time reaches the provider code and @pulumi/*.
    files: ['src/pulumi/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests load modules through jest's registry (isolateModules, virtual mocks) with `require`.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Benchmarks, scripts and the child-process scripts of tests report on stdout/stderr.
    files: ['bench/**', 'scripts/**', 'test/**/*.script.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: commonjsGlobals },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
