import { createAccount } from '@esign/core/operator';
import { TRPC_MAX_BATCH } from '@esign/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

// Issue 29 item 2: a /trpc batch is as many requests as it has calls. Each call counts against the
// caller's rate limit (API key or session), and a batch over TRPC_MAX_BATCH runs nothing.

let t: TestApp;
const LIMIT = 300;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  // One fixed window for the whole file: the clock stands still at 5 s past a minute.
  t.clock.now = new Date('2031-02-01T00:00:05Z');
});
afterAll(async () => {
  t.clock.now = null;
  await t?.close();
});

/** A batch of `n` account.me calls in one GET, as httpBatchLink sends queries. */
async function batch(n: number, headers: Record<string, string>) {
  const paths = Array(n).fill('account.me').join(',');
  const res = await fetch(`${t.baseUrl}/trpc/${paths}?batch=1`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

const remaining = (h: Headers) => Number(h.get('ratelimit-remaining'));

describe('issue 29 item 2: /trpc batches', () => {
  it(`a batch of 150 is refused (422 invalid_request, the error envelope), runs and counts nothing; a batch of ${TRPC_MAX_BATCH} runs every call and RateLimit-Remaining drops by ${TRPC_MAX_BATCH}`, async () => {
    const a = await createTestAccount(t.db);
    const auth = { authorization: `Bearer ${a.key}` };
    const huge = await batch(150, auth);
    expect(huge.status).toBe(422);
    expect(huge.body.error.code).toBe('invalid_request');
    expect(huge.body.error.message).toContain(`at most ${TRPC_MAX_BATCH}`);
    const first = await t.api('GET', 'me', { key: a.key });
    expect(remaining(first.headers)).toBe(LIMIT - 1);
    const full = await batch(TRPC_MAX_BATCH, auth);
    expect(full.status).toBe(200);
    expect(full.body).toHaveLength(TRPC_MAX_BATCH);
    for (const r of full.body) expect(r.result.data.user.email).toBe(a.email);
    expect(remaining(full.headers)).toBe(LIMIT - 1 - TRPC_MAX_BATCH);
    const after = await t.api('GET', 'me', { key: a.key });
    expect(remaining(after.headers)).toBe(LIMIT - 2 - TRPC_MAX_BATCH);
  });

  it('each call of a batch counts: with fewer calls left than the batch has, every call is refused rate_limited', async () => {
    const a = await createTestAccount(t.db);
    const auth = { authorization: `Bearer ${a.key}` };
    const spent = LIMIT - 5;
    // Use up all but 5 calls of the window with batches (each its calls' worth).
    let left = LIMIT;
    while (LIMIT - left < spent) {
      const n = Math.min(TRPC_MAX_BATCH, spent - (LIMIT - left));
      const res = await batch(n, auth);
      expect(res.status).toBe(200);
      expect(remaining(res.headers)).toBe(left - n);
      left -= n;
    }
    const over = await batch(TRPC_MAX_BATCH, auth);
    expect(remaining(over.headers)).toBe(0);
    expect(over.headers.get('retry-after')).toBeTruthy();
    expect(over.body.map((r: { error?: { data: { code: string } } }) => r.error?.data.code)).toEqual(
      Array(TRPC_MAX_BATCH).fill('rate_limited'),
    );
  });

  it("the dashboard's session: a batch of 3 lowers RateLimit-Remaining by 3", async () => {
    const email = `batch-${Date.now()}@example.com`;
    const password = 'batch password 1';
    await t.db
      .transaction()
      .execute((tx) =>
        createAccount(tx, { email, password, name: 'Bea', accountName: 'Bea Co' }, new Date()),
      );
    const signIn = await fetch(`${t.baseUrl}/trpc/auth.signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: t.baseUrl },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const one = await batch(1, { cookie });
    expect(one.status).toBe(200);
    const three = await batch(3, { cookie });
    expect(three.status).toBe(200);
    expect(three.body).toHaveLength(3);
    expect(remaining(one.headers) - remaining(three.headers)).toBe(3);
  });
});
