import { setPurchasesOffered } from '@esign/core/operator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';
import { GUIDES } from '../src/guides.ts';
import { mcpTools } from '../src/tools.ts';

// Issue 48 item 4: usage guides as MCP prompts and resources, and the protocol's own errors.
let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestAccount(t.db, { credits: 3 });
});
afterAll(() => t.close());

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'guides-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function post(body: string) {
  const res = await fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${owner.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}

const call = (id: number, params: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });

/** Every property name an input schema mentions, at any depth. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const part of schema) propertyNames(part, into);
  else if (schema && typeof schema === 'object') {
    const props = (schema as { properties?: Record<string, unknown> }).properties ?? {};
    for (const name of Object.keys(props)) into.add(name);
    for (const value of Object.values(schema)) propertyNames(value, into);
  }
  return into;
}

/** The arguments each guide tells the assistant to pass, per tool (checked against the schemas). */
const GUIDE_ARGUMENTS: Record<string, string[]> = {
  list_templates: ['q', 'cursor'],
  get_template: ['id'],
  send_signature_request: [
    'template_id',
    'signers',
    'name',
    'email',
    'phone',
    'role',
    'prefill',
    'signing_order',
  ],
  list_signature_requests: ['template_id', 'q', 'status'],
  get_signature_request: ['id'],
  update_signer: ['id', 'email', 'phone', 'resend'],
  buy_credits: ['credit_pack_id'],
  get_checkout: ['id'],
};

describe('MCP usage guides (issue 48 item 4)', () => {
  it('the official SDK client lists the guides as prompts and resources and reads each one', async () => {
    const client = await connect(owner.key);
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, resources: {} });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'send_template',
      'follow_request',
      'buy_credits_when_refused',
    ]);
    for (const prompt of prompts) {
      const got = await client.getPrompt({ name: prompt.name });
      const message = got.messages[0]!;
      expect(message.role).toBe('user');
      expect(message.content).toMatchObject({ type: 'text' });
      expect((message.content as { text: string }).text).toBe(
        GUIDES.find((g) => g.name === prompt.name)!.text,
      );
    }
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(prompts.map((p) => `esign://guides/${p.name}`));
    for (const resource of resources) {
      const { contents } = await client.readResource({ uri: resource.uri });
      expect(contents[0]).toMatchObject({ uri: resource.uri, mimeType: 'text/markdown' });
      expect(String((contents[0] as { text: string }).text)).toMatch(/^# /);
    }
    await expect(client.getPrompt({ name: 'no_such_guide' })).rejects.toThrow(
      /-32602.*Unknown prompt: no_such_guide/,
    );
    await expect(client.readResource({ uri: 'esign://guides/nothing' })).rejects.toThrow(
      /-32002.*Resource not found: esign:\/\/guides\/nothing/,
    );
    await client.close();
  });

  it('every tool a guide names is a tool the server lists, and every argument it names is in that tool’s input schema', () => {
    const tools = new Map(mcpTools().map((tool) => [tool.name, tool]));
    for (const guide of GUIDES) {
      const named = [...guide.text.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
      for (const tool of guide.tools) {
        expect(tools.has(tool), `${guide.name} names ${tool}`).toBe(true);
        expect(named, `${guide.name} tells when to call ${tool}`).toContain(tool);
      }
      // A word that looks like a tool name (verb_object) and is named in the text is a listed tool.
      for (const word of named.filter((w) =>
        /^(get|list|send|update|cancel|remind|buy|verify|create)_/.test(w),
      ))
        expect(tools.has(word), `${guide.name}: \`${word}\``).toBe(true);
    }
    for (const [tool, args] of Object.entries(GUIDE_ARGUMENTS)) {
      const names = propertyNames(tools.get(tool)!.inputSchema);
      for (const arg of args) expect(names.has(arg), `${tool} takes ${arg}`).toBe(true);
    }
  });

  it('a client not offered purchases is not offered the purchase guide either', async () => {
    const hidden = await owner.newKey({ permission: 'full' });
    await setPurchasesOffered(t.db, { apiKeyId: hidden.id }, false);
    const client = await connect(hidden.key);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['send_template', 'follow_request']);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.name)).toEqual(['send_template', 'follow_request']);
    await expect(client.getPrompt({ name: 'buy_credits_when_refused' })).rejects.toThrow(/Unknown prompt/);
    await client.close();
  });
});

describe('MCP protocol errors (issue 48 item 4)', () => {
  it('a body that is not JSON is JSON-RPC parse error -32700 (HTTP 400)', async () => {
    const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: The request body is not valid JSON' },
    });
  });

  it('tools/call arguments that are not an object are -32602 naming the problem, not -32603 with a validation dump', async () => {
    for (const [args, got] of [
      ['x', 'a string'],
      [[1], 'an array'],
      [null, 'null'],
      [7, 'a number'],
    ] as const) {
      const res = await post(call(3, { name: 'get_account', arguments: args }));
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32602,
          message: `Invalid params: arguments must be an object of the tool's arguments (got ${got})`,
        },
      });
    }
    const noName = await post(call(4, { arguments: {} }));
    expect(noName.body.error).toEqual({
      code: -32602,
      message: "Invalid params: the tool's name must be a string (got nothing)",
    });
  });

  it('in a batch, only the malformed call is refused; the others are answered', async () => {
    const res = await post(
      `[${call(1, { name: 'get_account', arguments: 'x' })},${call(2, { name: 'get_account', arguments: {} })}]`,
    );
    type Answer = {
      id: number;
      error?: { code: number };
      result?: { structuredContent: { object: string } };
    };
    const byId = new Map((res.body as Answer[]).map((m) => [m.id, m]));
    expect(byId.get(1)?.error?.code).toBe(-32602);
    expect(byId.get(2)?.result?.structuredContent.object).toBe('me');
  });

  it("an unknown tool's message says it once, without a doubled 'MCP error -32602:' prefix", async () => {
    const res = await post(call(5, { name: 'no_such_tool', arguments: {} }));
    expect(res.body.error).toEqual({ code: -32602, message: 'Unknown tool: no_such_tool' });
    const client = await connect(owner.key);
    // The SDK client adds its prefix once.
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool: no_such_tool$/,
    );
    await client.close();
  });

  it('get_template with a non-numeric id is invalid_parameter naming the bad value (also on REST)', async () => {
    const res = await post(call(6, { name: 'get_template', arguments: { id: 'abc' } }));
    const text = JSON.parse(res.body.result.content[0].text);
    expect(res.body.result.isError).toBe(true);
    expect(text.error).toEqual({
      code: 'invalid_parameter',
      message: 'Invalid value for id: "abc" is not an id (expected a positive integer in decimal digits)',
    });
    const negative = await post(call(7, { name: 'get_template', arguments: { id: -4 } }));
    expect(JSON.parse(negative.body.result.content[0].text).error.message).toBe(
      'Invalid value for id: -4 is not an id (expected a positive integer in decimal digits)',
    );
    const rest = await t.api('GET', 'templates/1x', { key: owner.key });
    expect(rest.status).toBe(422);
    expect(rest.body.error.message).toBe(
      'Invalid value for id: "1x" is not an id (expected a positive integer in decimal digits)',
    );
  });
});
