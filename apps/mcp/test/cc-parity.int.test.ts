import { twoRoleTemplate } from '@esign/testing/signing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { resultData } from './results.ts';

// Issue 34 items 1 and 4: `cc` and `notify` are one procedure's fields, so REST, MCP and the
// OpenAPI document (apps/api/test/openapi-cc.test.ts) take them the same way and answer the same result and the same errors.

let t: TestApp;
let owner: TestAccount;
let client: Client;
let tpl: { id: number };

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 5 });
  tpl = await twoRoleTemplate(t, owner);
  client = new Client({ name: 'cc-parity', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.key}` } },
    }),
  );
}, 120_000);
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const signers = [{ email: 'c@example.com' }, { email: 'a@example.com' }];
const ccMails = (to: string) =>
  t.db
    .selectFrom('mail_outbox')
    .select('kind')
    .where('to_address', '=', to)
    .where('kind', '=', 'cc')
    .execute();

describe('issue 34: REST and MCP parity', () => {
  it('issue 34.1/34.4: send_signature_request and POST /signature_requests take cc and notify the same way (same procedure): same fields shown, a CC email each', async () => {
    const body = {
      template_id: tpl.id,
      signers,
      cc: ['rest-cc@example.com'],
      notify: ['rest-n@example.com'],
    };
    const rest = await t.api('POST', 'signature_requests', { key: owner.key, body });
    expect(rest.status).toBe(201);
    const mcp = resultData(
      await client.callTool({
        name: 'send_signature_request',
        arguments: { ...body, cc: ['mcp-cc@example.com'], notify: ['mcp-n@example.com'] },
      }),
    );
    expect([rest.body.cc, rest.body.notify]).toEqual([['rest-cc@example.com'], ['rest-n@example.com']]);
    expect([mcp.cc, mcp.notify, mcp.source]).toEqual([['mcp-cc@example.com'], ['mcp-n@example.com'], 'mcp']);
    const got = await t.api('GET', `signature_requests/${mcp.id}`, { key: owner.key });
    expect(got.body.cc).toEqual(['mcp-cc@example.com']);
    expect(await ccMails('rest-cc@example.com')).toHaveLength(1);
    expect(await ccMails('mcp-cc@example.com')).toHaveLength(1);
  });

  it('issue 34.1: a bad cc address is 422 invalid_parameter naming the field over REST, and the same code and message over MCP', async () => {
    const body = { template_id: tpl.id, signers, cc: ['not-an-address'] };
    const rest = await t.api('POST', 'signature_requests', { key: owner.key, body });
    expect(rest.status).toBe(422);
    expect(rest.body.error.code).toBe('invalid_parameter');
    expect(rest.body.error.message).toMatch(/^Invalid value for cc\[0\]/);
    const mcp = resultData(await client.callTool({ name: 'send_signature_request', arguments: body }));
    expect(mcp.error).toEqual(rest.body.error);
    const tooMany = { ...body, notify: Array.from({ length: 11 }, (_, i) => `n${i}@example.com`), cc: [] };
    const many = await t.api('POST', 'signature_requests', { key: owner.key, body: tooMany });
    expect([many.status, many.body.error.code]).toEqual([422, 'invalid_parameter']);
    expect(many.body.error.message).toContain('notify');
  });

  it('issue 34: the MCP tool schema describes cc and notify with their limit; the tool names stay 18', async () => {
    const { tools } = await client.listTools();
    const send = tools.find((x) => x.name === 'send_signature_request')!;
    const props = send.inputSchema.properties as Record<string, { maxItems?: number; description?: string }>;
    expect(props.cc?.maxItems).toBe(10);
    expect(props.notify?.description).toMatch(/completes, is declined, expires or is canceled/);
    expect(tools).toHaveLength(18);
  });
});
