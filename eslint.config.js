import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', '.astro/', 'content/', 'drizzle/', 'test-results/', 'playwright-report/', '**/*.astro'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Layers point down (docs/architecture.md#layers): the shared layers import no feature; only the composition
    // roots (server/app.ts, index.ts, main.ts, server.ts, process/, demo/) put features together.
    files: ['server/{auth,db,http,ops,mail,signing,storage,static,publish}/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/features/**'], message: 'A shared layer imports no feature (docs/architecture.md#layers).', allowTypeImports: true },
            { group: ['**/src/**'], message: 'server/ runs nothing from src/: code both sides run lives in common/.', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    // A feature uses another only through its face, server/features/<feature>/index.ts (docs/architecture.md#layers).
    files: ['server/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./[a-z-]+/(?!index\\.ts$)', message: 'Use the other feature through its index.ts.', allowTypeImports: true },
            { group: ['**/src/**'], message: 'server/ runs nothing from src/: code both sides run lives in common/.', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    files: ['server/*.ts', 'server/{process,demo}/**/*.ts', 'common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/**'], message: 'server/ and common/ run nothing from src/.', allowTypeImports: true }] },
      ],
    },
  },
  {
    // The browser bundle must never pull server code (docs/engineering.md#habits, habit 5): only `import type` may cross.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**'], message: 'src/ may import server code only with `import type`.', allowTypeImports: true }] },
      ],
    },
  },
);
