import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jobHandlers } from '@esign/core/jobs';
import { drainJobs, requestsWithSmsProblems, twilioSignature } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { sendRequest } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 42 item 5: an SMS the provider gave up on (a refusal, or failures past the retry window)
// reaches the sender by email and by the extension webhook event `signer.sms_undeliverable`, and
// the requests list's badge shows the request. A failure that is still retried tells nobody yet.

vi.setConfig({ testTimeout: 120_000 });

const SIGNATURE = [
  { name: 'Signature', type: 'signature', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] },
];

/** A local server speaking Twilio's Messages API: the planned answers first, then 201. */
async function fakeTwilio() {
  const answers: { status: number; body: unknown }[] = [];
  const received: URLSearchParams[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push(new URLSearchParams(raw));
      n += 1;
      const answer = answers.shift() ?? { status: 201, body: { sid: `SM${String(n).padStart(32, '0')}` } };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answers,
    received,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const TOKEN = 'twilio-test-token';
let t: TestApp;
let owner: TestAccount;
let templateId: number;
let twilio: Awaited<ReturnType<typeof fakeTwilio>>;

beforeAll(async () => {
  twilio = await fakeTwilio();
  t = await startTestApp({
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: `AC${'b2'.repeat(16)}`,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: '+15005550006',
    TWILIO_BASE_URL: twilio.url,
  });
  owner = await createTestAccount(t.db, { credits: 20 });
  templateId = (await makeTemplate(t, owner, { fields: SIGNATURE })).id;
});
afterAll(async () => {
  await t?.close();
  await twilio?.close();
});

async function runJobs() {
  await t.db
    .updateTable('jobs')
    .set({ run_at: new Date(0) })
    .where('status', '=', 'queued')
    .execute();
  await drainJobs(
    { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
    jobHandlers,
  );
}

const eventsOf = async (signerId: number) =>
  (
    await t.db
      .selectFrom('webhook_events')
      .select('type')
      .where('object_type', '=', 'signer')
      .where('object_id', '=', signerId)
      .execute()
  ).map((e) => e.type);

const noticesFor = (requestId: number) =>
  t.db
    .selectFrom('mail_outbox')
    .select(['to_address', 'subject', 'text_body'])
    .where('kind', '=', 'sms_undeliverable_notice')
    .where('text_body', 'like', `%/requests/${requestId}%`)
    .execute();

async function sendToPhone(phone: string) {
  const res = await sendRequest(t, owner, {
    template_id: templateId,
    signers: [{ name: 'Pia Phone', phone }],
  });
  expect(res.status, res.text).toBe(201);
  // The SMS was sent right after the commit (bounded): no job run needed to see its first try.
  return { id: res.body.id as number, signerId: res.body.signers[0].id as number };
}

describe('issue 42 item 5: an undeliverable SMS reaches the sender', () => {
  it('issue 42.5: a refused SMS (invalid number) emails the sender, records signer.sms_undeliverable and puts the badge on the request', async () => {
    twilio.answers.push({
      status: 400,
      body: { code: 21211, message: "The 'To' number is not a valid phone number." },
    });
    const r = await sendToPhone('+49 30 4444444');
    const sms = await t.db
      .selectFrom('sms_outbox')
      .select('status')
      .where('signer_id', '=', r.signerId)
      .execute();
    expect(sms).toEqual([{ status: 'undeliverable' }]);
    expect(await eventsOf(r.signerId)).toContain('signer.sms_undeliverable');
    const notices = await noticesFor(r.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.to_address).toBe(owner.email);
    expect(notices[0]!.subject).toBe('SMS not delivered for "Contract"');
    expect(notices[0]!.text_body).toContain('not a valid phone number');
    expect(notices[0]!.text_body).toContain('Edit or resend');
    const live = { accountId: owner.accountId, environment: 'live' as const };
    expect((await requestsWithSmsProblems(t.db, live, [r.id])).signature_request_ids).toEqual([r.id]);
  });

  it('issue 42.5: a provider failure is retried without telling anyone; past the retry window (MESSAGE_RETRY_HOURS) it is undeliverable and the sender is told', async () => {
    twilio.answers.push({ status: 503, body: { code: 20503, message: 'Service unavailable' } });
    const r = await sendToPhone('+49 30 5555555');
    const row = () =>
      t.db
        .selectFrom('sms_outbox')
        .select(['status'])
        .where('signer_id', '=', r.signerId)
        .executeTakeFirstOrThrow();
    expect((await row()).status).toBe('failed');
    expect(await eventsOf(r.signerId)).not.toContain('signer.sms_undeliverable');
    expect(await noticesFor(r.id)).toEqual([]);
    const live = { accountId: owner.accountId, environment: 'live' as const };
    expect((await requestsWithSmsProblems(t.db, live, [r.id])).signature_request_ids).toEqual([]);

    // The window runs out before the next attempt, which fails again: given up.
    const longAgo = new Date(Date.now() - (t.config.MESSAGE_RETRY_HOURS + 1) * 3_600_000);
    await t.db
      .updateTable('sms_outbox')
      // created_at is set by the database only: moved back for the test.
      .set({ created_at: longAgo } as never)
      .where('signer_id', '=', r.signerId)
      .execute();
    twilio.answers.push({ status: 503, body: { code: 20503, message: 'Service unavailable' } });
    await runJobs();
    expect((await row()).status).toBe('undeliverable');
    expect(await eventsOf(r.signerId)).toContain('signer.sms_undeliverable');
    expect(await noticesFor(r.id)).toHaveLength(1);
    expect((await requestsWithSmsProblems(t.db, live, [r.id])).signature_request_ids).toEqual([r.id]);
  });

  it("issue 42.5: Twilio's final status callback (undelivered) for a message it had accepted makes it undeliverable and tells the sender; other statuses change nothing", async () => {
    const r = await sendToPhone('+49 30 6666666');
    const row = () =>
      t.db
        .selectFrom('sms_outbox')
        .select(['status', 'provider_id', 'last_error'])
        .where('signer_id', '=', r.signerId)
        .executeTakeFirstOrThrow();
    const sent = await row();
    expect(sent.status).toBe('sent');
    // Each message asks Twilio for its status at the SMS webhook.
    const url = `${t.config.PUBLIC_URL}/webhooks/sms`;
    expect(twilio.received.at(-1)!.get('StatusCallback')).toBe(url);
    const callback = (status: string) => {
      const params = new URLSearchParams({
        MessageSid: sent.provider_id!,
        MessageStatus: status,
        SmsStatus: status,
        To: '+49306666666',
        ...(status === 'undelivered' ? { ErrorCode: '30003' } : {}),
      });
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(TOKEN, url, params),
        },
        body: params.toString(),
      });
    };
    for (const status of ['sent', 'delivered']) expect((await callback(status)).status).toBe(200);
    expect((await row()).status).toBe('sent');
    expect(await noticesFor(r.id)).toEqual([]);

    expect((await callback('undelivered')).status).toBe(200);
    expect(await row()).toMatchObject({
      status: 'undeliverable',
      last_error: 'Twilio reported the message undelivered (error 30003)',
    });
    expect(await eventsOf(r.signerId)).toContain('signer.sms_undeliverable');
    const notices = await noticesFor(r.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text_body).toContain('undelivered (error 30003)');
    const live = { accountId: owner.accountId, environment: 'live' as const };
    expect((await requestsWithSmsProblems(t.db, live, [r.id])).signature_request_ids).toEqual([r.id]);
    // Told once: a repeated callback finds the message settled.
    expect((await callback('undelivered')).status).toBe(200);
    expect(await noticesFor(r.id)).toHaveLength(1);
  });
});
