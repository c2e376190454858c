import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Config,
  type CoreDeps,
  createAccount,
  createCoreDeps,
  createLogger,
  issueApiKey,
  parseConfig,
  type Runtime,
} from '@esign/core';
import type { Environment, Permission } from '@esign/db';
import { buildAllInOneApp } from '@esign/server';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from './db.ts';

export interface TestApp {
  rt: Runtime;
  app: FastifyInstance;
  baseUrl: string;
  db: TestDatabase['db'];
  dbUrl: string;
  config: Config;
  clock: { now: Date | null };
  close(): Promise<void>;
  /** A REST call: path relative to /api/v1 unless it starts with '/'. */
  api(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

let counter = 0;

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

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

export interface TestAccount {
  accountId: number;
  userId: number;
  email: string;
  key: string;
  keyId: number;
  /** Issues another key for the same user. */
  newKey(opts?: {
    environment?: Environment;
    permission?: Permission;
    expiresAt?: Date | null;
  }): Promise<{ key: string; id: number }>;
}

/** An account with an admin user and a live full-access key, made through the production services. */
export async function createTestAccount(
  db: TestDatabase['db'],
  opts: {
    credits?: number;
    lifetime?: boolean;
    overdraft?: number;
    billingCountry?: string;
    environment?: Environment;
    permission?: Permission;
  } = {},
): Promise<TestAccount> {
  counter += 1;
  const email = `user${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { account, user } = await db.transaction().execute((tx) =>
    createAccount(
      tx,
      {
        email,
        name: `User ${counter}`,
        credits: opts.credits,
        lifetime: opts.lifetime,
        overdraft: opts.overdraft,
        billingCountry: opts.billingCountry,
      },
      new Date(),
    ),
  );
  const newKey = async (
    k: { environment?: Environment; permission?: Permission; expiresAt?: Date | null } = {},
  ) => {
    const issued = await issueApiKey(db, {
      userId: user.id,
      environment: k.environment ?? 'live',
      permission: k.permission ?? 'full',
      expiresAt: k.expiresAt ?? null,
    });
    return { key: issued.key, id: issued.id };
  };
  const first = await newKey({ environment: opts.environment, permission: opts.permission });
  return { accountId: account.id, userId: user.id, email, key: first.key, keyId: first.id, newKey };
}
