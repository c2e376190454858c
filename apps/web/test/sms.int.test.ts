import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jobHandlers } from '@esign/core/jobs';
import { listSms } from '@esign/core/operator';
import { drainJobs, requestsWithSmsProblems, twilioSignature } from '@esign/core/testing';
import { makeTemplate } from '@esign/testing/fixtures';
import { PNG_DOT, sendRequest, tokenOf, trpc } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 32 (SMS): a signer with only a phone is invited, gets their code, signs and gets the
// completion link by SMS; without SMS_PROVIDER the messages stay in the SMS outbox (`esign sms
// list`), with SMS_PROVIDER=twilio they go to Twilio's Messages API (here a local server speaking
// it, with its failure answers); the daily cap; phone numbers in E.164 or 422.

// Two tests seal a request (the document pool): on a loaded 2-core machine that takes more than
// the default minute.
vi.setConfig({ testTimeout: 180_000 });

const SIGNATURE = [
  { name: 'Signature', type: 'signature', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] },
];
const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'twilio-test-token';

interface Received {
  path: string;
  auth: string | undefined;
  form: URLSearchParams;
}

/** A local server speaking Twilio's Messages API: answers from `answers` first, then 201. */
async function startFakeTwilio() {
  const received: Received[] = [];
  const answers: { status: number; body: unknown }[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', auth: req.headers.authorization, form: new URLSearchParams(raw) });
      const planned = answers.shift();
      n += 1;
      const answer = planned ?? {
        status: 201,
        body: { sid: `SM${String(n).padStart(32, '0')}`, status: 'queued' },
      };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

const jobCtx = (t: TestApp) => ({
  db: t.db,
  logger: t.rt.logger,
  config: t.config,
  deps: t.rt.deps,
  now: () => new Date(),
});

/** Runs every job that is due now (jobs waiting on their back-off are made due first). */
async function runJobs(t: TestApp) {
  await t.db
    .updateTable('jobs')
    .set({ run_at: new Date(0) })
    .where('status', '=', 'queued')
    .execute();
  await drainJobs(jobCtx(t), jobHandlers);
}

const smsOf = (t: TestApp, signerId: number, kind?: string) => {
  let q = t.db.selectFrom('sms_outbox').selectAll().where('signer_id', '=', signerId).orderBy('id');
  if (kind) q = q.where('kind', '=', kind);
  return q.execute();
};

const timelineOf = (t: TestApp, requestId: number) =>
  t.db
    .selectFrom('audit_events')
    .select(['type', 'signer_id', 'data'])
    .where('signature_request_id', '=', requestId)
    .orderBy('id')
    .execute();

/** Opens the code gate, asks for the code, enters `code(…)`, signs; returns the request id. */
async function signWithCode(t: TestApp, signingUrl: string, codeOf: () => Promise<string>) {
  const token = tokenOf(signingUrl);
  const opened = await trpc(t, 'open', { token }, 'query');
  expect(opened.data).toMatchObject({ code_required: true, signer: { email: null, code_channel: 'sms' } });
  const asked = await trpc(t, 'requestCode', { token });
  expect(asked.error).toBeNull();
  expect(asked.data).toMatchObject({ sent: true, channel: 'sms', email: null, to: '+49 ••• 67' });
  const verified = await trpc(t, 'verifyCode', { token, code: await codeOf() });
  expect(verified.error).toBeNull();
  const session = verified.data.session as string;
  const done = await trpc(t, 'complete', { token, session, values: { Signature: PNG_DOT } });
  expect(done.error).toBeNull();
}

describe('issue 32: without SMS_PROVIDER, SMS stay in the outbox', () => {
  let t: TestApp;
  let owner: TestAccount;
  let templateId: number;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await createTestAccount(t.db, { credits: 50 });
    templateId = (await makeTemplate(t, owner, { fields: SIGNATURE })).id;
  });
  afterAll(() => t.close());

  it('a phone-only signer is invited by SMS (sent once it went out), gets the code by SMS, signs, and gets the completion link by SMS', async () => {
    const res = await sendRequest(t, owner, {
      template_id: templateId,
      signers: [{ name: 'Petra', phone: '+49 30 1234567' }],
      require_email_otp: true,
    });
    expect(res.status).toBe(201);
    const signer = res.body.signers[0];
    expect(signer).toMatchObject({ phone: '+49301234567', email: null, status: 'sent' });
    const url = signer.signing_url as string;

    const listed = await listSms(t.db, { to: '+49 30 1234567' });
    expect(listed.data[0]).toMatchObject({
      to: '+49301234567',
      links: [url],
      status: 'kept',
      kind: 'invitation',
    });
    expect(listed.data[0]!.text).toContain(url);

    await signWithCode(t, url, async () => {
      const [code] = await smsOf(t, signer.id, 'otp');
      return /\b(\d{6})\b/.exec(code!.text_body)![1]!;
    });
    // The link and the code no longer work: the outbox keeps neither (the mail outbox's rule).
    for (const sms of await smsOf(t, signer.id)) {
      expect(sms.redacted_at).toBeInstanceOf(Date);
      expect(sms.text_body).not.toContain(tokenOf(url));
      expect(sms.links).toEqual([]);
    }

    await runJobs(t);
    const request = await t.api('GET', `signature_requests/${res.body.id}`, { key: owner.key });
    expect(request.body.status).toBe('completed');
    const [completed] = await smsOf(t, signer.id, 'request.completed');
    expect(completed).toMatchObject({ to_number: '+49301234567', status: 'kept' });
    expect(completed!.links.length).toBeGreaterThan(0);
    // Issue 42.2: the completion SMS carries a short link (`/d/<35 characters>`) that leads to
    // the sealed file; an altered one leads nowhere.
    const short = completed!.links[0]!;
    expect(short).toMatch(/\/d\/[\w-]{35}$/);
    const file = await fetch(short);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const at = short.length - 5; // a character inside the MAC (the last one has padding bits)
    const altered = `${short.slice(0, at)}${short[at] === 'A' ? 'B' : 'A'}${short.slice(at + 1)}`;
    expect((await fetch(altered, { redirect: 'manual' })).status).toBe(404);

    const timeline = await timelineOf(t, res.body.id);
    const smsEvents = timeline.filter((e) => e.type === 'sms.sent').map((e) => e.data.kind);
    expect(smsEvents).toEqual(['invitation', 'otp', 'request.completed']);
    expect(timeline.find((e) => e.type === 'otp.sent')?.data).toEqual({ channel: 'sms' });
  });

  it('issue 32: a German and an Arabic phone-only signer get their invitation, code and completion SMS in their language', async () => {
    const expected = {
      de: { invite: 'bittet Sie, "', code: 'ist Ihr Code, um "', done: 'Alle haben' },
      ar: { invite: 'يطلب منك', code: 'هو رمز توقيع', done: 'وقّع الجميع على' },
    } as const;
    for (const [locale, phone] of [
      ['de', '+49 89 1234567'],
      ['ar', '+971 50 123 4567'],
    ] as const) {
      const res = await sendRequest(t, owner, {
        template_id: templateId,
        signers: [{ name: 'Reader', phone, locale }],
        require_email_otp: true,
      });
      expect(res.status, res.text).toBe(201);
      const signer = res.body.signers[0];
      const token = tokenOf(signer.signing_url as string);
      // Each text read as it was queued: once used, a link or code is purged from the outbox.
      const texts: string[] = [(await smsOf(t, signer.id, 'invitation'))[0]!.text_body];
      expect((await trpc(t, 'requestCode', { token })).error).toBeNull();
      const code = (await smsOf(t, signer.id, 'otp'))[0]!.text_body;
      texts.push(code);
      const verified = await trpc(t, 'verifyCode', { token, code: /(\d{6})/.exec(code)![1] });
      const session = verified.data.session as string;
      expect(
        (await trpc(t, 'complete', { token, session, values: { Signature: PNG_DOT } })).error,
      ).toBeNull();
      await runJobs(t);
      texts.push((await smsOf(t, signer.id, 'request.completed'))[0]!.text_body);
      const [invite, otp, done] = texts;
      expect(invite, locale).toContain(expected[locale].invite);
      expect(otp, locale).toContain(expected[locale].code);
      expect(done, locale).toContain(expected[locale].done);
      for (const text of texts) expect(text).not.toMatch(/\b(asks you|signing code|Everyone)\b/);
    }
  });

  it('remind and PATCH resend text a phone-only signer; a second code to the same number within 30 s is 429 (per-phone limit)', async () => {
    const send = () =>
      sendRequest(t, owner, {
        template_id: templateId,
        signers: [{ phone: '+44 20 7946 0001' }],
        require_email_otp: true,
      });
    const first = (await send()).body;
    const second = (await send()).body;
    const reminded = await t.api('POST', `signature_requests/${first.id}/remind`, { key: owner.key });
    expect(reminded.status).toBe(200);
    expect(reminded.body.reminded_signer_ids).toEqual([first.signers[0].id]);
    expect((await smsOf(t, first.signers[0].id, 'reminder')).length).toBe(1);
    // A resend waits 10 minutes after the invitation.
    t.clock.now = new Date(Date.now() + 11 * 60_000);
    const resent = await t.api('PATCH', `signers/${second.signers[0].id}`, {
      key: owner.key,
      body: { resend: true },
    });
    expect(resent.status).toBe(200);
    expect((await smsOf(t, second.signers[0].id, 'resend'))[0]!.text_body).toContain(
      second.signers[0].signing_url,
    );

    expect((await trpc(t, 'requestCode', { token: tokenOf(first.signers[0].signing_url) })).error).toBeNull();
    const again = await trpc(t, 'requestCode', { token: tokenOf(second.signers[0].signing_url) });
    expect(again.error?.code).toBe('rate_limited');
    expect(again.error?.message).toContain('this number');
    t.clock.now = null;
  });

  it('a signer with email and phone gets email only, unless the request asks for SMS too (delivery email_and_sms: link by both, code by SMS)', async () => {
    const plain = await sendRequest(t, owner, {
      template_id: templateId,
      signers: [{ email: 'both@example.com', phone: '+49 30 7654321' }],
    });
    expect(await smsOf(t, plain.body.signers[0].id)).toEqual([]);
    const both = await sendRequest(t, owner, {
      template_id: templateId,
      delivery: 'email_and_sms',
      require_email_otp: true,
      signers: [{ email: 'both2@example.com', phone: '+49 30 7654321' }],
    });
    const id = both.body.signers[0].id;
    expect((await smsOf(t, id, 'invitation')).length).toBe(1);
    const mails = await t.db.selectFrom('mail_outbox').select('kind').where('signer_id', '=', id).execute();
    expect(mails.map((m) => m.kind)).toEqual(['invitation']);
    const asked = await trpc(t, 'requestCode', { token: tokenOf(both.body.signers[0].signing_url) });
    expect(asked.data).toMatchObject({ channel: 'sms', to: '+49 ••• 21' });
  });

  it('phone numbers are normalised to E.164; an impossible one is 422 invalid_parameter (POST and PATCH)', async () => {
    const ok = await sendRequest(t, owner, {
      template_id: templateId,
      send_email: false,
      signers: [{ phone: '0049 (30) 123-4567' }],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.signers[0]).toMatchObject({ phone: '+49301234567', status: 'ready' });
    // send_email false: nobody is emailed or texted.
    expect(await smsOf(t, ok.body.signers[0].id)).toEqual([]);
    for (const phone of ['+1 555', 'not a number', '030 1234567']) {
      const bad = await sendRequest(t, owner, { template_id: templateId, signers: [{ phone }] });
      expect(bad.status, phone).toBe(422);
      expect(bad.body.error.code).toBe('invalid_parameter');
      expect(bad.body.error.message).toContain('signers[0].phone');
    }
    const signerId = ok.body.signers[0].id;
    const patched = await t.api('PATCH', `signers/${signerId}`, {
      key: owner.key,
      body: { phone: '+44 20 7946 0000' },
    });
    expect(patched.body.phone).toBe('+442079460000');
    const refused = await t.api('PATCH', `signers/${signerId}`, {
      key: owner.key,
      body: { phone: '+44 12' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('invalid_parameter');
  });
});

describe('issue 32: the per-account daily SMS cap (SMS_DAILY_LIMIT)', () => {
  let t: TestApp;
  let owner: TestAccount;
  beforeAll(async () => {
    t = await startTestApp({ SMS_DAILY_LIMIT: '2' });
    owner = await createTestAccount(t.db, { credits: 50 });
  });
  afterAll(() => t.close());

  it('past the limit a message is `capped`, never sent, the signer stays `ready`, and the timeline says why', async () => {
    const templateId = (await makeTemplate(t, owner, { fields: SIGNATURE })).id;
    const sent = [];
    for (const n of [1, 2, 3]) {
      const res = await sendRequest(t, owner, {
        template_id: templateId,
        signers: [{ phone: `+49 30 123450${n}` }],
      });
      expect(res.status).toBe(201);
      sent.push(res.body);
    }
    expect(sent.map((r) => r.signers[0].status)).toEqual(['sent', 'sent', 'ready']);
    const [capped] = await smsOf(t, sent[2].signers[0].id);
    expect(capped).toMatchObject({
      status: 'capped',
      last_error: expect.stringContaining('SMS_DAILY_LIMIT'),
    });
    await runJobs(t);
    expect((await smsOf(t, sent[2].signers[0].id))[0]!.status).toBe('capped');
    const timeline = await timelineOf(t, sent[2].id);
    expect(timeline.find((e) => e.type === 'sms.capped')?.data).toMatchObject({
      kind: 'invitation',
      limit: 2,
    });
    expect((await listSms(t.db, { to: '+49301234503' })).data[0]!.status).toBe('capped');
  });

  it('issue 42.3: a capped code is no dead end: the signer is told it was not texted and whom to contact, the timeline never says it was texted, and the sender gets the webhook event and one email a day per request', async () => {
    const templateId = (await makeTemplate(t, owner, { fields: SIGNATURE })).id;
    // The limit (2) is used up, whatever ran before.
    for (const n of [8, 9])
      await sendRequest(t, owner, { template_id: templateId, signers: [{ phone: `+49 30 123459${n}` }] });
    const res = await sendRequest(t, owner, {
      template_id: templateId,
      signers: [{ phone: '+49 30 1234567' }],
      require_email_otp: true,
    });
    expect(res.status).toBe(201);
    const signer = res.body.signers[0];
    const token = tokenOf(signer.signing_url);
    expect((await trpc(t, 'open', { token }, 'query')).data).toMatchObject({ code_required: true });
    const asked = await trpc(t, 'requestCode', { token });
    expect(asked.data).toBeUndefined();
    expect(asked.error?.code).toBe('invalid_request');
    const sender = await t.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', owner.userId)
      .executeTakeFirstOrThrow();
    expect(asked.error?.message).toBe(
      `No code was texted to you: the sender's SMS limit for today is reached. Contact ${sender.name} (${owner.email}) to sign.`,
    );
    expect((await smsOf(t, signer.id, 'otp')).map((m) => m.status)).toEqual(['capped']);
    const timeline = await timelineOf(t, res.body.id);
    expect(timeline.map((e) => e.type)).not.toContain('otp.sent');
    expect(timeline.filter((e) => e.type === 'sms.capped').map((e) => e.data.kind)).toEqual([
      'invitation',
      'otp',
    ]);
    // The sender: an extension webhook event for each capped SMS, and one email for the request.
    const events = await t.db
      .selectFrom('webhook_events')
      .select(['type'])
      .where('object_type', '=', 'signer')
      .where('object_id', '=', signer.id)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['signer.sms_capped', 'signer.sms_capped']);
    const notices = await t.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('kind', '=', 'sms_capped_notice')
      .where('text_body', 'like', `%/requests/${res.body.id}%`)
      .execute();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.to_address).toBe(owner.email);
    expect(notices[0]!.text_body).toContain('limit of 2 SMS in 24 hours');
  });

  it('issue 42 item 5: the requests list learns which requests have an SMS that did not reach its signer (capped here), for this account side only', async () => {
    const templateId = (await makeTemplate(t, owner, { fields: SIGNATURE })).id;
    const rows: number[] = [];
    // Over the day's limit of 2 (with or without the test above): at least the third is capped.
    for (const n of [4, 5, 6]) {
      const res = await sendRequest(t, owner, {
        template_id: templateId,
        signers: [{ phone: `+49 30 123450${n}` }],
      });
      expect(res.status).toBe(201);
      rows.push(res.body.id);
    }
    const capped = await t.db
      .selectFrom('sms_outbox')
      .select('signature_request_id')
      .where('signature_request_id', 'in', rows)
      .where('status', '=', 'capped')
      .execute();
    const expected = [...new Set(capped.map((c) => c.signature_request_id))].sort((a, b) => a! - b!);
    expect(expected.length).toBeGreaterThan(0);
    const live = { accountId: owner.accountId, environment: 'live' as const };
    expect(await requestsWithSmsProblems(t.db, live, rows)).toEqual({ signature_request_ids: expected });
    expect(await requestsWithSmsProblems(t.db, { ...live, environment: 'test' }, rows)).toEqual({
      signature_request_ids: [],
    });
    const other = await createTestAccount(t.db, { credits: 1 });
    expect(
      await requestsWithSmsProblems(t.db, { accountId: other.accountId, environment: 'live' }, rows),
    ).toEqual({ signature_request_ids: [] });
    // A later SMS that went out to the signer (a corrected number resent) clears the warning.
    const [first] = expected;
    const signer = await t.db
      .selectFrom('sms_outbox')
      .select(['signer_id', 'to_number', 'environment'])
      .where('signature_request_id', '=', first!)
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('sms_outbox')
      .values({
        account_id: owner.accountId,
        environment: signer.environment,
        signature_request_id: first!,
        signer_id: signer.signer_id,
        kind: 'resend',
        to_number: '+49301234599',
        text_body: 'x',
        status: 'sent',
      })
      .execute();
    expect((await requestsWithSmsProblems(t.db, live, rows)).signature_request_ids).not.toContain(first);
  });
});

describe('issue 32: SMS_PROVIDER=twilio, against a local server speaking the Messages API', () => {
  let t: TestApp;
  let owner: TestAccount;
  let templateId: number;
  let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    twilio = await startFakeTwilio();
    t = await startTestApp({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM: '+15005550006',
      TWILIO_BASE_URL: twilio.url,
    });
    owner = await createTestAccount(t.db, { credits: 50 });
    templateId = (await makeTemplate(t, owner, { fields: SIGNATURE })).id;
  });
  afterAll(async () => {
    await t.close();
    await twilio.close();
  });

  it('issue 42.7: a reply of STOP (signed as Twilio signs) stops SMS to that number and tells the sender; a bad signature is refused; START undoes it', async () => {
    const res = await sendRequest(t, owner, {
      template_id: templateId,
      signers: [{ name: 'Olga Stop', phone: '+44 20 7946 0999' }],
    });
    expect(res.status, res.text).toBe(201);
    const signer = res.body.signers[0];
    const url = `${t.config.PUBLIC_URL}/webhooks/sms`;
    const reply = (body: string, signature?: string) => {
      const params = new URLSearchParams({
        MessageSid: `SM${'5'.repeat(32)}`,
        AccountSid: SID,
        From: '+442079460999',
        To: '+15005550006',
        Body: body,
      });
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': signature ?? twilioSignature(TOKEN, url, params),
        },
        body: params.toString(),
      });
    };
    const optOuts = () => t.db.selectFrom('sms_opt_outs').selectAll().execute();

    const forged = await reply(
      'STOP',
      twilioSignature('not-the-token', url, new URLSearchParams({ Body: 'STOP' })),
    );
    expect(forged.status).toBe(400);
    expect(await optOuts()).toEqual([]);

    const stop = await reply(' Stop ');
    expect(stop.status).toBe(200);
    expect(stop.headers.get('content-type')).toMatch(/^text\/xml/);
    expect((await optOuts()).map((o) => [o.number, o.keyword])).toEqual([['+442079460999', 'STOP']]);
    const timeline = await timelineOf(t, res.body.id);
    expect(timeline.find((e) => e.type === 'sms.opted_out')).toMatchObject({
      signer_id: signer.id,
      data: { keyword: 'STOP' },
    });
    const told = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('kind', '=', 'sms.opted_out')
      .where('to_address', '=', owner.email)
      .execute();
    expect(told.map((m) => m.subject)).toEqual([
      `Olga Stop stopped text messages for signature request #${res.body.id}`,
    ]);

    // The reminder is not sent: written `opted_out`, and the timeline says why.
    const before = twilio.received.length;
    expect((await t.api('POST', `signature_requests/${res.body.id}/remind`, { key: owner.key })).status).toBe(
      200,
    );
    await runJobs(t);
    const [reminder] = await smsOf(t, signer.id, 'reminder');
    expect(reminder).toMatchObject({ status: 'opted_out', last_error: expect.stringContaining('STOP') });
    expect(twilio.received.length).toBe(before);

    expect((await reply('START')).status).toBe(200);
    expect(await optOuts()).toEqual([]);
  });

  it('invitation, code, signing and completion go through Twilio (From, To, Body, Basic auth); sent bodies are purged', async () => {
    const res = await sendRequest(t, owner, {
      template_id: templateId,
      signers: [{ phone: '+49 30 1234567' }],
      require_email_otp: true,
    });
    const signer = res.body.signers[0];
    expect(signer.status).toBe('sent');
    const invitation = twilio.received.at(-1)!;
    expect(invitation.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(invitation.auth).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(invitation.form.get('To')).toBe('+49301234567');
    expect(invitation.form.get('From')).toBe('+15005550006');
    expect(invitation.form.get('Body')).toContain(signer.signing_url);
    const [row] = await smsOf(t, signer.id, 'invitation');
    expect(row).toMatchObject({ status: 'sent', provider_id: expect.stringMatching(/^SM/), links: [] });
    expect(row!.text_body).not.toContain(tokenOf(signer.signing_url));

    await signWithCode(
      t,
      signer.signing_url,
      async () => /\b(\d{6})\b/.exec(twilio.received.at(-1)!.form.get('Body')!)![1]!,
    );
    await runJobs(t);
    const completion = twilio.received.at(-1)!.form.get('Body')!;
    expect(completion).toContain('Everyone has signed');
    const link = /https?:\/\/\S+/.exec(completion)![0];
    expect((await fetch(link)).status).toBe(200);
  });

  it("Twilio's failure answers: a 503 is retried from the job queue (status `failed`, then `sent`), a 400 refusal is `undeliverable`; both visible in the timeline", async () => {
    twilio.answers.push({ status: 503, body: { code: 20503, message: 'Service unavailable' } });
    const res = await sendRequest(t, owner, {
      template_id: templateId,
      signers: [{ phone: '+49 30 2222222' }],
    });
    const id = res.body.signers[0].id;
    expect(res.body.signers[0].status).toBe('ready');
    expect((await smsOf(t, id))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: expect.stringContaining('503'),
    });
    expect((await listSms(t.db, { to: '+49302222222' })).data[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
    });
    await runJobs(t);
    expect((await smsOf(t, id))[0]).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    const signer = await t.api('GET', `signers/${id}`, { key: owner.key });
    expect(signer.body.status).toBe('sent');
    const timeline = (await timelineOf(t, res.body.id)).filter((e) => e.type.startsWith('sms.'));
    expect(timeline.map((e) => [e.type, e.data.retried ?? e.data.status])).toEqual([
      ['sms.failed', true],
      ['sms.sent', 'sent'],
    ]);

    twilio.answers.push({
      status: 400,
      body: { code: 21211, message: "The 'To' number is not a valid phone number." },
    });
    const refused = await sendRequest(t, owner, {
      template_id: templateId,
      signers: [{ phone: '+49 30 3333333' }],
    });
    const refusedId = refused.body.signers[0].id;
    const calls = twilio.received.length;
    await runJobs(t);
    expect(twilio.received.length).toBe(calls);
    expect((await smsOf(t, refusedId))[0]).toMatchObject({
      status: 'undeliverable',
      last_error: expect.stringContaining('21211'),
    });
    const events = await timelineOf(t, refused.body.id);
    expect(events.find((e) => e.type === 'sms.failed')?.data).toMatchObject({ retried: false });
  });
});
