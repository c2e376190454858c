import { makeRequest, makeTemplate } from '@esign/testing/fixtures';
import { tokenOf } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// /trpc: the signing procedures stay public (their token is the credential), and a request that
// carries credentials goes through the same authenticate → rate-limit → headers step as REST and MCP.
let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '4' });
  owner = await createTestAccount(t.db, { credits: 5 });
});
afterAll(() => t.close());

async function call(proc: string, input: unknown, key?: string) {
  const res = await fetch(`${t.baseUrl}/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  const body = (await res.json()) as { result?: { data: any }; error?: { data: { code: string } } };
  return { status: res.status, headers: res.headers, data: body.result?.data, code: body.error?.data.code };
}

describe('/trpc authentication', () => {
  it('signing procedures stay public: no credentials, no RateLimit headers', async () => {
    const request = await makeRequest(t, owner);
    const res = await call('signing.open', { token: tokenOf(request.signers[0].signing_url) });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });

  it('Authentication 1: with an API key the actor is set; the response carries RateLimit-*', async () => {
    const a = await createTestAccount(t.db);
    const tpl = await makeTemplate(t, a);
    const res = await call('templates.list', {}, a.key);
    expect(res.status).toBe(200);
    expect(res.data.data.map((x: { id: number }) => x.id)).toEqual([tpl.id]);
    expect(res.headers.get('ratelimit-limit')).toBe('4');
  });

  it('Authentication 6: a bad or expired key fails actor procedures with its error; none is unauthenticated', async () => {
    const bad = await call('templates.list', {}, 'svc_live_nope');
    expect([bad.status, bad.code]).toEqual([401, 'unauthenticated']);
    expect(bad.headers.get('ratelimit-limit')).toBeNull();
    const expired = await owner.newKey({ expiresAt: new Date(Date.now() - 1000) });
    const late = await call('templates.list', {}, expired.key);
    expect([late.status, late.code]).toEqual([401, 'api_key_expired']);
    const none = await call('templates.list', {});
    expect([none.status, none.code]).toEqual([401, 'unauthenticated']);
  });

  it('a refused credential does not break the public signing procedures (their token is the credential)', async () => {
    const request = await makeRequest(t, await createTestAccount(t.db, { credits: 2 }));
    const res = await call(
      'signing.open',
      { token: tokenOf(request.signers[0].signing_url) },
      'svc_live_nope',
    );
    expect(res.status).toBe(200);
  });

  it('Limits: /trpc shares the per-key fixed window with REST (429 rate_limited with Retry-After)', async () => {
    const a = await createTestAccount(t.db);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | null = null;
    for (let i = 0; i < 5; i++) {
      if (i % 2 === 0) statuses.push((await t.api('GET', 'me', { key: a.key })).status);
      else {
        last = await call('templates.list', {}, a.key);
        statuses.push(last.status);
      }
    }
    // A minute boundary inside the loop restarts the window; then nothing is limited.
    if (statuses.includes(429)) {
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const limited = await call('templates.list', {}, a.key);
      expect([limited.status, limited.code]).toEqual([429, 'rate_limited']);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
