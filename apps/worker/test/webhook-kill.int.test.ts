import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@esign/core';
import { jobHandlers, WEBHOOK_DELIVER_JOB } from '@esign/core/jobs';
import { createAccount, createWebhookEndpoint } from '@esign/core/operator';
import { attemptWebhookDelivery, getWebhookDelivery, recordEvent, runOneJob } from '@esign/core/testing';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { ROOT } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testJobContext } from '../../../packages/core/test/job-context.ts';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';

// A real worker process (apps/worker) is killed with SIGKILL while its request is at the receiver.
// Nothing is lost: once the leases run out another worker sends the event again, same id, new
// delivery id, and the interrupted attempt stays on the record.

const env = {
  SECRET_KEY: 'webhook-kill-test-server-secret-0123456789',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-webhook-kill-')),
  WEBHOOK_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'silent',
};
const MINUTE = 60_000;

let tdb: TestDatabase;
let r: Receiver;
let child: ChildProcess | null = null;
const offset = { ms: 0 };
const now = () => new Date(Date.now() + offset.ms);

beforeAll(async () => {
  tdb = await createTestDatabase();
  // The first request is never answered (the worker dies waiting); later ones get 200.
  r = await startReceiver({
    reply: (_q, i) => (i === 0 ? 'hang' : 200),
    nowSeconds: () => Math.floor(now().getTime() / 1000),
  });
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await r.close();
  await tdb.drop();
});

describe('a worker killed mid-delivery (issue #5: loses nothing; attempt retried with the same event id)', () => {
  it('SIGKILL while the request is in flight: the attempt is kept, then retried after the lease with the same id', async () => {
    const config = parseConfig({ ...env, DATABASE_URL: tdb.url });
    const { account } = await tdb.db
      .transaction()
      .execute((tx) => createAccount(tx, { email: 'kill@example.com' }, new Date()));
    const scope = { accountId: account.id, environment: 'live' as const };
    const { endpoint, secret } = await createWebhookEndpoint(tdb.db, scope, {
      input: { url: r.url, events: ['signer.signed'] },
      config,
      now,
    });
    r.secret = secret;
    const event = await tdb.db.transaction().execute((tx) =>
      recordEvent(tx, scope, {
        type: 'signer.signed',
        objectType: 'webhook_endpoint',
        objectId: endpoint.id,
        now: now(),
      }),
    );

    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/worker/src/main.ts')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...env,
        DATABASE_URL: tdb.url,
        PORT: '0',
        WORKER_CONCURRENCY: '1',
      },
      stdio: 'ignore',
    });
    await r.waitFor(1, 30_000);
    const delivery = await tdb.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    // The attempt was on record before the request went out; the worker holds the delivery.
    const inFlight = await getWebhookDelivery(tdb.db, scope, delivery.id);
    expect(inFlight).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(inFlight.attempts).toMatchObject([
      { attempt: 1, id: r.requests[0]!.headers['x-esign-delivery'], duration_ms: null, error: null },
    ]);
    // Meanwhile nobody else may send it: the job and the delivery are both held.
    const ctx = testJobContext(tdb.db, config, now);
    expect(await runOneJob(ctx, jobHandlers, { workerId: 'bystander' })).toBe(false);
    expect(await attemptWebhookDelivery(tdb, delivery.id, { config, now })).toMatchObject({
      kind: 'leased',
    });

    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    child = null;
    expect(r.requests).toHaveLength(1);

    // Six minutes on, both leases (job and delivery: 30 s, no longer renewed) have run out.
    offset.ms = 6 * MINUTE;
    expect(
      await runOneJob(
        ctx,
        { [WEBHOOK_DELIVER_JOB]: jobHandlers[WEBHOOK_DELIVER_JOB]! },
        { workerId: 'survivor' },
      ),
    ).toBe(true);
    expect(r.requests).toHaveLength(2);
    const [lost, retried] = r.requests;
    expect(lost!.verified && retried!.verified).toBe(true);
    expect(retried!.json.id).toBe(event.id);
    expect(retried!.json.id).toBe(lost!.json.id);
    expect(retried!.headers['x-esign-delivery']).not.toBe(lost!.headers['x-esign-delivery']);

    const record = await getWebhookDelivery(tdb.db, scope, delivery.id);
    expect(record).toMatchObject({ status: 'succeeded', attempt_count: 2, last_status_code: 200 });
    expect(record.attempts).toMatchObject([
      { attempt: 1, id: lost!.headers['x-esign-delivery'], duration_ms: null, error_code: 'abandoned' },
      { attempt: 2, id: retried!.headers['x-esign-delivery'], status_code: 200, error: null },
    ]);
  });
});
