// ESLint flat config: typescript-eslint, sorted type-aware imports, and the layer rules that
// keep dependencies pointing one way (façades → domains → store).
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const SDK = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'];
const DRIVER = {
  group: ['better-sqlite3', 'sqlite-vec', 'pg'],
  message: 'Only src/store touches a database driver.',
};
const facades = {
  // Relative paths only: a package such as @secretlint/core is not our core.
  regex: '^(\\.\\./)+(mcp|http|irc|cli|core|web)(/|$)',
  message: 'A domain module never imports a façade or the core.',
};
const DOMAIN_NAMES =
  'auth|board|memory|rooms|broker|embed|backplane|code|activity|vault|entity|graph';
const domains = {
  regex: `^(\\.\\./)+(${DOMAIN_NAMES})(/|$)`,
  message: 'The store never imports a domain module.',
};
const noSdk = { group: SDK, message: 'Domain modules and the store never import the MCP SDK.' };
const notFromSearch = [
  {
    regex: `^(\\.\\./)+(store|${DOMAIN_NAMES}|mcp|http|irc|cli|core|web)(/|$)`,
    message: 'src/search is pure: it imports only src/shared and npm packages.',
  },
  {
    group: ['better-sqlite3', 'sqlite-vec', 'pg'],
    message: 'src/search never touches a database.',
  },
];
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['dist/', 'web/dist/', 'node_modules/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    // Dependencies are never parsed (PGlite's bundled chunks overflow the parser's stack).
    settings: { 'import-x/resolver': { node: true }, 'import-x/ignore': ['node_modules'] },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'import-x/no-cycle': 'error',
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          'newlines-between': 'always',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: [
      'src/auth/**/*.ts',
      'src/board/**/*.ts',
      'src/shared/**/*.ts',
      'src/embed/**/*.ts',
      'src/memory/**/*.ts',
      'src/rooms/**/*.ts',
      'src/broker/**/*.ts',
      'src/backplane/**/*.ts',
      'src/code/**/*.ts',
      'src/activity/**/*.ts',
      'src/vault/**/*.ts',
      'src/entity/**/*.ts',
      'src/graph/**/*.ts',
    ],
    rules: restrict(facades, noSdk, DRIVER),
  },
  { files: ['src/store/**/*.ts'], rules: restrict(facades, domains, noSdk) },
  { files: ['src/search/**/*.ts'], rules: restrict(...notFromSearch, noSdk) },
  {
    files: [
      'src/mcp/**/*.ts',
      'src/http/**/*.ts',
      'src/irc/**/*.ts',
      'src/cli/**/*.ts',
      'src/core/**/*.ts',
    ],
    rules: restrict(DRIVER),
  },
  {
    // The dashboard runs in the browser. From src/ it takes types (`import type`, erased by the
    // build) from the domains' pure model files, and values only from the board's model.
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        EventSource: 'readonly',
      },
    },
    rules: {
      'no-console': 'error',
      ...restrict(
        {
          regex: `^(\\.\\./)+src/(?!(${DOMAIN_NAMES})/([a-z-]+/)?model\\.js$)`,
          message:
            'web/ imports from src/ only the pure domain models (src/<domain>[/<part>]/model.js).',
        },
        {
          regex: `^(\\.\\./)+src/(?!board/)(${DOMAIN_NAMES})/([a-z-]+/)?model\\.js$`,
          allowTypeImports: true,
          message: 'web/ takes only types from a domain model (values from src/board/model.js).',
        },
      ),
      // `import { type X }` keeps a bare `import '…'` under verbatimModuleSyntax: the server
      // module would land in the bundle. Type-only imports must be `import type`.
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  // The legacy node resolver chokes on vite's package exports; a build config has no cycles.
  { files: ['web/vite.config.ts'], rules: { 'import-x/no-cycle': 'off' } },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly' },
    },
  },
);
