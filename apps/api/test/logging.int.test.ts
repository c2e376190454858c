import { Writable } from 'node:stream';
import { createLogger } from '@esign/core';
import { makeRequest } from '@esign/testing/fixtures';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { tokenOf, trpc } from '@esign/testing/signing';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'trace' });
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  // The app logs through rt.logger; swap in a capturing one at trace level.
  Object.assign(t.rt.logger, createLogger('trace', 'test', sink));
});
afterAll(() => t.close());

it('secrets are never logged: API keys, signing tokens and passwords are redacted', async () => {
  const a = await createTestAccount(t.db);
  t.rt.logger.info(
    { req: { headers: { authorization: `Bearer ${a.key}` } }, password: 'hunter2', token: 'tok-123' },
    'probe',
  );
  await t.api('GET', 'me', { key: a.key });
  await t.api('GET', 'me', { key: `${a.key.slice(0, -1)}x` });
  const all = lines.join('');
  expect(all).toContain('probe');
  expect(all).not.toContain(a.key);
  expect(all).not.toContain(a.key.slice(9));
  expect(all).not.toContain('hunter2');
  expect(all).not.toContain('tok-123');
});

it('signing credentials are not in request logs: /s/<token>, /trpc input and /files/<token>/… are redacted', async () => {
  const a = await createTestAccount(t.db, { credits: 2 });
  const request = await makeRequest(t, a);
  const token = tokenOf(request.signers[0].signing_url);
  lines.length = 0;
  expect((await fetch(`${t.baseUrl}/s/${token}`)).status).toBe(200);
  const opened = await trpc(t, 'open', { token }, 'query');
  expect(opened.status).toBe(200);
  const fileUrl = new URL((opened.data.documents[0].page_image_url as string).replace('{page}', '1'));
  const fileToken = fileUrl.pathname.split('/')[2]!;
  expect((await fetch(fileUrl)).status).toBe(200);
  await trpc(t, 'saveValues', { token, values: {} });

  const all = lines.join('');
  expect(all).toContain('incoming request');
  expect(all).toContain('/s/[redacted]');
  expect(all).toContain('/trpc/signing.open?input=[redacted]');
  expect(all).toContain('/files/[redacted]/');
  expect(all).not.toContain(token);
  expect(all).not.toContain(encodeURIComponent(token));
  expect(all).not.toContain(fileToken);
});

it('a 500 from the idempotency claim is logged at error level with the request id, without the key (issue 41 item 7)', async () => {
  const a = await createTestAccount(t.db);
  const created = await t.api('POST', 'templates', {
    key: a.key,
    body: { name: 'Claim', documents: [{ file: b64(await plainPdf(1)) }], fields: [signatureField()] },
  });
  expect(created.status).toBe(201);
  const idempotencyKey = 'claim-key-7f3a9c';
  lines.length = 0;
  // The claim's table missing: the database refuses the claim.
  await sql`alter table idempotency_keys rename to idempotency_keys_away`.execute(t.db);
  try {
    const res = await t.api('POST', `templates/${created.body.id}/archive`, {
      key: a.key,
      headers: { 'idempotency-key': idempotencyKey, 'x-request-id': 'claim-500-request' },
    });
    expect(res.status).toBe(500);
  } finally {
    await sql`alter table idempotency_keys_away rename to idempotency_keys`.execute(t.db);
  }
  const logged = lines
    .map(
      (line) => JSON.parse(line) as { level: number; msg: string; reqId?: string; err?: { message: string } },
    )
    .filter((entry) => entry.msg === 'idempotency key not claimed');
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({
    level: 50,
    reqId: 'claim-500-request',
    err: { message: expect.stringMatching(/idempotency_keys/) },
  });
  expect(lines.join('')).not.toContain(idempotencyKey);
  expect(lines.join('')).not.toContain(a.key);
});
