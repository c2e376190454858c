import { appRouter } from '@esign/core';
import { makeRequest, makeTemplate } from '@esign/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { restRoutes } from '../src/routes.ts';

// Bad input gets the spec's 4xx, never a 500: a 500 tells clients to retry forever.
let t: TestApp;
let owner: TestAccount;
let template: { id: number };

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '10000' });
  owner = await createTestAccount(t.db, { credits: 10 });
  template = await makeTemplate(t, owner);
});
afterAll(() => t.close());

const NUL = 'a\u0000b';
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

describe('Errors: text PostgreSQL cannot store is 422 invalid_parameter naming the field', () => {
  it('a NUL byte in a JSON body string', async () => {
    const res = await t.api('PATCH', `templates/${template.id}`, { key: owner.key, body: { name: NUL } });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ code: 'invalid_parameter', message: expect.stringContaining('name') });
  });

  it('a lone surrogate in a JSON body string (escaped as \\ud800)', async () => {
    const res = await t.api('PATCH', `templates/${template.id}`, {
      key: owner.key,
      rawBody: '{"name":"broken \\ud800 text"}',
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toEqual({ code: 'invalid_parameter', message: expect.stringContaining('name') });
  });

  it('deep in a body and in object keys (signer metadata is stored as jsonb)', async () => {
    const nested = await t.api('POST', 'signature_requests', {
      key: owner.key,
      body: { template_id: template.id, signers: [{ email: 's@example.com', metadata: { note: NUL } }] },
    });
    expect(nested.status).toBe(422);
    expect(nested.body.error.message).toContain('signers[0].metadata.note');
    const key = await t.api('POST', 'signature_requests', {
      key: owner.key,
      rawBody: `{"template_id":${template.id},"signers":[{"email":"s@example.com","metadata":{"k\\u0000":1}}]}`,
    });
    expect(key.status).toBe(422);
    expect(key.body.error).toEqual({
      code: 'invalid_parameter',
      message: expect.stringContaining('signers[0].metadata'),
    });
  });

  it('in a query string (%00, and a lone surrogate encoded as %ED%A0%80 is replaced, never a 500)', async () => {
    for (const query of ['q=%00', 'external_id=x%00', 'folder=%00%00']) {
      const res = await t.api('GET', `templates?${query}`, { key: owner.key });
      expect(res.status, query).toBe(422);
      expect(res.body.error).toEqual({
        code: 'invalid_parameter',
        message: expect.stringContaining(query.split('=')[0]!),
      });
    }
    expect((await t.api('GET', 'templates?q=%ED%A0%80', { key: owner.key })).status).toBe(200);
  });

  it('in a /trpc signing call (the signing page procedures share core validation)', async () => {
    const res = await fetch(`${t.baseUrl}/trpc/signing.decline`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: `${'x'.repeat(30)}\u0000`, reason: 'no' }),
    });
    expect(res.status).toBe(422);
    expect((await res.json()).error.data.code).toBe('invalid_parameter');
  });
});

describe('Errors: ids beyond PostgreSQL integer (2^31 - 1) are 404 in paths, 422 in query and body', () => {
  const idRoutes = restRoutes(appRouter).filter((r) => r.path.includes('{id}'));
  const tooLarge = ['2147483648', '9007199254740993', '99999999999999999999999'];
  const malformed = ['-1', '0', 'abc', '1e3', '1e400', '1.5', '0x10', '012', '%2012'];

  it.each(idRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    'not_found: %s with a decimal id too large to name a resource',
    async (_name, route) => {
      for (const id of tooLarge) {
        const res = await t.api(route.method, route.path.replace('{id}', id).slice(1), {
          key: owner.key,
          body: route.method === 'GET' ? undefined : {},
        });
        expect([res.status, res.body?.error?.code], `${route.path} id=${id}`).toEqual([404, 'not_found']);
      }
    },
  );

  // Checkout ids are UUID strings (spec Conventions): any text names a checkout or none.
  const integerIdRoutes = idRoutes.filter((r) => !r.path.startsWith('/checkouts/'));
  it.each(integerIdRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    'invalid_parameter (422): %s with an id that is not a positive integer in plain decimal',
    async (_name, route) => {
      for (const id of malformed) {
        const res = await t.api(route.method, route.path.replace('{id}', id).slice(1), {
          key: owner.key,
          body: route.method === 'GET' ? undefined : {},
        });
        expect([res.status, res.body?.error?.code], `${route.path} id=${id}`).toEqual([
          422,
          'invalid_parameter',
        ]);
        expect(res.body.error.message, `${route.path} id=${id}`).toMatch(/\bid\b.*positive integer/);
      }
    },
  );

  it('a query id in scientific notation is 422, not read as a number (template_id=1e3)', async () => {
    const res = await t.api('GET', 'signature_requests?template_id=1e3', { key: owner.key });
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_parameter']);
    expect(res.body.error.message).toContain('template_id');
  });

  it('the largest integer id is an ordinary unknown id (404), not an error', async () => {
    const res = await t.api('GET', 'templates/2147483647', { key: owner.key });
    expect([res.status, res.body.error.code]).toEqual([404, 'not_found']);
  });

  it('cursor and template_id in a query string', async () => {
    for (const path of [
      'templates?cursor=2147483648',
      'signature_requests?cursor=99999999999',
      'signature_requests?template_id=2147483648',
      'signature_requests?template_id=-4',
    ]) {
      const res = await t.api('GET', path, { key: owner.key });
      expect([res.status, res.body.error.code], path).toEqual([422, 'invalid_parameter']);
      expect(res.body.error.message).toMatch(/cursor|template_id/);
    }
    expect((await t.api('GET', 'templates?cursor=2147483647', { key: owner.key })).status).toBe(200);
  });

  it('template_id in a JSON body (POST /signature_requests)', async () => {
    for (const templateId of [2147483648, 2 ** 53, 1e300, -1]) {
      const res = await t.api('POST', 'signature_requests', {
        key: owner.key,
        body: { template_id: templateId, signers: [{ email: 's@example.com' }] },
      });
      expect([res.status, res.body.error.code], String(templateId)).toEqual([422, 'invalid_parameter']);
      expect(res.body.error.message).toContain('template_id');
    }
  });
});

describe('Conventions: Content-Type application/json in any spelling is JSON', () => {
  it.each([
    'application/JSON',
    'Application/Json; Charset=UTF-8',
    'application/json;charset=utf-8',
    'APPLICATION/JSON ; charset="utf-8"',
  ])('%s', async (contentType) => {
    const res = await t.api('PATCH', `templates/${template.id}`, {
      key: owner.key,
      rawBody: JSON.stringify({ name: `Renamed ${contentType}` }),
      headers: { 'content-type': contentType },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe(`Renamed ${contentType}`);
  });

  it('a bodyless POST in any spelling works too; another media type is 422 invalid_request', async () => {
    const req = await makeRequest(t, owner);
    const cancel = await t.api('POST', `signature_requests/${req.id}/cancel`, {
      key: owner.key,
      headers: { 'content-type': 'Application/JSON' },
    });
    expect(cancel.status).toBe(200);
    const text = await t.api('PATCH', `templates/${template.id}`, {
      key: owner.key,
      rawBody: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.status, text.body.error.code]).toEqual([422, 'invalid_request']);
  });
});

describe('Errors: a body nested 100,000 deep is 400 invalid_json (no stack overflow, no 500)', () => {
  it('REST', async () => {
    for (const body of [deep(100_000), `{"name":"x","fields":${deep(100_000)}}`]) {
      const res = await t.api('PATCH', `templates/${template.id}`, { key: owner.key, rawBody: body });
      expect([res.status, res.body.error.code]).toEqual([400, 'invalid_json']);
    }
    const send = await t.api('POST', 'signature_requests', {
      key: owner.key,
      rawBody: `{"template_id":${template.id},"signers":[{"email":"a@b.co","metadata":${deep(100_000)}}]}`,
    });
    expect([send.status, send.body.error.code]).toEqual([400, 'invalid_json']);
  });

  it('MCP and /trpc (one body parser for every endpoint)', async () => {
    const mcp = await t.api('POST', '/mcp', {
      key: owner.key,
      rawBody: deep(100_000),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    // On /mcp the same refusal is JSON-RPC's parse error (issue 48 item 4).
    expect([mcp.status, mcp.body.error.code]).toEqual([400, -32700]);
    expect(mcp.body.error.message).toMatch(
      /^Parse error: The request body nests arrays or objects deeper than/,
    );
    const trpc = await t.api('POST', '/trpc/signing.decline', {
      rawBody: `{"token":"${'x'.repeat(30)}","reason":${deep(100_000)}}`,
    });
    expect(trpc.status).toBe(400);
  });
});
