import { jobHandlers } from '@esign/core/jobs';
import { drainJobs } from '@esign/core/testing';
import { sendRequest, twoRoleTemplate } from '@esign/testing/signing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type SmtpReceiver, startSmtpReceiver } from '../../../packages/core/test/smtp-receiver.ts';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

let smtp: SmtpReceiver;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await startTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Signing <sign@example.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

it('invitations go out over SMTP (plain text and HTML, link on PUBLIC_URL); a failed send is retried by the worker', async () => {
  const owner = await createTestAccount(t.db, { credits: 5 });
  const tpl = await twoRoleTemplate(t, owner);
  smtp.failNext(1);
  const res = await sendRequest(t, owner, {
    template_id: tpl.id,
    signers: [{ name: 'Cleo', email: 'cleo@example.com' }],
  });
  expect(res.status).toBe(201);
  // The immediate send failed (451): the signer stays `ready`, the mail job retries.
  expect(res.body.signers[0].status).toBe('ready');
  const job = await t.db
    .selectFrom('jobs')
    .selectAll()
    .where('kind', '=', 'mail.send')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('jobs')
    .set({ run_at: new Date(0) })
    .where('id', '=', job.id)
    .execute();
  await drainJobs(
    { db: t.db, logger: t.rt.logger, config: t.config, deps: t.rt.deps, now: () => new Date() },
    jobHandlers,
  );
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]!.to).toEqual(['cleo@example.com']);
  expect(smtp.received[0]!.from).toBe('sign@example.test');
  const raw = smtp.received[0]!.raw;
  // quoted-printable: drop soft line breaks, decode =XX
  const decoded = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  // RFC 2047 Q-encoding of the Subject header
  const subject = (/^Subject: (.*)\r?$/m.exec(raw)?.[1] ?? '').replace(
    /=\?UTF-8\?Q\?(.*?)\?=/gi,
    (_m, q: string) =>
      q
        .replace(/_/g, ' ')
        .replace(/=([0-9A-F]{2})/g, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
  );
  expect(subject).toBe('Please sign "Service Agreement"');
  expect(raw).toContain('Content-Type: text/plain');
  expect(raw).toContain('Content-Type: text/html');
  expect(decoded.match(new RegExp(`${t.baseUrl}/s/[A-Za-z0-9_-]{43}`, 'g'))?.length).toBeGreaterThanOrEqual(
    2,
  );
  const signer = await t.api('GET', `signers/${res.body.signers[0].id}`, { key: owner.key });
  expect(signer.body.status).toBe('sent');
  const mail = await t.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to_address', '=', 'cleo@example.com')
    .executeTakeFirstOrThrow();
  expect(mail).toMatchObject({ status: 'sent', attempts: 2 });
});
