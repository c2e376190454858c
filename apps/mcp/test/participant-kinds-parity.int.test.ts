import { dashboardSession, fourParts, partsTemplate } from '@esign/testing/parts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { resultData } from './results.ts';

// Issue 47: `kind` is one procedure's field, so REST, MCP and the dashboard (/trpc, the same
// procedure) take it the same way and answer the same result and the same errors.

let t: TestApp;
let owner: TestAccount;
let client: Client;
let tplId: number;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { lifetime: true });
  tplId = (await partsTemplate(t, owner)).id;
  client = new Client({ name: 'kinds-parity', version: '1.0.0' });
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

/** A response with what differs by call (ids, times, links, source) left out. */
const shape = (r: any) =>
  r.signers.map((s: any) => ({
    role: s.role,
    kind: s.kind,
    status: s.status,
    name: s.name,
    has_kind: 'kind' in s,
  }));

/** The dashboard's send: signatureRequests.create over /trpc with the user's session. */
async function dashboardSend(body: unknown) {
  const session = await dashboardSession(t, owner);
  const res = await fetch(`${t.baseUrl}/trpc/signatureRequests.create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...session.headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as {
    result?: { data: any };
    error?: { message: string; data: { code: string } };
  };
  return { status: res.status, data: json.result?.data, error: json.error };
}

describe('issue 47: REST, MCP and dashboard parity for kind', () => {
  it('send_signature_request, POST /signature_requests and the dashboard take kind and answer the same signers', async () => {
    const body = { template_id: tplId, signers: fourParts('parity'), send_email: false };
    const rest = await t.api('POST', 'signature_requests', { key: owner.key, body });
    expect(rest.status, rest.text).toBe(201);
    const mcp = resultData(await client.callTool({ name: 'send_signature_request', arguments: body }));
    const web = await dashboardSend(body);
    expect(web.status).toBe(200);
    expect(shape(mcp)).toEqual(shape(rest.body));
    expect(shape(web.data)).toEqual(shape(rest.body));
    expect(shape(rest.body).map((s: any) => s.kind)).toEqual(['approver', 'viewer', undefined, undefined]);
    expect([rest.body.source, mcp.source, web.data.source]).toEqual(['api', 'mcp', 'invite']);
  });

  it('an approver on a role with fields: the same 422 invalid_signer code and message on REST, MCP and the dashboard', async () => {
    const body = {
      template_id: tplId,
      signers: [{ role: 'Client', kind: 'approver', email: 'x@example.com' }],
    };
    const rest = await t.api('POST', 'signature_requests', { key: owner.key, body });
    expect([rest.status, rest.body.error.code]).toEqual([422, 'invalid_signer']);
    const mcp = resultData(await client.callTool({ name: 'send_signature_request', arguments: body }));
    expect(mcp.error).toEqual(rest.body.error);
    const web = await dashboardSend(body);
    expect([web.status, web.error?.data.code, web.error?.message]).toEqual([
      422,
      'invalid_signer',
      rest.body.error.message,
    ]);
  });

  it("the MCP tool's schema describes signers[].kind with its three values; the tools stay 18", async () => {
    const { tools } = await client.listTools();
    const send = tools.find((x) => x.name === 'send_signature_request')!;
    const signers = (send.inputSchema.properties as any).signers;
    expect(signers.items.properties.kind.enum).toEqual(['signer', 'approver', 'viewer']);
    expect(signers.items.properties.kind.description).toMatch(/approver/);
    expect(tools).toHaveLength(18);
  });
});
