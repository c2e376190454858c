import { createServer, type Socket } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../src/index.ts';

// Issue 9, item 4: a connection the server ends (pg_terminate_backend, a failover, a restart)
// fails what it was doing and nothing else. Before, only idle pool clients had an error listener:
// a checked-out client's 'error' event was unhandled and took the whole process down.

let tdb: TestDatabase;
let db: Db;
let name: string;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

beforeAll(async () => {
  tdb = await createTestDatabase();
  await sql`create table conn_test (id int primary key)`.execute(tdb.db);
});
afterAll(() => tdb.drop());
beforeEach(() => {
  name = `esign-conn-test-${Math.random().toString(36).slice(2, 8)}`;
  db = createDb(tdb.url, { max: 4, applicationName: name });
  uncaught.length = 0;
  process.prependListener('uncaughtException', onUncaught);
});
afterEach(async () => {
  process.off('uncaughtException', onUncaught);
  await db.destroy();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ends every backend of the pool under test, from another connection. */
async function terminate(): Promise<number> {
  const { rows } = await sql<{ ended: boolean }>`
    select pg_terminate_backend(pid) as ended from pg_stat_activity
    where datname = current_database() and application_name = ${name}`.execute(tdb.db);
  return rows.filter((r) => r.ended).length;
}

describe('connections ended by the server (issue 9.4)', () => {
  it('a checked-out connection terminated between queries: its next query fails, the process does not crash, the pool serves the next caller', async () => {
    const failure = await db.connection().execute(async (conn) => {
      await sql`select 1`.execute(conn);
      expect(await terminate()).toBe(1);
      await sleep(200); // the termination arrives while the connection is checked out and idle
      return sql`select 1`.execute(conn).then(
        () => null,
        (err: Error) => err,
      );
    });
    expect(failure).toBeInstanceOf(Error);
    await sleep(50);
    expect(uncaught).toEqual([]);
    expect((await sql<{ n: number }>`select 1 as n`.execute(db)).rows).toEqual([{ n: 1 }]);
  });

  it('a transaction whose connection is terminated mid-way fails and commits nothing; the next transaction works', async () => {
    const failed = await db
      .transaction()
      .execute(async (tx) => {
        await sql`insert into conn_test values (1)`.execute(tx);
        await terminate();
        await sleep(200);
        await sql`insert into conn_test values (2)`.execute(tx);
      })
      .then(
        () => false,
        () => true,
      );
    expect(failed).toBe(true);
    await sleep(50);
    expect(uncaught).toEqual([]);
    await db.transaction().execute((tx) => sql`insert into conn_test values (3)`.execute(tx));
    const { rows } = await sql<{ id: number }>`select id from conn_test order by id`.execute(tdb.db);
    expect(rows.map((r) => r.id)).toEqual([3]);
    await sql`delete from conn_test`.execute(tdb.db);
  });

  it('every pooled connection terminated (busy and idle) under concurrent queries: only queries in flight fail, then all succeed', async () => {
    let stop = false;
    const results = { ok: 0, failed: 0 };
    const load = async () => {
      while (!stop) {
        await db
          .transaction()
          .execute(async (tx) => {
            await sql`select pg_sleep(0.005)`.execute(tx);
            await sleep(5);
            await sql`select 1`.execute(tx);
          })
          .then(
            () => results.ok++,
            () => results.failed++,
          );
      }
    };
    const loaders = Array.from({ length: 6 }, load);
    let ended = 0;
    for (let i = 0; i < 15; i++) {
      ended += await terminate();
      await sleep(40);
    }
    stop = true;
    await Promise.all(loaders);
    await sleep(50);
    expect(uncaught).toEqual([]);
    expect(ended).toBeGreaterThan(5);
    expect(results.ok).toBeGreaterThan(0);
    const after = await Promise.all(Array.from({ length: 8 }, () => sql`select 1`.execute(db)));
    expect(after).toHaveLength(8);
  });

  it('a server that accepts but never answers (a network partition): the query fails within the connect timeout instead of hanging', async () => {
    const sockets: Socket[] = [];
    const blackhole = createServer((s) => sockets.push(s));
    await new Promise<void>((ok) => blackhole.listen(0, '127.0.0.1', ok));
    const { port } = blackhole.address() as { port: number };
    const down = createDb(`postgres://esign:esign@127.0.0.1:${port}/nothing`, { max: 2 });
    const started = Date.now();
    try {
      await expect(sql`select 1`.execute(down)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await down.destroy();
      for (const s of sockets) s.destroy();
      blackhole.close();
    }
    expect(uncaught).toEqual([]);
  }, 30_000);
});
