// ESLint as eemeli/yaml sets it up (eslint.config.mjs at v2.9.0): the recommended rules, the
// typed typescript-eslint rules through the project service, and prettier owning the layout.
// We add typescript-eslint's stylistic typed set, and a line-length check prettier cannot give:
// it does not break strings, comments or regexes. Which folder may import which is not here: it
// is in .dependency-cruiser.cjs, which also sees cycles between folders.
import eslint from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import prettierConfig from 'eslint-config-prettier/flat';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      // npm run build copies dist/ here for the Helm 4 plugin (scripts/build.mjs).
      'renderer/dist/',
      '.cache/',
      'node_modules/',
      // Real charts and byte-compared outputs: data, not code.
      'test/fixtures/',
      'test/golden/',
      'test/explain/golden/',
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  prettierConfig,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // The config files at the root are outside tsconfig.json's folders, and gen-dense.mjs
          // is shadowed in the program by its gen-dense.d.mts.
          allowDefaultProject: ['*.mjs', '.dependency-cruiser.cjs', 'scripts/gen-dense.mjs'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // From eemeli/yaml's eslint.config.mjs (v2.9.0).
      'array-callback-return': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-constant-condition': ['error', { checkLoops: false }],
      'no-implicit-globals': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Node's ES modules, tsx and esbuild all resolve the name as written.
              regex: '^\\..*(?<!\\.(ts|mjs|js|json))$',
              message: 'Relative imports name the file with its extension (.ts).',
            },
          ],
        },
      ],
      'no-template-curly-in-string': 'warn',
      'no-var': 'error',
      'prefer-const': ['error', { destructuring: 'all' }],
      '@typescript-eslint/consistent-type-exports': 'error',
      // verbatimModuleSyntax (tsconfig.json) keeps `import type` out of the bundle; this rule
      // says which imports should be written that way.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'separate-type-imports' },
      ],
      // Manifest data is read by key (`annotations['proxy.istio.io/config']`,
      // `env['proxyMetadata']`): the brackets say "a key of the YAML", so they stay allowed on
      // index signatures.
      '@typescript-eslint/dot-notation': ['error', { allowIndexSignaturePropertyAccess: true }],
      // `string[]` for simple element types; `Array<{ container: string; seconds: number }>` reads
      // better than `{ container: string; seconds: number }[]` for an object type.
      '@typescript-eslint/array-type': ['error', { default: 'array-simple' }],
      // `||` stays right where it means "or" (booleans) and where an empty string falls back on
      // purpose (`functionName || '(anonymous)'`); `??` is for null and undefined.
      '@typescript-eslint/prefer-nullish-coalescing': [
        'error',
        { ignoreMixedLogicalExpressions: true, ignorePrimitives: { boolean: true, string: true } },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // A switch over a union (a Source's kind, a finding's severity) names every member, or
      // says `default`: a member added later is then a compile-time question, not a silent
      // fall-through (issue #32 item 4).
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
  {
    // A function is one step of a decision: at most 80 lines (blank lines and comments not
    // counted) and 4 parameters; more travel as one named object (issue #32 item 4). No file is
    // exempt.
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
      'max-params': ['error', { max: 4 }],
    },
  },
  {
    // No line over prettier's printWidth (prettier.config.mjs). prettier keeps to it wherever it
    // may break a line, but never splits a string, a template, a regex or a comment: this rule
    // is what holds those to 100 too. Counted in characters (code points), as prettier does, not
    // bytes. @stylistic/max-len rather than core max-len: the core rule is deprecated since
    // ESLint 8.53 and frozen (removed in 11), and ESLint Stylistic is where its maintenance moved
    // (https://eslint.style/guide/migration).
    //
    // One exemption: the line that opens a test, `test('title', (t) => {`. prettier prints a
    // test call that way whatever its length (isTestCall, src/language-js/utils/index.js in
    // prettier 3.10.1), so a long title cannot be wrapped, only cut into a `'…' + '…'` chain
    // that reads worse; the title stays whole, as ava prints it. Strings, comments, regexes and
    // URLs elsewhere are not exempt.
    plugins: { '@stylistic': stylistic },
    rules: {
      '@stylistic/max-len': [
        'error',
        { code: 100, tabWidth: 2, ignorePattern: String.raw`^\s*test(?:\.\w+)?\(` },
      ],
    },
  },
  {
    // TypeScript resolves the names in .ts files (typescript-eslint turns no-undef off there);
    // the .mjs scripts run on Node and see its globals.
    files: ['**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: {
      // Plain JavaScript has no annotations to make a JSON.parse or a child's output anything
      // but `any`; the typed rules still check every call into the TypeScript code.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    files: ['test/**'],
    rules: {
      // ava's t.is/t.true are passed around as methods in table-driven tests, and JSON read back
      // from the CLI's output is `any` by nature: asserting on it is the test.
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // Tests match ANSI colour escapes (\x1b[...m) in the CLI's output.
      'no-control-regex': 'off',
      // Test inputs carry a literal ${...} on purpose: shell injection attempts, Helm's
      // ${HELM_PLUGIN_DIR}.
      'no-template-curly-in-string': 'off',
      // Tests name generated manifests by String(value) of unknown YAML values; an object there
      // only makes a failure message read [object Object].
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
);
