import { twoRoleTemplate } from '@esign/testing/signing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { resultData } from './results.ts';

// Issue 44, "REST, MCP and the dashboard offer the same brand choices": over MCP, get_account
// lists the account's brands and send_signature_request takes brand_id, with the same 404 for
// another account's brand; the 18 tool names are unchanged.

let t: TestApp;
let owner: TestAccount;
let client: Client;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 5 });
  client = new Client({ name: 'brand-parity', version: '1.0.0' });
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

describe('issue 44: brands over MCP', () => {
  it('get_account lists the brands REST lists; send_signature_request takes brand_id; still 18 tools', async () => {
    const brand = await t.api('POST', 'brands', { key: owner.key, body: { name: 'MCP brand' } });
    expect(brand.status, brand.text).toBe(201);
    const account = resultData(await client.callTool({ name: 'get_account', arguments: {} }));
    expect(account.brands).toEqual([{ id: brand.body.id, name: 'MCP brand', is_default: true }]);
    const tools = await client.listTools();
    expect(tools.tools).toHaveLength(18);
    const send = tools.tools.find((tool) => tool.name === 'send_signature_request')!;
    expect(Object.keys(send.inputSchema.properties ?? {})).toContain('brand_id');
    const tpl = await twoRoleTemplate(t, owner);
    const sent = resultData(
      await client.callTool({
        name: 'send_signature_request',
        arguments: {
          template_id: tpl.id,
          brand_id: brand.body.id,
          signers: [{ email: 'm@example.com' }],
          send_email: false,
        },
      }),
    );
    expect(sent.brand_id).toBe(brand.body.id);
  });

  it("another account's brand is 404 not_found over MCP as over REST", async () => {
    const other = await createTestAccount(t.db);
    const theirs = await t.api('POST', 'brands', { key: other.key, body: { name: 'Not yours' } });
    const tpl = await twoRoleTemplate(t, owner);
    const result = await client.callTool({
      name: 'send_signature_request',
      arguments: { template_id: tpl.id, brand_id: theirs.body.id, signers: [{ email: 'm@example.com' }] },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('not_found');
  });
});
