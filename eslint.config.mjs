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
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/syntax/**/*.ts', 'src/service/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'the syntax and service layers stay free of vscode' }],
          patterns: [
            {
              regex: '^(\\.\\./)+(vscode|cli)(/|$)',
              message: 'the syntax and service layers import only downwards: never the editor or the CLI',
            },
          ],
        },
      ],
    },
  },
  {
    // The core is pure: it is given trees, texts and files, and reads nothing itself (design.md, "Core, third shape").
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'vscode',
            'fs',
            'fs/promises',
            'path',
            'os',
            'child_process',
            'worker_threads',
            '@vscode/tree-sitter-wasm',
          ].map((name) => ({
            name,
            message: 'the core reads nothing itself: no editor, file system, parser or threads',
          })),
          patterns: [
            { group: ['node:*'], message: 'the core reads nothing itself: no Node modules' },
            {
              regex: '^(\\.\\./)+(syntax|service|vscode|cli)(/|$)',
              message: 'the core imports only downwards: never the syntax, service, editor or CLI layers',
            },
          ],
        },
      ],
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
