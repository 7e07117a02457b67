// Lint: typescript-eslint's recommended rules on the sources and tests, plus the house rules
// of docs/style.md that a linter can check (no default exports, no non-null assertions).
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** The names of the root's workspaces (package.json "workspaces": folder globs of one level). */
function workspaceNames() {
  const root = import.meta.dirname;
  const globs = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces;
  const dirs = globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(join(root, glob.slice(0, -2))).map((name) => join(glob.slice(0, -2), name))
      : [glob],
  );
  return dirs
    .map((dir) => join(root, dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')).name);
}

/** House rule (docs/style.md); a block that sets no-restricted-syntax again must repeat it. */
const NAMED_EXPORTS = { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' };

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'packages/sdk/src/generated/**',
      '**/node_modules/**',
      '.data/**',
      '.turbo/**',
      'coverage/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', NAMED_EXPORTS],
    },
  },
  {
    // The Node 20 slow path of docs/style.md (bench/README.md finding 56): on the paths every
    // request, event or delivery runs, no object literal that starts with a spread and has
    // members after it (about 1 us per member on V8 11.3). Write Object.assign({}, x, { ... })
    // or name the fields. A rare path inside these folders says why it may keep the spread.
    files: [
      'apps/gateway/src/{routing,rate-limit,accounts,request-log}/**/*.ts',
      'apps/gateway/src/security-headers.ts',
      'apps/payments/src/{card-payments,card-form,transactions,intents,refunds,payment-links,ledger,merchants}/**/*.ts',
      'apps/invoicing/src/{invoices,receipts,billing,payments-feed}/**/*.ts',
      'apps/webhooks/src/{delivery,events}/**/*.ts',
      'libs/platform/src/{bus,db,http,idempotency,messaging,outbox}/**/*.ts',
      'libs/platform/src/{events,tenancy,clock,ids,money}.ts',
    ],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NAMED_EXPORTS,
        {
          selector: 'ObjectExpression > SpreadElement:first-child ~ Property',
          message:
            'On a hot path, no member after a leading spread (Node 20 slow path, docs/style.md): Object.assign({}, x, { ... }).',
        },
      ],
    },
  },
  {
    // Every workspace declares what its code imports (issue 14 item 5): a package that
    // resolves only through the workspace's hoisting breaks the day the hoisting changes, and a
    // team deploying one app alone cannot see what it needs. The nearest package.json counts;
    // type-only imports too (tsc needs the package to build). What ships (a workspace's src/,
    // bench's harness, an example) may use only its dependencies.
    files: [
      'apps/*/src/**/*.ts',
      'libs/*/src/**/*.ts',
      'packages/*/src/**/*.ts',
      'examples/*/src/**/*.ts',
      'bench/**/*.mjs',
    ],
    ignores: ['**/*.spec.ts'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: false, optionalDependencies: false, peerDependencies: true, includeTypes: true },
      ],
    },
  },
  {
    // No import cycle among a workspace's own files (issue 14: a cycle is two files that
    // cannot be understood, moved or tested apart). The rule sees value imports only (it skips
    // `import type`); the type-only cycles were removed by hand and madge found none left.
    // Workspaces depend on each other one way, which the build order enforces.
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // A workspace's own specs, type tests and build scripts: its package.json again, where
    // devDependencies count (fast-check, ajv are declared by the workspaces whose specs use them).
    files: ['{apps,libs,packages,examples}/*/src/**/*.spec.ts', 'packages/*/{test-d,scripts}/**/*.{ts,mjs}'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        { devDependencies: true, optionalDependencies: false, peerDependencies: true, includeTypes: true },
      ],
    },
  },
  {
    // tests/ and scripts/ belong to the root package: its devDependencies, plus the workspaces
    // themselves (npm links every workspace into node_modules; the root declaring its own
    // workspaces as dependencies would say nothing more).
    files: ['tests/**/*.{ts,mjs,js}', 'scripts/**/*.{ts,mjs,js}', '*.{mjs,js,cjs}'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-extraneous-dependencies': [
        'error',
        {
          devDependencies: true,
          optionalDependencies: false,
          peerDependencies: false,
          includeTypes: true,
          packageDir: import.meta.dirname,
          whitelist: workspaceNames(),
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON responses.
    files: ['tests/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        jest: 'readonly',
        performance: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
