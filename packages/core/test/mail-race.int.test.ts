import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.ts';
import { createCoreDeps } from '../src/context.ts';
import { jobHandlers } from '../src/jobs.ts';
import { createLogger } from '../src/logger.ts';
import { queueMail } from '../src/services/mail.ts';
import { runOneJob } from '../src/services/worker.ts';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.drop());

describe('mail sent by two processes at once', () => {
  it('the normal race ("mail N is being sent by another process") is logged at debug without a stack, and the job is retried', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const config = parseConfig({});
    const ctx = {
      db: tdb.db,
      logger: createLogger('debug', 'test', sink),
      config,
      deps: createCoreDeps(config),
      now: () => new Date(),
    };
    const mailId = await tdb.db.transaction().execute((tx) =>
      queueMail(tx, {
        kind: 'notice',
        to: 'race@example.com',
        subject: 'Race',
        text: 'hello',
        html: '<p>hello</p>',
      }),
    );
    // Another process (here: this open transaction) holds the row while it sends.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = tdb.db.transaction().execute(async (tx) => {
      await sql`select id from mail_outbox where id = ${mailId} for update`.execute(tx);
      locked();
      await held;
    });
    await isLocked;
    try {
      expect(await runOneJob(ctx, jobHandlers, { workerId: 'race-worker' })).toBe(true);
    } finally {
      release();
      await holder;
    }
    await new Promise((r) => setImmediate(r));
    const about = lines.filter((l) => String(l.reason ?? l.msg).includes('being sent by another process'));
    const retried = lines.filter((l) => l.msg === 'job will be retried');
    expect(retried, JSON.stringify(lines)).toHaveLength(1);
    expect(retried[0]).toMatchObject({
      level: 20,
      reason: `mail ${mailId} is being sent by another process`,
    });
    expect(retried[0]).not.toHaveProperty('err');
    expect(about.every((l) => (l.level as number) < 40)).toBe(true);
    const job = await tdb.db
      .selectFrom('jobs')
      .select(['status', 'last_error'])
      .where('kind', '=', 'mail.send')
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'queued', last_error: `mail ${mailId} is being sent by another process` });
  });
});
