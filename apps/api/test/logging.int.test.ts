import { Writable } from 'node:stream';
import { createLogger } from '@esign/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeRequest } from '../../../test/fixtures.ts';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';
import { tokenOf, trpc } from '../../../test/signing.ts';

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
