// ESLint runs for the type-aware rules Biome cannot check: a promise nobody awaits, returns or
// catches (`void p` included) ends the process the day the database drops a connection, so every
// one must be awaited, returned, or given a `.catch` that says what happens on failure.
// Everything else (format, the rest of the lint rules) is Biome's: see biome.json.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      'data/**',
      'bench/out/**',
      'apps/web/public/vendor/**',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        project: [
          './tsconfig.lint.json',
          './apps/web/src/signing/client/tsconfig.json',
          './apps/web/dashboard/tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          ignoreVoid: false,
          // A reply is thenable only to await its sending; it never rejects.
          allowForKnownSafePromises: [{ from: 'package', name: 'FastifyReply', package: 'fastify' }],
        },
      ],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
    },
  },
  {
    // In tests `void p` marks a promise left running on purpose (a waiter the test releases later).
    files: ['**/*.test.ts', 'test/**/*.ts', 'packages/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: 'FastifyReply', package: 'fastify' }] },
      ],
    },
  },
);
