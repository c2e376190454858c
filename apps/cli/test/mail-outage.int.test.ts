import { jobHandlers } from '@esign/core/jobs';
import { drainJobs, type JobContext, readMessageBacklog } from '@esign/core/testing';
import { sendRequest, twoRoleTemplate } from '@esign/testing/signing';
import { esign } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SmtpReceiver, startSmtpReceiver } from '../../../packages/core/test/smtp-receiver.ts';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 41 item 4: an SMTP server down for 30 minutes, or for a day, loses no invitation; past
// the retry window (MESSAGE_RETRY_HOURS) a message is `undeliverable`, and `esign mail retry`
// sends it. The worker's clock (ctx.now(), which claims jobs and sets their next run) is moved
// instead of waiting: the server is really down (its port refuses connections) the whole time.

vi.setConfig({ testTimeout: 240_000 });

let smtp: SmtpReceiver;
let t: TestApp;
let owner: TestAccount;
let offsetMs = 0;
let jctx: JobContext;
const MINUTE = 60_000;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await startTestApp({ SMTP_URL: smtp.url });
  owner = await createTestAccount(t.db, { credits: 50 });
  jctx = {
    db: t.db,
    logger: t.rt.logger.child({}, { level: 'fatal' }),
    config: t.config,
    deps: t.rt.deps,
    now: () => new Date(Date.now() + offsetMs),
  };
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Sends `n` requests (one invitation each) while the server is down; returns the addresses. */
async function inviteWhileDown(prefix: string, n: number): Promise<string[]> {
  const tpl = await twoRoleTemplate(t, owner);
  const to: string[] = [];
  for (let i = 0; i < n; i++) {
    const email = `${prefix}.${i}@example.com`;
    const res = await sendRequest(t, owner, { template_id: tpl.id, signers: [{ email }] });
    expect(res.status).toBe(201);
    to.push(email);
  }
  return to;
}

/** Moves the worker's clock forward by `totalMs` in steps of `stepMs`, running the due jobs at each. */
async function advance(totalMs: number, stepMs: number): Promise<void> {
  for (let moved = 0; moved < totalMs; moved += stepMs) {
    offsetMs += stepMs;
    await drainJobs(jctx, jobHandlers);
  }
}

const receivedBy = (address: string) => smtp.received.filter((m) => m.to.includes(address)).length;
const mailTo = (address: string) =>
  t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', address).executeTakeFirstOrThrow();

describe('issue 41: mail survives an SMTP outage', () => {
  it('SMTP down for 30 minutes: the invitations are retried (`failed`, counted in the backlog), then each arrives exactly once when it is back', async () => {
    await smtp.down();
    const to = await inviteWhileDown('half-hour', 3);
    await advance(30 * MINUTE, 2 * MINUTE);
    expect(smtp.received).toHaveLength(0);
    for (const address of to) {
      const mail = await mailTo(address);
      expect(mail.status).toBe('failed');
      // 5 s doubling, at most every 10 minutes: about 9 attempts in 30 minutes, more than the old 8.
      expect(mail.attempts).toBeGreaterThanOrEqual(9);
    }
    const backlog = await t.db.transaction().execute((tx) => readMessageBacklog(tx));
    expect(backlog.find((r) => r.channel === 'mail')).toMatchObject({ waiting: 3, undeliverable: 0 });

    await smtp.up();
    // The longest back-off step is 10 minutes: by then every message went out.
    await advance(10 * MINUTE, MINUTE);
    for (const address of to) {
      expect(receivedBy(address), address).toBe(1);
      expect((await mailTo(address)).status).toBe('sent');
    }
    // Nothing goes out again later.
    await advance(60 * MINUTE, 10 * MINUTE);
    for (const address of to) expect(receivedBy(address), address).toBe(1);
    expect(
      (await t.db.transaction().execute((tx) => readMessageBacklog(tx))).find((r) => r.channel === 'mail')
        ?.waiting,
    ).toBe(0);
  });

  it('SMTP down for a day (clock moved): every invitation arrives exactly once when it is back', async () => {
    await smtp.down();
    const to = await inviteWhileDown('one-day', 3);
    await advance(24 * 60 * MINUTE, 10 * MINUTE);
    for (const address of to) {
      expect(receivedBy(address)).toBe(0);
      expect((await mailTo(address)).status).toBe('failed');
    }
    const jobs = await t.db
      .selectFrom('jobs')
      .select(['status'])
      .where('kind', '=', 'mail.send')
      .where('status', '=', 'failed')
      .execute();
    expect(jobs, 'no mail job gave up').toHaveLength(0);

    await smtp.up();
    await advance(10 * MINUTE, MINUTE);
    for (const address of to) {
      expect(receivedBy(address), address).toBe(1);
      expect((await mailTo(address)).status).toBe('sent');
    }
    await advance(60 * MINUTE, 10 * MINUTE);
    for (const address of to) expect(receivedBy(address), address).toBe(1);
  });

  it('past MESSAGE_RETRY_HOURS a message is `undeliverable` (never left queued); `esign mail retry --id N` / `--all` send it once; other messages are refused by id', async () => {
    await smtp.down();
    const to = await inviteWhileDown('window', 2);
    await advance((t.config.MESSAGE_RETRY_HOURS + 1) * 60 * MINUTE, 20 * MINUTE);
    const [first, second] = await Promise.all(to.map(mailTo));
    expect(first!.status).toBe('undeliverable');
    expect(second!.status).toBe('undeliverable');
    // Given up: its job is done, and nothing runs it again.
    const pending = await t.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', 'mail.send')
      .where('status', 'in', ['queued', 'running'])
      .execute();
    expect(pending).toHaveLength(0);
    expect(
      (await t.db.transaction().execute((tx) => readMessageBacklog(tx))).find((r) => r.channel === 'mail'),
    ).toMatchObject({
      waiting: 0,
      undeliverable: 2,
    });

    await smtp.up();
    await advance(30 * MINUTE, 10 * MINUTE);
    expect(receivedBy(to[0]!)).toBe(0);

    const env = { DATABASE_URL: t.dbUrl, PUBLIC_URL: t.baseUrl };
    const one = await esign(['mail', 'retry', '--id', String(first!.id), '--json'], env);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({
      data: [
        {
          id: first!.id,
          to: to[0],
          status: 'queued',
          attempts: first!.attempts,
          last_error: expect.any(String),
        },
      ],
    });
    offsetMs = 0;
    await drainJobs(jctx, jobHandlers);
    expect(receivedBy(to[0]!)).toBe(1);
    expect(receivedBy(to[1]!)).toBe(0);

    // Sent now: not undeliverable, so `--id` says so; `--all` takes only the other one.
    const again = await esign(['mail', 'retry', '--id', String(first!.id), '--json'], env);
    expect(again.code).not.toBe(0);
    expect(JSON.parse(again.stdout).error).toMatchObject({ code: 'invalid_request' });
    const unknown = await esign(['mail', 'retry', '--id', '999999', '--json'], env);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({ code: 'not_found' });
    const neither = await esign(['mail', 'retry', '--json'], env);
    expect(JSON.parse(neither.stdout).error).toMatchObject({ code: 'missing_parameter' });

    const all = await esign(['mail', 'retry', '--all', '--json'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).data.map((m: { id: number }) => m.id)).toEqual([second!.id]);
    await drainJobs(jctx, jobHandlers);
    expect(receivedBy(to[0]!)).toBe(1);
    expect(receivedBy(to[1]!)).toBe(1);
    expect((await mailTo(to[1]!)).status).toBe('sent');
    const none = await esign(['mail', 'retry', '--all', '--json'], env);
    expect(JSON.parse(none.stdout)).toEqual({ data: [] });
  });
});
