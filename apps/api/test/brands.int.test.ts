import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 44 over REST: /api/v1/brands with the spec's envelopes; a 50 MB logo is the size error
// from its Content-Length, before anything is read; another account's brand is 404.

let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '10000' });
  owner = await createTestAccount(t.db);
});
afterAll(() => t.close());

async function call(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${t.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Announces a body of `length` bytes and sends none: the answer must come from the length alone. */
function declareOnly(key: string, length: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.baseUrl}/api/v1/brands`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': String(length),
        authorization: `Bearer ${key}`,
      },
    });
    const timer = setTimeout(() => req.destroy(new Error('no answer before the body was sent')), 5000);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('REST /api/v1/brands (issue 44)', () => {
  it('create (201), list envelope, get, PUT alias of PATCH, delete', async () => {
    const created = await call(owner.key, 'POST', '/brands', { name: 'Agency', accent_color: '#b91c1c' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'brand', name: 'Agency', is_default: true });
    const list = await call(owner.key, 'GET', '/brands?limit=0');
    expect(list.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(list.body.data[0].id).toBe(created.body.id);
    const put = await call(owner.key, 'PUT', `/brands/${created.body.id}`, { from_name: 'Agency Contracts' });
    expect(put).toMatchObject({ status: 200, body: { from_name: 'Agency Contracts' } });
    const gone = await call(owner.key, 'DELETE', `/brands/${created.body.id}`);
    expect(gone).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await call(owner.key, 'GET', `/brands/${created.body.id}`)).status).toBe(404);
  });

  it('a 50 MB logo is 422 document_too_large from its Content-Length, before the body is read', async () => {
    const answer = await declareOnly(owner.key, 70 * 1024 * 1024);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toEqual({
      code: 'document_too_large',
      message: 'The logo is larger than 1 MB; upload a smaller PNG, JPEG or SVG',
    });
  });

  it('white on white is 422 invalid_parameter naming the pair', async () => {
    const answer = await call(owner.key, 'POST', '/brands', { name: 'White', primary_color: '#FFFFFF' });
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('invalid_parameter');
    expect(answer.body.error.message).toMatch(/^primary_color #ffffff against the white button text/);
  });

  it("another account's brand is 404 everywhere, and sending with it is 404", async () => {
    const brand = (await call(owner.key, 'POST', '/brands', { name: 'Mine' })).body;
    const other = await createTestAccount(t.db);
    expect((await call(other.key, 'GET', `/brands/${brand.id}`)).body.error.code).toBe('not_found');
    expect((await call(other.key, 'PATCH', `/brands/${brand.id}`, { name: 'x' })).status).toBe(404);
    expect((await call(other.key, 'DELETE', `/brands/${brand.id}`)).status).toBe(404);
    expect((await call(other.key, 'GET', '/brands')).body.data).toEqual([]);
  });
});
