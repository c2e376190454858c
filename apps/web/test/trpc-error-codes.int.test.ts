import { MAX_TEMPLATE_FIELDS } from '@esign/core';
import { createAccount } from '@esign/core/operator';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

// Issue 29 item 5: a tRPC client tells a refusal from a crash. Each error carries the JSON-RPC code
// of its kind (tRPC's FORBIDDEN, NOT_FOUND, UNPROCESSABLE_CONTENT, ...), never -32603 for all, with
// the service's code in data.code and the HTTP status the spec gives that code.

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.close());

interface ErrorBody {
  error: { code: number; message: string; data: { code: string; httpStatus: number } };
}

async function call(
  path: string,
  opts: { input?: unknown; key?: string; cookie?: string; csrf?: string; method?: 'GET' | 'POST' } = {},
) {
  const headers: Record<string, string> = { origin: t.baseUrl };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.csrf) headers['x-csrf-token'] = opts.csrf;
  const get = opts.method === 'GET';
  if (!get) headers['content-type'] = 'application/json';
  const query =
    get && opts.input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(opts.input))}` : '';
  const res = await fetch(`${t.baseUrl}/trpc/${path}${query}`, {
    method: get ? 'GET' : 'POST',
    headers,
    body: get ? undefined : JSON.stringify(opts.input ?? {}),
  });
  return { res, body: (await res.json()) as ErrorBody & { result?: { data: any } } };
}

const errorOf = (r: Awaited<ReturnType<typeof call>>) => ({
  status: r.res.status,
  jsonRpc: r.body.error?.code,
  code: r.body.error?.data.code,
  httpStatus: r.body.error?.data.httpStatus,
});

describe('tRPC errors carry the JSON-RPC code of their kind (issue 29 item 5)', () => {
  it('a read-only key changing something: 403 forbidden kind, JSON-RPC FORBIDDEN (-32003)', async () => {
    const a = await createTestAccount(t.db, { permission: 'read' });
    const r = await call('apiKeys.create', {
      key: a.key,
      input: { environment: 'live', permission: 'full' },
    });
    expect(errorOf(r)).toEqual({ status: 403, jsonRpc: -32003, code: 'read_only_api_key', httpStatus: 403 });
  });

  it('a CSRF refusal: 403 forbidden, JSON-RPC FORBIDDEN (-32003)', async () => {
    const email = `csrf-${Date.now()}@example.com`;
    const password = 'owner password 1';
    await t.db
      .transaction()
      .execute((tx) =>
        createAccount(tx, { email, password, name: 'Owner', accountName: 'Owner Co' }, new Date()),
      );
    const signIn = await call('auth.signIn', { input: { email, password } });
    const cookie = signIn.res.headers.get('set-cookie')!.split(';')[0]!;
    const r = await call('apiKeys.create', { cookie, input: { environment: 'live', permission: 'full' } });
    expect(errorOf(r)).toEqual({ status: 403, jsonRpc: -32003, code: 'forbidden', httpStatus: 403 });
  });

  it('a signing token that matches nothing: 404 not_found, JSON-RPC NOT_FOUND (-32004)', async () => {
    const r = await call('signing.open', { input: { token: 'x'.repeat(43) } });
    expect(errorOf(r)).toEqual({ status: 404, jsonRpc: -32004, code: 'not_found', httpStatus: 404 });
  });

  it('a validation error: 422 invalid_parameter, JSON-RPC UNPROCESSABLE_CONTENT (-32022)', async () => {
    const a = await createTestAccount(t.db);
    const r = await call('templates.list', { key: a.key, method: 'GET', input: { limit: 'many' } });
    expect(errorOf(r)).toEqual({ status: 422, jsonRpc: -32022, code: 'invalid_parameter', httpStatus: 422 });
  });

  it('issue 29 item 3: the editor saving one field past the maximum over /trpc: 422 invalid_field, JSON-RPC UNPROCESSABLE_CONTENT (-32022), never a 413 or 500', async () => {
    const a = await createTestAccount(t.db);
    const created = await t.api('POST', 'templates', {
      key: a.key,
      body: { documents: [{ file: b64(await plainPdf(1)) }], fields: [signatureField()] },
    });
    expect(created.status).toBe(201);
    const fields = Array.from({ length: MAX_TEMPLATE_FIELDS + 1 }, (_, i) => ({
      name: `Field ${i + 1}`,
      type: 'text',
      role: 'Signer',
      required: false,
      areas: [{ page: 1, x: 0.1, y: (i % 90) / 100, w: 0.2, h: 0.05, document: 0 }],
    }));
    const r = await call('templates.editorSave', {
      key: a.key,
      input: { id: created.body.id, version: 1, fields },
    });
    expect(errorOf(r)).toEqual({ status: 422, jsonRpc: -32022, code: 'invalid_field', httpStatus: 422 });
    expect(r.body.error.message).toContain(MAX_TEMPLATE_FIELDS.toLocaleString('en'));
  });

  it('no credentials: 401 unauthenticated, JSON-RPC UNAUTHORIZED (-32001)', async () => {
    const r = await call('templates.list', { method: 'GET', input: {} });
    expect(errorOf(r)).toEqual({ status: 401, jsonRpc: -32001, code: 'unauthenticated', httpStatus: 401 });
  });

  it('in a batch each error keeps its own kind', async () => {
    const res = await fetch(
      `${t.baseUrl}/trpc/signing.open,templates.list?batch=1&input=${encodeURIComponent(
        JSON.stringify({ 0: { token: 'x'.repeat(43) }, 1: {} }),
      )}`,
    );
    const body = (await res.json()) as ErrorBody[];
    expect(body.map((b) => [b.error.code, b.error.data.code])).toEqual([
      [-32004, 'not_found'],
      [-32001, 'unauthenticated'],
    ]);
  });
});
