import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, DatabaseUnavailableError, isDatabaseUnavailable } from '../src/index.ts';

// Issue 41 item 5: a database that does not answer fails a query within the pool's timeouts
// (DatabaseUnavailableError or PostgreSQL's 57014, which adapters answer 503) instead of holding it.

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.drop());

/**
 * A TCP relay between a pool and the test database that can stop passing bytes either way, as a
 * frozen server (or a cut network) looks from the client: connections stay open, nothing answers.
 */
async function freezableRelay(target: URL) {
  let frozen = false;
  const held: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const pipe = (from: Socket, to: Socket) =>
    from.on('data', (chunk) => {
      if (frozen) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((ok) => server.close(ok));
    },
  };
}

const elapsed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  const outcome = await run().then(
    () => null,
    (err: unknown) => err,
  );
  return { err: outcome, ms: performance.now() - started };
};

describe('database timeouts (issue 41.5)', () => {
  it('statement timeout: a statement running longer is cancelled by PostgreSQL (57014, counted as unavailable) and the same pool serves the next query', async () => {
    // PostgreSQL cancels it at 800 ms, before the client would give up at 1 s.
    const db = createDb(tdb.url, { max: 1, statementTimeoutMs: 1_000 });
    try {
      await sql`select 1`.execute(db); // the connection is open
      const { err, ms } = await elapsed(() => sql`select pg_sleep(5)`.execute(db));
      expect((err as { code?: string }).code).toBe('57014');
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(ms).toBeLessThan(1_500);
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('statement timeout: a database that stops answering mid-query fails it with DatabaseUnavailableError within the timeout, and its connection is closed so a late answer reaches nobody; once it answers again the pool serves on a new connection', async () => {
    const relay = await freezableRelay(new URL(tdb.url));
    const db = createDb(relay.url, { max: 1, statementTimeoutMs: 700, acquireTimeoutMs: 700 });
    try {
      await sql`select 1`.execute(db);
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
      relay.freeze();
      const { err, ms } = await elapsed(() => sql`select 1`.execute(db));
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect(ms).toBeGreaterThanOrEqual(650);
      expect(ms).toBeLessThan(2_000);
      // A new connection does not open while frozen either: the checkout times out.
      const second = await elapsed(() => sql`select 1`.execute(db));
      expect(second.err).toBeInstanceOf(DatabaseUnavailableError);
      expect(second.ms).toBeLessThan(2_000);
      relay.thaw();
      const after = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
      expect(after).not.toBe(pid);
    } finally {
      await db.destroy();
      await relay.close();
    }
  });

  it('acquire timeout: every connection busy, a query waiting for one fails with DatabaseUnavailableError after the timeout', async () => {
    const db = createDb(tdb.url, { max: 1, acquireTimeoutMs: 400 });
    try {
      const holding = db.transaction().execute(async (tx) => {
        await sql`select pg_sleep(1.5)`.execute(tx);
      });
      const { err, ms } = await elapsed(() => sql`select 1`.execute(db));
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect(ms).toBeGreaterThanOrEqual(350);
      expect(ms).toBeLessThan(1_400);
      await holding;
    } finally {
      await db.destroy();
    }
  });
});
