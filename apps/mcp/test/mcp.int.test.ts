import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { appRouter, MAX_TEMPLATE_FIELDS, type Meta } from '@esign/core';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { until } from '@esign/testing/processes';
import { twoRoleTemplate } from '@esign/testing/signing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { mcpTools } from '../src/tools.ts';
import { resultData } from './results.ts';

/** The spec's MCP endpoint section: "Tools (18)", spelled exactly. */
const SPEC_TOOLS = [
  'get_account',
  'list_templates',
  'get_template',
  'create_template',
  'update_template',
  'duplicate_template',
  'archive_template',
  'send_signature_request',
  'list_signature_requests',
  'get_signature_request',
  'remind_signers',
  'cancel_signature_request',
  'update_signer',
  'list_credit_packs',
  'buy_credits',
  'get_checkout',
  'verify_document',
  'send_feedback',
];

let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 3 });
});
afterAll(() => t.close());

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'contract-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

async function rpc(body: unknown, key = owner.key, method = 'POST') {
  const res = await fetch(`${t.baseUrl}/mcp`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

describe('MCP endpoint over Streamable HTTP', () => {
  it('an official SDK client initializes, lists tools and calls get_account', async () => {
    const client = await connect(owner.key);
    const { tools } = await client.listTools();
    expect(tools.map((x) => x.name)).toContain('get_account');
    const result = await client.callTool({ name: 'get_account', arguments: {} });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as any;
    expect(data).toMatchObject({
      object: 'me',
      user: { id: owner.userId, email: owner.email },
      account: { id: owner.accountId },
      environment: 'live',
      credits: { object: 'credits', available: 3 },
    });
    await client.close();
  });

  it('tools are built from procedure meta: the tool list is exactly the procedures with meta.mcp', async () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>;
    const expected = Object.entries(procedures)
      .filter(([, p]) => p._def.meta?.mcp)
      .map(([path, p]) => `${p._def.meta!.mcp!.tool} -> ${path}`)
      .sort();
    const tools = mcpTools();
    expect(tools.map((x) => `${x.name} -> ${x.procedurePath}`).sort()).toEqual(expected);
    for (const tool of tools) {
      expect(procedures[tool.procedurePath], tool.name).toBeDefined();
      expect(SPEC_TOOLS, `${tool.name} is a tool name the spec spells`).toContain(tool.name);
      expect(tool.inputSchema.type).toBe('object');
    }
    expect(new Set(tools.map((x) => x.name)).size).toBe(tools.length);
    const client = await connect(owner.key);
    const { tools: listed } = await client.listTools();
    expect(listed.map((x) => x.name).sort()).toEqual(tools.map((x) => x.name).sort());
    await client.close();
  });

  it("each tool's scope matches its procedure: write tools refuse a read-only key, read tools accept it", async () => {
    const read = await owner.newKey({ permission: 'read' });
    const client = await connect(read.key);
    for (const tool of mcpTools()) {
      // Write permission is checked before the arguments, so empty arguments tell the two apart.
      const result = await client.callTool({ name: tool.name, arguments: {} });
      const code = resultData(result)?.error?.code;
      if (tool.scope === 'write') expect(code, tool.name).toBe('read_only_api_key');
      else expect(code, tool.name).not.toBe('read_only_api_key');
    }
    await client.close();
  });

  it('only POST is answered: GET and DELETE return 405', async () => {
    expect((await rpc(null, owner.key, 'GET')).status).toBe(405);
    expect((await rpc(null, owner.key, 'DELETE')).status).toBe(405);
  });

  it('a request of only notifications returns HTTP 202 and nothing is executed', async () => {
    const res = await rpc([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'tools/call', params: { name: 'get_account', arguments: {} } },
    ]);
    expect(res.status).toBe(202);
    expect(res.text).toBe('');
  });

  it('an empty batch returns error -32600', async () => {
    const res = await rpc([]);
    expect(res.body.error.code).toBe(-32600);
  });

  it('an unauthenticated request is 401 with WWW-Authenticate Bearer resource_metadata and the scopes to ask for (MCP 2025-11-25; issue 33 item 12)', async () => {
    const res = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp", scope="read write"`,
    );
  });

  it('a failed call returns isError with the API error code and message', async () => {
    const client = await connect(owner.key);
    const result = await client.callTool({ name: 'get_template', arguments: { id: 2_000_000_000 } });
    expect(result.isError).toBe(true);
    expect(resultData(result).error.code).toBe('not_found');
    await client.close();
  });

  it('an unknown tool is a JSON-RPC -32602 error, not a tool result (MCP tools/call; issue 33 item 9)', async () => {
    const res = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'no_such_tool', arguments: {} },
      }),
    });
    const body = (await res.json()) as {
      id: number;
      error?: { code: number; message: string };
      result?: unknown;
    };
    expect(body.id).toBe(7);
    expect(body.result).toBeUndefined();
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain('no_such_tool');
  });

  it('every tool has a title and every input property a description, so an assistant need not guess (issue 33 item 9)', async () => {
    const client = await connect(owner.key);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(18);
    const undescribed: string[] = [];
    const walk = (schema: any, path: string) => {
      if (!schema || typeof schema !== 'object') return;
      for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
        if (!property.description) undescribed.push(`${path}.${name}`);
        walk(property, `${path}.${name}`);
      }
      if (schema.items) walk(schema.items, `${path}[]`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const part of schema[key] ?? []) walk(part, path);
    };
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^[A-Z]/);
      expect(tool.annotations?.title, tool.name).toBe(tool.title);
      walk(tool.inputSchema, tool.name);
    }
    expect(undescribed).toEqual([]);
    await client.close();
  });

  it('create_template, list_templates and get_template run the same procedures; records get source mcp', async () => {
    const client = await connect(owner.key);
    const created = await client.callTool({
      name: 'create_template',
      arguments: {
        name: 'From MCP',
        documents: [{ file: b64(await plainPdf(1)) }],
        fields: [signatureField('Client')],
      },
    });
    expect(created.isError).toBeFalsy();
    const tpl = created.structuredContent as any;
    expect(tpl).toMatchObject({ object: 'template', name: 'From MCP', roles: ['Client'] });
    const row = await t.db
      .selectFrom('templates')
      .select('source')
      .where('id', '=', tpl.id)
      .executeTakeFirstOrThrow();
    expect(row.source).toBe('mcp');
    const listed = await client.callTool({ name: 'list_templates', arguments: { limit: 5 } });
    expect(resultData(listed).data[0].id).toBe(tpl.id);
    const got = await client.callTool({ name: 'get_template', arguments: { id: tpl.id } });
    expect(resultData(got).fields).toHaveLength(1);
    await client.close();
  });

  it(`issue 29 item 3: create_template takes ${MAX_TEMPLATE_FIELDS.toLocaleString('en')} fields (the maximum); one more is invalid_field naming \`fields\`, for update_template too`, async () => {
    const client = await connect(owner.key);
    const fields = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        type: 'text',
        areas: [{ page: 1, x: (i % 100) / 100, y: Math.floor(i / 100) / 101, w: 0.01, h: 0.009 }],
      }));
    const document = { file: b64(await plainPdf(1)) };
    const created = await client.callTool({
      name: 'create_template',
      arguments: { documents: [document], fields: fields(MAX_TEMPLATE_FIELDS) },
    });
    expect(created.isError).toBeFalsy();
    expect(resultData(created).fields).toHaveLength(MAX_TEMPLATE_FIELDS);
    const over = await client.callTool({
      name: 'create_template',
      arguments: { documents: [document], fields: fields(MAX_TEMPLATE_FIELDS + 1) },
    });
    expect(over.isError).toBe(true);
    expect(resultData(over).error.code).toBe('invalid_field');
    expect(resultData(over).error.message).toMatch(/^fields: .*10,000 fields/);
    const update = await client.callTool({
      name: 'update_template',
      arguments: { id: resultData(created).id, fields: fields(MAX_TEMPLATE_FIELDS + 1) },
    });
    expect(resultData(update).error.code).toBe('invalid_field');
    await client.close();
  }, 120_000);

  it('documents over 1 MB pass through create_template (MCP bodies take the same 25 MB documents as REST)', async () => {
    const client = await connect(owner.key);
    const big = await plainPdf(1);
    const padded = Buffer.concat([Buffer.from(big), Buffer.from(`\n%${'x'.repeat(2 * 1024 * 1024)}\n`)]);
    const res = await client.callTool({
      name: 'create_template',
      arguments: { documents: [{ file: padded.toString('base64') }] },
    });
    expect(res.isError).toBeFalsy();
    expect(resultData(res).documents).toHaveLength(1);
    await client.close();
  });

  it('a body over 1 MB: create_template and verify_document documents are decoded to disk while the body arrives, with the answers a small body gets (issue 18)', async () => {
    const uploadsDir = join(t.config.DATA_DIR, 'uploads');
    const uploadFiles = () => (existsSync(uploadsDir) ? readdirSync(uploadsDir) : []);
    const pdf = Buffer.concat([Buffer.from(await plainPdf(1)), Buffer.from(`\n%${'x'.repeat(1_500_000)}\n`)]);
    const call = (id: number, name: string, args: unknown) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    /**
     * Sends `message` (JSON) but for its last bytes, and those once the document is on disk (but
     * for the last 64 kB of base64, decoded at once): fails unless it is decoded as it arrives.
     */
    const postInTwoParts = (message: unknown) => {
      const text = JSON.stringify(message);
      const cut = text.length - 10;
      return new Promise<any>((resolve, reject) => {
        const req = request(`${t.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${owner.key}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': String(Buffer.byteLength(text)),
          },
        });
        req.on('response', (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => resolve(JSON.parse(body)));
        });
        req.on('error', reject);
        req.write(text.slice(0, cut));
        until(
          'decoded to disk',
          () => uploadFiles().some((f) => statSync(join(uploadsDir, f)).size >= pdf.length - 48 * 1024),
          10_000,
        ).then(() => req.end(text.slice(cut)), reject);
      });
    };
    const answer = await postInTwoParts(
      call(7, 'create_template', { name: 'Streamed', documents: [{ file: pdf.toString('base64') }] }),
    );
    const created = answer.result.structuredContent;
    expect(answer.result.isError).toBeFalsy();
    const stored = await t.db
      .selectFrom('template_documents')
      .select('sha256')
      .where('template_id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    await until('uploads removed', () => uploadFiles().length === 0, 5_000);

    // verify_document's `file`, in a batch (`*` before the message's path).
    const batch = await postInTwoParts([
      call(8, 'verify_document', { file: pdf.toString('base64') }),
      call(9, 'get_account', {}),
    ]);
    const verified = batch.find((m: { id: number }) => m.id === 8);
    expect(verified.result.structuredContent).toMatchObject({ verdict: 'unsigned', byte_size: pdf.length });
    await until('uploads removed', () => uploadFiles().length === 0, 5_000);

    const client = await connect(owner.key);
    // A value that is not base64: the small body's answer, in the same words.
    const bad = `${'A'.repeat(800_000)}!${'A'.repeat(800_000)}`;
    const big = await client.callTool({ name: 'create_template', arguments: { documents: [{ file: bad }] } });
    const small = await client.callTool({
      name: 'create_template',
      arguments: { documents: [{ file: 'AA!A' }] },
    });
    expect(resultData(big).error).toEqual(resultData(small).error);
    expect(resultData(small).error.code).toBe('invalid_document');
    await client.close();
    await until('uploads removed', () => uploadFiles().length === 0, 5_000);
  });

  it('missing required arguments fail with isError naming them (missing_parameter, as REST)', async () => {
    const client = await connect(owner.key);
    const result = await client.callTool({ name: 'get_template', arguments: {} });
    expect(result.isError).toBe(true);
    expect(resultData(result).error).toEqual({
      code: 'missing_parameter',
      message: expect.stringContaining('id'),
    });
    const bad = await client.callTool({
      name: 'create_template',
      arguments: { documents: [{ file: 'x' }], fields: [{ type: 'nope', areas: [] }] },
    });
    expect(resultData(bad).error.code).toBe('invalid_field');
    await client.close();
  });

  it('bad arguments are isError, never internal_error: NUL text, ids beyond PostgreSQL integer', async () => {
    const client = await connect(owner.key);
    const codeOf = async (name: string, args: Record<string, unknown>) =>
      resultData(await client.callTool({ name, arguments: args })).error?.code;
    expect(await codeOf('list_templates', { q: 'a\u0000b' })).toBe('invalid_parameter');
    expect(await codeOf('get_template', { id: 2 ** 31 })).toBe('not_found');
    expect(await codeOf('get_signature_request', { id: -3 })).toBe('invalid_parameter');
    expect(await codeOf('list_signature_requests', { template_id: 2 ** 40 })).toBe('invalid_parameter');
    expect(await codeOf('send_signature_request', { template_id: 1e12, signers: [] })).toBe(
      'invalid_parameter',
    );
    await client.close();
  });

  it('a read-only key calling a write tool gets isError read_only_api_key', async () => {
    const read = await owner.newKey({ permission: 'read' });
    const client = await connect(read.key);
    const result = await client.callTool({ name: 'archive_template', arguments: { id: 1 } });
    expect(resultData(result).error.code).toBe('read_only_api_key');
    await client.close();
  });

  it('send_signature_request, get/list/remind/cancel and update_signer work through the same procedures (source mcp)', async () => {
    const rich = await createTestAccount(t.db, { credits: 5 });
    const tpl = await twoRoleTemplate(t, rich);
    const client = await connect(rich.key);
    const sent = await client.callTool({
      name: 'send_signature_request',
      arguments: { template_id: tpl.id, signers: [{ email: 'c@example.com' }, { email: 'a@example.com' }] },
    });
    const req = sent.structuredContent as any;
    expect(req).toMatchObject({ object: 'signature_request', status: 'sent', source: 'mcp' });
    const got = await client.callTool({ name: 'get_signature_request', arguments: { id: req.id } });
    expect(resultData(got).signers).toHaveLength(2);
    const listed = await client.callTool({ name: 'list_signature_requests', arguments: { status: 'open' } });
    expect(resultData(listed).data.map((r: any) => r.id)).toContain(req.id);
    const updated = await client.callTool({
      name: 'update_signer',
      arguments: { id: req.signers[0].id, name: 'Cleo' },
    });
    expect(resultData(updated).name).toBe('Cleo');
    const reminded = await client.callTool({ name: 'remind_signers', arguments: { id: req.id } });
    expect(resultData(reminded).reminded_signer_ids).toEqual([req.signers[0].id]);
    const again = await client.callTool({ name: 'remind_signers', arguments: { id: req.id } });
    expect(resultData(again).error.code).toBe('remind_too_soon');
    const canceled = await client.callTool({ name: 'cancel_signature_request', arguments: { id: req.id } });
    expect(resultData(canceled).status).toBe('canceled');
    await client.close();
  });

  it('the same credit rule as REST: send_signature_request is isError insufficient_credits at the overdraft limit', async () => {
    const poor = await createTestAccount(t.db, { credits: 0 });
    const tpl = await twoRoleTemplate(t, { ...poor });
    const client = await connect(poor.key);
    const res = await client.callTool({
      name: 'send_signature_request',
      arguments: { template_id: tpl.id, signers: [{ email: 'x@example.com' }] },
    });
    expect(res.isError).toBe(true);
    expect(resultData(res).error.code).toBe('insufficient_credits');
    const missing = await client.callTool({ name: 'send_signature_request', arguments: { signers: [] } });
    expect(resultData(missing).error).toEqual({
      code: 'missing_parameter',
      message: expect.stringContaining('template_id'),
    });
    await client.close();
  });

  it('a read-only key lists only the tools it can use', async () => {
    const read = await owner.newKey({ permission: 'read' });
    const client = await connect(read.key);
    const { tools } = await client.listTools();
    const writeTools = mcpTools()
      .filter((x) => x.scope === 'write')
      .map((x) => x.name);
    for (const tool of tools) expect(writeTools).not.toContain(tool.name);
    expect(tools.map((x) => x.name)).toContain('get_account');
    await client.close();
  });
});
