import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { closeOutboundConnections } from '@esign/webhooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.ts';
import { createCoreDeps } from '../src/context.ts';
import { jobHandlers } from '../src/jobs.ts';
import { createLogger } from '../src/logger.ts';
import { createAccount } from '../src/services/accounts.ts';
import { recordEvent } from '../src/services/events.ts';
import type { JobContext } from '../src/services/jobs.ts';
import { createWebhookEndpoint } from '../src/services/webhooks/endpoints.ts';
import { WEBHOOK_DELIVER_JOB } from '../src/services/webhooks/options.ts';
import { startWebhookWorker } from '../src/services/webhooks/pump.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

// Issue 16: many delivery slots (WEBHOOK_CONCURRENCY), kept-alive connections, jobs claimed and
// outcomes recorded in batches must still deliver every event exactly once.

const EVENTS = 400;
let tdb: TestDatabase;
let r: Receiver;
beforeAll(async () => {
  tdb = await createTestDatabase();
  r = await startReceiver();
});
afterAll(async () => {
  await closeOutboundConnections();
  await r.close();
  await tdb.drop();
});

describe('webhook delivery at concurrency (issue 16: no duplicates, no lost events)', () => {
  it(`${EVENTS} events, two workers of 32 delivery slots racing: each received once, verified; every delivery and job done`, async () => {
    const config = parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', SECRET_KEY: 'x'.repeat(40) });
    const ctx: JobContext = {
      db: tdb.db,
      logger: createLogger('silent', 'test'),
      config,
      deps: createCoreDeps(config),
      now: () => new Date(),
    };
    const { account } = await tdb.db
      .transaction()
      .execute((tx) => createAccount(tx, { email: 'many@example.com' }, new Date()));
    const scope = { accountId: account.id, environment: 'live' as const };
    const { endpoint, secret } = await createWebhookEndpoint(tdb.db, scope, {
      input: { url: r.url, events: ['signer.signed'] },
      config,
      now: ctx.now,
    });
    r.secret = secret;
    const ids: string[] = [];
    await tdb.db.transaction().execute(async (tx) => {
      for (let i = 0; i < EVENTS; i++) {
        const event = await recordEvent(tx, scope, {
          type: 'signer.signed',
          objectType: 'webhook_endpoint',
          objectId: endpoint.id,
          now: new Date(),
        });
        ids.push(event.id);
      }
    });
    // The production loop: batch claims and batch records (services/webhooks/pump.ts).
    const handler = jobHandlers[WEBHOOK_DELIVER_JOB]!;
    const workers = [1, 2].map(() =>
      startWebhookWorker(ctx, { handler, concurrency: 32, pollMs: 50, listenUrl: tdb.url }),
    );
    try {
      await r.waitFor(EVENTS, 120_000);
      // Give a duplicate the time to show up.
      await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    const received = r.requests.map((q) => q.json.id);
    expect(received).toHaveLength(EVENTS);
    expect(new Set(received)).toEqual(new Set(ids));
    expect(r.requests.every((q) => q.verified)).toBe(true);
    const deliveries = await sql<{ status: string; attempts: number; n: number }>`
      select status, attempts, count(*)::int as n from webhook_deliveries group by 1, 2`.execute(tdb.db);
    expect(deliveries.rows).toEqual([{ status: 'succeeded', attempts: 1, n: EVENTS }]);
    const jobs = await sql<{ status: string; n: number }>`
      select status, count(*)::int as n from jobs where kind = ${WEBHOOK_DELIVER_JOB} group by 1`.execute(
      tdb.db,
    );
    expect(jobs.rows).toEqual([{ status: 'done', n: EVENTS }]);
  }, 180_000);
});
