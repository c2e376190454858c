// The webhook deliveries carried by graphile-worker (issue 43, item 2): the measurement that decides
// whether the job queue moves onto it. A sender process of its own, started by bench/webhooks.ts
// the way the worker is: it hands every queued `webhook.deliver` job of ours to graphile-worker (one
// graphile job per delivery, as the fan-out would add them in its transaction if the queue were
// graphile's; done in one statement before the first receipt), then runs graphile-worker with
// `GRAPHILE_CONCURRENCY` jobs at once whose task is the production attempt of one delivery
// (`attemptWebhookDelivery`: lease, attempt row, `data` built now, HMAC, POST through the outbound
// guard, the outcome recorded fenced by the lease). graphile-worker's own batching is on: a local
// queue fetching a slot-full of jobs per statement and completions gathered into one statement.
// Started with DATABASE_URL, SECRET_KEY and GRAPHILE_CONCURRENCY.

import { createLogger, parseConfig } from '@esign/core';
import { attemptWebhookDelivery } from '@esign/core/testing';
import { createDb } from '@esign/db';
import { run } from 'graphile-worker';
import { sql } from 'kysely';

const concurrency = Number(process.env.GRAPHILE_CONCURRENCY ?? '64');
const connectionString = process.env.DATABASE_URL!;
const config = parseConfig({
  DATA_DIR: process.env.DATA_DIR ?? '/tmp',
  SECRET_KEY: process.env.SECRET_KEY!,
  WEBHOOK_ALLOW_PRIVATE: 'true',
});
const logger = createLogger('warn', 'bench-graphile');
// The pool createDb gives every process (10 connections), as the worker's.
const db = createDb(connectionString);

const runner = await run({
  connectionString,
  concurrency,
  maxPoolSize: 10,
  pollInterval: 500,
  noHandleSignals: true,
  preset: {
    worker: {
      localQueue: { size: concurrency + 1 },
      completeJobBatchDelay: 0,
      failJobBatchDelay: 0,
    },
  },
  taskList: {
    webhook_deliver: async (payload) => {
      const deliveryId = Number((payload as { deliveryId: number }).deliveryId);
      await attemptWebhookDelivery({ db }, deliveryId, { config, now: () => new Date(), logger });
    },
  },
});

// The deliveries queued so far become graphile jobs (graphile's schema exists once run() migrated).
await sql`with ours as (
    update jobs set status = 'done', finished_at = now()
    where kind = 'webhook.deliver' and status = 'queued'
    returning id, payload
  )
  select count(*) from graphile_worker.add_jobs((select array_agg(row('webhook_deliver',
    payload::json, null, now(), null, null, null, null)::graphile_worker.job_spec order by id) from ours))`.execute(
  db,
);

process.on('SIGTERM', () => {
  runner
    .stop()
    .then(() => db.destroy())
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
});
