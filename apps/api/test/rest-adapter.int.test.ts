import { authenticateApiKey, callProcedure, createContext, toCoreError } from '@esign/core';
import { makeTemplate } from '@esign/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 10 });
});
afterAll(() => t.close());

describe('the REST adapter we own (issue 28, item 2)', () => {
  it('REST takes numbers and booleans sent as text in a JSON body, as it always has; other adapters still do not', async () => {
    const template = await makeTemplate(t, owner);
    const body = {
      template_id: String(template.id),
      send_email: 'yes',
      signers: [{ email: 'ada@example.com' }],
    };
    const res = await t.api('POST', 'signature_requests', { key: owner.key, body });
    expect([res.status, res.body.template?.id]).toEqual([201, template.id]);

    // The same input through createCaller (as MCP and the dashboard call): REST's coercion changed
    // no schema the procedures share.
    const ctx = createContext({
      db: t.db,
      logger: t.rt.logger,
      config: t.config,
      deps: t.rt.deps,
      actor: await authenticateApiKey(t.db, `Bearer ${owner.key}`, new Date()),
      source: 'mcp',
    });
    const error = await callProcedure(ctx, 'signatureRequests.create', body).then(
      () => null,
      (err: unknown) => toCoreError(err),
    );
    expect(error?.code).toBe('invalid_parameter');
    expect(error?.message).toContain('template_id');
  });

  it('a Host header that makes no URL is 422 invalid_parameter, as it was before the adapter was ours', async () => {
    for (const host of ['a b', 'example.com:99999']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { host, authorization: `Bearer ${owner.key}` },
      });
      expect([res.statusCode, res.json()], host).toEqual([
        422,
        { error: { code: 'invalid_parameter', message: 'Invalid URL' } },
      ]);
    }
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { host: 'esign.example.com', authorization: `Bearer ${owner.key}` },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('a procedure’s error is exactly the envelope, with the status of its code', async () => {
    const res = await t.api('GET', 'templates/2147483000', { key: owner.key });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    expect(Object.keys(res.body.error)).toEqual(['code', 'message']);
  });
});
