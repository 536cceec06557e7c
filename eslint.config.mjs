import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'proto/src/**',
      'packages/client/src/gen/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
      '.turbo/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Components receive config; only main/CLI entry points read the environment.
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read config in main/CLI and pass it down.' },
      ],
    },
  },
  {
    files: ['**/src/main.ts', 'packages/cli/src/**', '**/test/**', '**/*.test.ts', 'deploy/local/src/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
