import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  owner = await createTestAccount(t.db);
});
afterAll(() => t.close());

describe('Unknown routes', () => {
  it('a method and path matching no endpoint is 404 not_found naming both', async () => {
    const res = await t.api('POST', 'no/such/thing', { key: owner.key, body: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: { code: 'not_found', message: expect.stringContaining('POST /api/v1/no/such/thing') },
    });
  });

  it('a known path with the wrong method is 404 naming the method', async () => {
    const res = await t.api('DELETE', 'me', { key: owner.key });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('DELETE /api/v1/me');
  });

  it('Limits: an authenticated request to an unknown route carries RateLimit-* (every authenticated response)', async () => {
    const a = await createTestAccount(t.db);
    for (const [method, path] of [
      ['GET', 'no/such/thing'],
      ['DELETE', 'me'],
      ['GET', '/not-an-api-path'],
    ] as const) {
      const res = await t.api(method, path, { key: a.key });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('ratelimit-limit'), path).toBe('3');
      expect(Number(res.headers.get('ratelimit-reset')), path).toBeGreaterThan(0);
    }
  });

  it('Authentication 1: an unknown API route without a key is 401 (every request needs authentication)', async () => {
    const res = await t.api('GET', 'no/such/thing');
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthenticated']);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });

  it('paths outside the API are 404 with the envelope too', async () => {
    const res = await t.api('GET', '/definitely-not-here');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('Limits: fixed one-minute window per key, kept in the database', () => {
  it('the request over RATE_LIMIT_PER_MINUTE is 429 rate_limited with Retry-After, and counts are per key', async () => {
    const a = await createTestAccount(t.db);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<TestApp['api']>> | null = null;
    for (let i = 0; i < 4; i++) {
      last = await t.api('GET', 'me', { key: a.key });
      statuses.push(last.status);
    }
    // A minute boundary may fall inside the loop; then the window restarts and fewer are limited.
    if (statuses.at(-1) === 429) {
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last!.body.error.code).toBe('rate_limited');
      const retry = Number(last!.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(0);
      expect(retry).toBeLessThanOrEqual(60);
      expect(last!.headers.get('ratelimit-remaining')).toBe('0');
    }
    const other = await a.newKey();
    expect((await t.api('GET', 'me', { key: other.key })).status).toBe(200);
  });

  it('two API processes on one database share the window', async () => {
    const a = await createTestAccount(t.db);
    const { buildAllInOneApp } = await import('@esign/server');
    const app2 = await buildAllInOneApp(t.rt);
    await app2.listen({ port: 0, host: '127.0.0.1' });
    try {
      const addr = app2.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      clockAlign();
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const base = i % 2 === 0 ? t.baseUrl : `http://127.0.0.1:${port}`;
        const res = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${a.key}` } });
        codes.push(res.status);
      }
      if (codes.at(-1) === 429) expect(codes).toEqual([200, 200, 200, 429]);
      else expect(codes.filter((c) => c === 429).length).toBe(0);
    } finally {
      await app2.close();
    }
  });
});

function clockAlign() {
  // Keep clear of a minute boundary so the four requests land in one window.
  const msLeft = 60_000 - (Date.now() % 60_000);
  if (msLeft < 2000) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, msLeft + 50);
}

describe('Errors', () => {
  it('500 internal_error never leaks internals (database failure)', async () => {
    const a = await createTestAccount(t.db);
    await t.db.schema.alterTable('credit_ledger').renameTo('credit_ledger_moved').execute();
    try {
      const res = await t.api('GET', 'credits', { key: a.key });
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      expect(res.text).not.toMatch(/credit_ledger|relation|sql|stack/i);
    } finally {
      await t.db.schema.alterTable('credit_ledger_moved').renameTo('credit_ledger').execute();
    }
  });

  it('OpenAPI 3.1 document at /api/v1/openapi.json shows the error envelope', async () => {
    const res = await t.api('GET', 'openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    expect(res.body.paths['/me'].get.responses['401'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    );
    expect(res.body.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
  });

  it('a readable reference page at /api/docs (the renderer, served by this process, reads openapi.json)', async () => {
    const res = await fetch(`${t.baseUrl}/api/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<script src="/api/docs/scalar.js"></script>');
    expect(html).toContain('"url":"/api/v1/openapi.json"');
  });

  it('/healthz and /readyz answer', async () => {
    expect((await t.api('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.api('GET', '/readyz')).body).toEqual({ status: 'ready' });
  });
});

describe('POST /feedback', () => {
  it('400 invalid_json when the body is not valid JSON', async () => {
    const a = await createTestAccount(t.db);
    const res = await t.api('POST', 'feedback', { key: a.key, rawBody: '{"kind": "bug_report", ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'invalid_json', message: expect.any(String) } });
  });

  it('application/json; charset=utf-8 bodies are read', async () => {
    const t3 = await startTestApp();
    try {
      const a = await createTestAccount(t3.db);
      const res = await t3.api('POST', 'feedback', {
        key: a.key,
        body: { kind: 'question', message: 'Ünïcödé?' },
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.status).toBe(201);
      expect(res.body.message).toBe('Ünïcödé?');
    } finally {
      await t3.close();
    }
  });

  it('422 missing_parameter names the missing field; invalid_parameter names a bad one', async () => {
    const t3 = await startTestApp();
    try {
      const a = await createTestAccount(t3.db);
      const missing = await t3.api('POST', 'feedback', { key: a.key, body: { kind: 'bug_report' } });
      expect(missing.status).toBe(422);
      expect(missing.body.error).toEqual({
        code: 'missing_parameter',
        message: expect.stringContaining('message'),
      });
      const bad = await t3.api('POST', 'feedback', { key: a.key, body: { kind: 'rant', message: 'x' } });
      expect(bad.status).toBe(422);
      expect(bad.body.error).toEqual({ code: 'invalid_parameter', message: expect.stringContaining('kind') });
    } finally {
      await t3.close();
    }
  });

  it('read-only keys may send feedback; it is stored with source api and emailed to the operator', async () => {
    const t3 = await startTestApp({ OPERATOR_EMAIL: 'ops@example.com' });
    try {
      const a = await createTestAccount(t3.db);
      const read = await a.newKey({ permission: 'read' });
      const res = await t3.api('POST', 'feedback', {
        key: read.key,
        body: { kind: 'feature_request', message: 'Dark mode' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        object: 'feedback',
        kind: 'feature_request',
        message: 'Dark mode',
        source: 'api',
      });
      const mail = await t3.db.selectFrom('mail_outbox').selectAll().where('kind', '=', 'feedback').execute();
      expect(mail).toHaveLength(1);
      expect(mail[0]).toMatchObject({ to_address: 'ops@example.com', reply_to: a.email });
      expect(mail[0]!.text_body).toContain('Dark mode');
    } finally {
      await t3.close();
    }
  });

  it('Limits: 20 feedback messages per user per clock hour, then 429 rate_limited with Retry-After to the next hour', async () => {
    const t3 = await startTestApp();
    try {
      const a = await createTestAccount(t3.db);
      t3.clock.now = new Date('2030-01-01T10:59:00Z');
      const results = await Promise.all(
        Array.from({ length: 21 }, (_, i) =>
          t3.api('POST', 'feedback', { key: a.key, body: { kind: 'feedback', message: `m${i}` } }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(20);
      const limited = results.find((r) => r.status === 429)!;
      expect(limited.body.error.code).toBe('rate_limited');
      expect(limited.headers.get('retry-after')).toBe('60');
      t3.clock.now = new Date('2030-01-01T11:00:01Z');
      expect(
        (await t3.api('POST', 'feedback', { key: a.key, body: { kind: 'feedback', message: 'next hour' } }))
          .status,
      ).toBe(201);
    } finally {
      await t3.close();
    }
  });
});

describe('Authentication 6: a user without access gets 403 forbidden', () => {
  it('a viewer user’s full-access key may read but not write', async () => {
    const admin = await createTestAccount(t.db, { credits: 5 });
    const { createUser, issueApiKey } = await import('@esign/core/operator');
    const viewer = await createUser(t.db, {
      accountId: admin.accountId,
      email: `viewer-${Date.now()}@example.com`,
      role: 'viewer',
    });
    const { key } = await issueApiKey(t.db, { userId: viewer.id, environment: 'live', permission: 'full' });
    expect((await t.api('GET', 'templates', { key })).status).toBe(200);
    const res = await t.api('POST', 'feedback', {
      key,
      body: { kind: 'feedback', message: 'viewers may send feedback' },
    });
    expect(res.status).toBe(201);
    const write = await t.api('PATCH', 'templates/1', { key, body: { name: 'x' } });
    expect([write.status, write.body.error.code]).toEqual([403, 'forbidden']);
  });
});
