import { defineConfig } from 'vitest/config';

// Three tiers (see STYLE.md): unit tests (`*.test.ts`) run once; integration and adapter tests
// (`*.int.test.ts`) run against the embedded PostgreSQL and, when TEST_DATABASE_URL is set,
// against that server too.
const unit = ['packages/*/{src,test}/**/*.test.ts', 'apps/*/{src,test}/**/*.test.ts', 'scripts/**/*.test.ts'];
const integration = ['packages/*/{src,test}/**/*.int.test.ts', 'apps/*/{src,test}/**/*.int.test.ts'];

const dbProject = (name: string, target: string) => ({
  test: {
    name,
    include: integration,
    globalSetup: ['test/global-setup.ts'],
    env: { ESIGN_TEST_DB: target },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: unit, exclude: integration, testTimeout: 60_000 } },
      dbProject('db:embedded', 'embedded'),
      ...(process.env.TEST_DATABASE_URL ? [dbProject('db:postgres', 'external')] : []),
    ],
  },
});
