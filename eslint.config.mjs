import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'scripts/**',
      'test/fixtures/**',
      'test/integration/workspace/**',
      'examples/**',
      '.vscode-test/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.json' } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // The webviews' scripts run in the page, checked against the extension's messages (media/tsconfig.json).
    files: ['media/**/*.js', 'media/**/*.d.ts'],
    languageOptions: {
      parserOptions: { project: './media/tsconfig.json' },
      globals: { ...globals.browser, acquireVsCodeApi: 'readonly' },
    },
  },
);
