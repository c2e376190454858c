import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Config,
  type CoreDeps,
  createCoreDeps,
  createLogger,
  parseConfig,
  type Runtime,
} from '@esign/core';
import { buildAllInOneApp } from '@esign/server';
import type { TestApp } from '@esign/testing/app';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { freePort } from '@esign/testing/processes';
import type { FastifyInstance } from 'fastify';

export { createTestAccount, type TestAccount } from '@esign/testing/accounts';
// The all-in-one harness stays here, at the root, and not in @esign/testing (packages/testing):
// it builds the all-in-one server (@esign/server, which depends on every app), so a package
// holding it would depend on every app, and the apps, whose tests use it, on that package: a cycle
// in the package graph. The root package depends on everything. What needs no app (the test
// database, PDFs, accounts, fixtures, processes) is in @esign/testing, which core's tests use
// alone (`pnpm exec turbo run test --filter=@esign/core`); the app-free pieces the app tests
// import with startTestApp are re-exported here.
export type { TestApp } from '@esign/testing/app';

/** The all-in-one app on its own cloned database, listening on a loopback port. */
export async function startTestApp(
  env: Record<string, string> = {},
  deps: Partial<CoreDeps> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'esign-test-data-'));
  const clock: { now: Date | null } = { now: null };
  // A free port can be taken by another test file between the look and the listen (files run in
  // parallel): then the app is built again on another one.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const config = parseConfig({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      // `{port}` in a value is the port chosen here (PUBLIC_URL=http://localhost:{port}: WebAuthn
      // takes no IP address as its relying party).
      ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replaceAll('{port}', String(port))])),
    });
    const rt: Runtime = {
      db: database.db,
      logger: createLogger(config.LOG_LEVEL, 'test'),
      config,
      deps: { ...createCoreDeps(config), ...deps },
      // As in a process with METRICS_PORT: the same metrics count HTTP responses and core's work.
      ...(deps.metrics ? { metrics: deps.metrics } : {}),
      embedded: false,
      close: async () => {},
    };
    const app = await buildAllInOneApp(rt, { now: () => clock.now ?? new Date() });
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (err) {
      await app.close();
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      throw err;
    }
    // A PUBLIC_URL of this port (`{port}`) is where the tests reach the app, too.
    const reach = env.PUBLIC_URL?.includes('{port}') ? config.PUBLIC_URL : baseUrl;
    return testApp({ rt, app, baseUrl: reach, database, config, clock });
  }
}

function testApp(o: {
  rt: Runtime;
  app: FastifyInstance;
  baseUrl: string;
  database: TestDatabase;
  config: Config;
  clock: { now: Date | null };
}): TestApp {
  const { rt, app, baseUrl, database, config, clock } = o;
  return {
    rt,
    app,
    baseUrl,
    db: database.db,
    dbUrl: database.url,
    config,
    clock,
    async close() {
      // The tests are over: a keep-alive connection still counted as busy (seen: one held
      // app.close() for the server's 72 s keep-alive timeout) is ended after a second.
      const force = setTimeout(() => app.server.closeAllConnections(), 1_000);
      await app.close();
      clearTimeout(force);
      await database.drop();
    },
    async api(method, path, opts = {}) {
      const url = path.startsWith('/') ? `${baseUrl}${path}` : `${baseUrl}/api/v1/${path}`;
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined;
      if (opts.rawBody !== undefined) body = opts.rawBody;
      else if (opts.body !== undefined) body = JSON.stringify(opts.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
      const res = await fetch(url, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
  };
}
