import { makeRequest, makeTemplate } from '@esign/testing/fixtures';
import { tokenOf } from '@esign/testing/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 29 item 5: no site may frame the dashboard, the API reference or any other response, except
// the embeddable signing page /e/{token}, which names the origins the account allows.

let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 10 });
});
afterAll(async () => t?.close());

async function framing(path: string, init: RequestInit = {}) {
  const res = await fetch(`${t.baseUrl}${path}`, init);
  await res.arrayBuffer();
  return {
    status: res.status,
    csp: res.headers.get('content-security-policy'),
    xfo: res.headers.get('x-frame-options'),
  };
}

describe('framing headers per page kind (issue 29 item 5)', () => {
  it.each([
    ['the dashboard', '/'],
    ['the sign-in page', '/login'],
    ['the API reference', '/api/docs'],
    ['the OpenAPI document', '/api/v1/openapi.json'],
    ['a JSON 404', '/api/v1/nothing-here'],
    ['health', '/healthz'],
  ])('%s (%s) may be framed by no site', async (_kind, path) => {
    const res = await framing(path);
    expect(res.csp).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
    expect(res.xfo).toBe('DENY');
  });

  it('a JSON API response may be framed by no site', async () => {
    const res = await framing('/api/v1/me', { headers: { authorization: `Bearer ${owner.key}` } });
    expect(res.status).toBe(200);
    expect(res.csp).toBe("frame-ancestors 'none'");
    expect(res.xfo).toBe('DENY');
  });

  it('the signing page /s/{token} may be framed by no site; its own policy stays', async () => {
    const request = await makeRequest(t, owner);
    const res = await framing(`/s/${tokenOf(request.signers[0].signing_url)}`);
    expect(res.csp).toContain("script-src 'self'");
    expect(res.csp).toMatch(/frame-ancestors 'none'/);
    expect(res.xfo).toBe('DENY');
  });

  it('the embeddable page /e/{token} keeps its allow-list (no X-Frame-Options); without embed: true, framed by none', async () => {
    const template = await makeTemplate(t, owner);
    const allow = await fetch(`${t.baseUrl}/trpc/embed.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ origins: ['https://app.example.com'] }),
    });
    expect(allow.status).toBe(200);
    const send = (embed: boolean) =>
      t.api('POST', 'signature_requests', {
        key: owner.key,
        body: { template_id: template.id, embed, send_email: false, signers: [{ email: 'e@example.com' }] },
      });
    const embedded = await framing(`/e/${tokenOf((await send(true)).body.signers[0].signing_url)}`);
    expect(embedded.csp).toMatch(/frame-ancestors https:\/\/app\.example\.com(;|$)/);
    expect(embedded.csp?.match(/frame-ancestors/g)).toHaveLength(1);
    expect(embedded.xfo).toBeNull();
    const plain = await framing(`/e/${tokenOf((await send(false)).body.signers[0].signing_url)}`);
    expect(plain.csp).toMatch(/frame-ancestors 'none'/);
    expect(plain.xfo).toBe('DENY');
  });
});
