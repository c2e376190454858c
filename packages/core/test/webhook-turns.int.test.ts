import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { recordStatements } from '@esign/testing/statements';
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

// Issue 31: the worker records the outcomes of finished attempts and claims the next jobs in one
// statement per turn, so a backlog costs a fraction of a statement per delivery, while a lone
// event is still claimed, sent and recorded at once.

let tdb: TestDatabase;
let r: Receiver;
let ctx: JobContext;
let scope: { accountId: number; environment: 'live' };
let endpointId: number;

beforeAll(async () => {
  tdb = await createTestDatabase();
  r = await startReceiver();
  const config = parseConfig({ WEBHOOK_ALLOW_PRIVATE: 'true', SECRET_KEY: 'y'.repeat(40) });
  ctx = {
    db: tdb.db,
    logger: createLogger('silent', 'test'),
    config,
    deps: createCoreDeps(config),
    now: () => new Date(),
  };
  const { account } = await tdb.db
    .transaction()
    .execute((tx) => createAccount(tx, { email: 'turns@example.com' }, new Date()));
  scope = { accountId: account.id, environment: 'live' };
  const created = await createWebhookEndpoint(tdb.db, scope, {
    input: { url: r.url, events: ['signer.signed'] },
    config,
    now: ctx.now,
  });
  r.secret = created.secret;
  endpointId = created.endpoint.id;
});
afterAll(async () => {
  await closeOutboundConnections();
  await r.close();
  await tdb.drop();
});

async function emit(n: number): Promise<string[]> {
  const ids: string[] = [];
  await tdb.db.transaction().execute(async (tx) => {
    for (let i = 0; i < n; i++) {
      const event = await recordEvent(tx, scope, {
        type: 'signer.signed',
        objectType: 'webhook_endpoint',
        objectId: endpointId,
        now: new Date(),
      });
      ids.push(event.id);
    }
  });
  return ids;
}

async function undone(): Promise<{ deliveries: number; jobs: number }> {
  const { rows } = await sql<{ deliveries: number; jobs: number }>`
    select (select count(*) from webhook_deliveries where status <> 'succeeded')::int as deliveries,
      (select count(*) from jobs where kind = ${WEBHOOK_DELIVER_JOB} and status <> 'done')::int as jobs`.execute(
    tdb.db,
  );
  return rows[0]!;
}

/** Waits until every delivery is recorded succeeded and every job done. */
async function settled(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const left = await undone();
    if (left.deliveries === 0 && left.jobs === 0) return;
    if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(left)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('webhook worker turns (issue 31: outcomes recorded and jobs claimed in one statement)', () => {
  it('issue 31: a lone event costs one statement to claim it, one to read its data and one to record it', async () => {
    const before = r.requests.length;
    const [id] = await emit(1);
    const handler = jobHandlers[WEBHOOK_DELIVER_JOB]!;
    const { statements } = await recordStatements(async () => {
      const worker = startWebhookWorker(ctx, { handler, concurrency: 32, pollMs: 60_000 });
      try {
        await r.waitFor(before + 1, 30_000);
        await settled();
      } finally {
        await worker.stop();
      }
    });
    expect(r.requests.at(-1)!.json.id).toBe(id);
    // Our own polls of the tables (settled) are not the worker's.
    const worker = statements.filter((s) => !s.includes('count(*) from webhook_deliveries'));
    expect(worker).toHaveLength(3);
  });

  it('issue 31: a backlog of 256 events through one worker of 32 slots: each received once and verified, under a quarter of a statement per delivery', async () => {
    const EVENTS = 256;
    const before = r.requests.length;
    const ids = await emit(EVENTS);
    const handler = jobHandlers[WEBHOOK_DELIVER_JOB]!;
    const { statements } = await recordStatements(async () => {
      const worker = startWebhookWorker(ctx, { handler, concurrency: 32, pollMs: 60_000 });
      try {
        await r.waitFor(before + EVENTS, 60_000);
        await settled();
      } finally {
        await worker.stop();
      }
    });
    const received = r.requests.slice(before).map((q) => q.json.id);
    expect(received).toHaveLength(EVENTS);
    expect(new Set(received)).toEqual(new Set(ids));
    expect(r.requests.slice(before).every((q) => q.verified)).toBe(true);
    const worker = statements.filter((s) => !s.includes('count(*) from webhook_deliveries'));
    // Issue 16's loop made about a third of a statement per delivery (claims, data reads and
    // records apart); turns make one per 16 deliveries or so, plus one data read each (0.17 seen).
    expect(worker.length).toBeLessThan(EVENTS / 4);
    // Every attempt on record with its outcome.
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from webhook_attempts where status_code = 204 or status_code = 200`.execute(
      tdb.db,
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(EVENTS);
  });
});
