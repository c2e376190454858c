import { tokenOf, trpc, twoRoleTemplate } from '@esign/testing/signing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { resultData } from './results.ts';

// Issue 34.2 and 34.3 through every adapter: REST and MCP (the existing send_signature_request
// tool, no new tool) run the same procedure, take the same keys, refuse the same bad input, and
// the OpenAPI document and the tool's schema describe them.

let t: TestApp;
let owner: TestAccount;
let tpl: { id: number };
let client: Client;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 10 });
  tpl = await twoRoleTemplate(t, owner);
  client = new Client({ name: 'extras-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${owner.key}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

const signers = [{ email: 'c@example.com' }, { email: 'a@example.com' }];
const extras = { reminders: { every_hours: 72, max: 3 }, allow_delegation: true };

const viaRest = (body: Record<string, unknown>) =>
  t.api('POST', 'signature_requests', { key: owner.key, body: { template_id: tpl.id, signers, ...body } });
const viaMcp = async (args: Record<string, unknown>) =>
  resultData(
    await client.callTool({
      name: 'send_signature_request',
      arguments: { template_id: tpl.id, signers, ...args },
    }),
  );

describe('issue 34.2, 34.3: REST and MCP parity', () => {
  it('issue 34.2/34.3: reminders and allow_delegation are taken and shown alike by POST /signature_requests and send_signature_request', async () => {
    const rest = await viaRest(extras);
    expect(rest.status, rest.text).toBe(201);
    const mcp = await viaMcp(extras);
    for (const r of [rest.body, mcp]) expect(r).toMatchObject({ ...extras, status: 'sent' });
    expect([rest.body.source, mcp.source]).toEqual(['api', 'mcp']);
    const got = await t.api('GET', `signature_requests/${mcp.id}`, { key: owner.key });
    expect(got.body).toMatchObject(extras);
    // The signing page learns it through the same signing router whichever adapter sent it.
    for (const r of [rest.body, mcp]) {
      const open = await trpc(t, 'open', { token: tokenOf(r.signers[0].signing_url) }, 'query');
      expect(open.data.allow_delegation).toBe(true);
    }
  });

  it('issue 34.2: a bad schedule is 422 invalid_parameter over REST and the same code as an MCP tool error', async () => {
    for (const reminders of [{ every_hours: 2, max: 3 }, { every_hours: 72, max: 50 }, 'weekly']) {
      const rest = await viaRest({ reminders });
      expect([rest.status, rest.body.error?.code], rest.text).toEqual([422, 'invalid_parameter']);
      expect(rest.body.error.message).toMatch(/reminders/);
      const mcp = await viaMcp({ reminders });
      expect(mcp?.error?.code, JSON.stringify(mcp)).toBe('invalid_parameter');
    }
  });

  it('issue 34.2/34.3: the OpenAPI document and the send_signature_request tool schema describe both keys with their bounds; still 18 tools', async () => {
    const doc = await t.api('GET', '/api/v1/openapi.json');
    const body = JSON.stringify(doc.body);
    expect(body).toContain('allow_delegation');
    expect(body).toContain('every_hours');
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(18);
    const send = tools.find((x) => x.name === 'send_signature_request')!;
    const props = send.inputSchema.properties as Record<string, any>;
    expect(props.allow_delegation.description).toMatch(/hand their turn/);
    expect(JSON.stringify(props.reminders)).toContain('"minimum":24');
  });
});
