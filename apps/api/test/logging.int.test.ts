import { Writable } from 'node:stream';
import { createLogger } from '@esign/core';
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
