import { tmpdir } from 'node:os';
import { join, matchesGlob } from 'node:path';
import { defineConfig } from 'vitest/config';

// Node's compile cache for every process of a run: the test workers (forked from this one, so they
// inherit it) and the apps and `esign` commands the tests start. A process then compiles only the
// modules that changed since the last one loaded them (measured: the all-in-one app's modules load
// in 1.6 s instead of 2.0-3.0 s, `esign --help` in 1.3 s instead of 1.7 s).
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'esign-test-compile-cache');

// Three tiers (see STYLE.md): unit tests (`*.test.ts`) run once; integration and adapter tests
// (`*.int.test.ts`) run against a real PostgreSQL, each file on its own cloned database.
//
// Which database runs what (the README's test paragraph says the same):
// - TEST_DATABASE_URL unset (a developer's machine): every integration file on the embedded
//   PostgreSQL (`db:embedded` and `db:embedded:alone`), the zero-setup default of `npm start`.
// - TEST_DATABASE_URL set (CI): every integration file on that server (`db:postgres` and
//   `db:postgres:alone`), and on the embedded PostgreSQL the files listed in EMBEDDED below: what
//   differs between the two paths. A new test file lands in the full suite by default; add it to
//   EMBEDDED when it tests the embedded path. The migrations run on both (test/global-setup.ts
//   migrates each project's template database from scratch).
// A `:alone` project holds the files of ALONE_UNIT / ALONE_DB below, run one at a time at the end.
const unit = [
  'packages/*/{src,test}/**/*.test.ts',
  'apps/*/{src,test}/**/*.test.ts',
  'scripts/**/*.test.ts',
  'test/*.test.ts',
];
const integration = ['packages/*/{src,test}/**/*.int.test.ts', 'apps/*/{src,test}/**/*.int.test.ts'];

/** What differs between the embedded PostgreSQL and a server of one's own. */
const EMBEDDED = [
  // Start, adoption of an existing cluster (db-location), running as root, restart with its data
  // (packages/db/src/embedded.ts, postgres-cluster.ts, postgres-binaries.ts), and a frozen
  // server (issue 41.5); these four start their own embedded server whatever the project, so they
  // never run under db:postgres.
  'packages/db/test/embedded.int.test.ts',
  'apps/server/test/all-in-one.int.test.ts',
  'apps/server/test/database-restart.int.test.ts',
  'apps/server/test/database-freeze.int.test.ts',
  // Connections the server drops or loses (packages/db/src/connection.ts, open.ts).
  'apps/server/test/connection-loss.int.test.ts',
  'packages/db/test/connection.int.test.ts',
  // Server-level behaviour the queries rely on: LISTEN/NOTIFY, prepared statements, the migrated
  // schema's constraints (the embedded server is a newer PostgreSQL than most servers).
  'packages/core/test/jobs-notify.int.test.ts',
  'packages/db/test/prepared.int.test.ts',
  'packages/db/test/vocabulary.int.test.ts',
  // Every REST route once, through the common rules, on the embedded server.
  'apps/api/test/rest-contract.int.test.ts',
  // Idempotency-Key outcomes under kill -9 and a clock 60 s ahead (issue 41.1): on both servers.
  'apps/server/test/idempotency-chaos.int.test.ts',
];
const EMBEDDED_ONLY = EMBEDDED.slice(0, 4);

/**
 * Files that run one at a time, after the rest: they time things (event-loop lag, throughput,
 * deadlines, waits that must not see an event), kill or restart processes, or limit memory, so
 * they must not share the two cores with other files. Every process-level test of the
 * all-in-one server (apps/server/test) is one of them, new ones included. All other files run
 * PARALLEL at a time: each has its own database, data folder and ports, and most of their time is
 * spent waiting on PostgreSQL, child processes or a browser.
 */
const ALONE_UNIT = [
  'packages/pdf/test/ingest-large.test.ts',
  'packages/pdf/test/ingest-pool.test.ts',
  'packages/pdf/test/seal-trust-pool.test.ts',
  // Thousands of verifications against a time budget (a tampered byte each).
  'packages/pdf/test/seal-verify.test.ts',
  'packages/pdf/test/verify-pool.test.ts',
  'packages/webhooks/test/outbound.test.ts',
];
const ALONE_DB = [
  'apps/server/test/**/*.int.test.ts',
  'apps/api/test/document-pool.int.test.ts',
  'apps/api/test/json-uploads.int.test.ts',
  'apps/api/test/sealing-trust.int.test.ts',
  // Compares sign-in request times for known and unknown addresses (issue 29.5).
  'apps/web/test/sign-in-timing.int.test.ts',
  'packages/core/test/jobs-notify.int.test.ts',
  'packages/core/test/webhook-throughput.int.test.ts',
  'packages/db/test/connection.int.test.ts',
  // A real worker process killed (SIGKILL) or holding leases beside others (apps/worker/test).
  'apps/worker/test/webhook-kill.int.test.ts',
  'apps/worker/test/worker-lease.int.test.ts',
];
// Three measured best on 2 cores: four was slower, and the 200-page editor test ran out of time.
const PARALLEL = 3;
const isAlone = (file: string) => ALONE_DB.some((glob) => matchesGlob(file, glob));

/** The other files first, PARALLEL at a time; then the ALONE ones, one at a time. */
const shared = { sequence: { groupOrder: 0 }, maxWorkers: PARALLEL };
const alone = { sequence: { groupOrder: 1 }, maxWorkers: 1 };

const unitProject = (name: string, include: string[], exclude: string[], group: object) => ({
  test: {
    name,
    include,
    exclude: [...integration, ...exclude],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    ...group,
  },
});

const dbProject = (
  name: string,
  target: 'embedded' | 'external',
  include: string[],
  exclude: string[],
  group: object,
) => ({
  test: {
    name,
    include,
    exclude,
    globalSetup: ['packages/testing/src/global-setup.ts'],
    env: { ESIGN_TEST_DB: target },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...group,
  },
});

function dbProjects() {
  if (!process.env.TEST_DATABASE_URL) {
    return [
      dbProject('db:embedded', 'embedded', integration, ALONE_DB, shared),
      dbProject('db:embedded:alone', 'embedded', ALONE_DB, [], alone),
    ];
  }
  return [
    dbProject('db:postgres', 'external', integration, [...ALONE_DB, ...EMBEDDED_ONLY], shared),
    dbProject('db:postgres:alone', 'external', ALONE_DB, EMBEDDED_ONLY, alone),
    dbProject('db:embedded', 'embedded', EMBEDDED, ALONE_DB, shared),
    dbProject('db:embedded:alone', 'embedded', EMBEDDED.filter(isAlone), [], alone),
  ];
}

export default defineConfig({
  test: {
    // Every run writes each file's wall time, project and result to test-results/durations.json
    // and prints the ten slowest at the end (test/durations-reporter.ts).
    reporters: ['default', './test/durations-reporter.ts'],
    projects: [
      unitProject('unit', unit, ALONE_UNIT, shared),
      unitProject('unit:alone', ALONE_UNIT, [], alone),
      ...dbProjects(),
    ],
  },
});
