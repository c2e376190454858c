import { answerAsOperator, setPurchasesOffered } from '@esign/core/operator';
import { makeBuyer, makeColleague, makeDiscount, makePack } from '@esign/testing/billing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';
import { mcpTools } from '../src/tools.ts';
import { resultData } from './results.ts';

// The spec's billing tools over MCP: list_credit_packs, buy_credits, get_checkout.
let t: TestApp;
const PURCHASE_TOOLS = ['buy_credits', 'get_checkout', 'list_credit_packs'];

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'billing-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

async function call(key: string, name: string, args: Record<string, unknown> = {}) {
  const client = await connect(key);
  try {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, data: resultData(result) };
  } finally {
    await client.close();
  }
}

async function toolNames(key: string): Promise<string[]> {
  const client = await connect(key);
  const { tools } = await client.listTools();
  await client.close();
  return tools.map((x) => x.name);
}

describe('MCP billing tools', () => {
  it('MCP endpoint: the 18 tools of the specification, exactly', () => {
    expect(
      mcpTools()
        .map((x) => x.name)
        .sort(),
    ).toEqual(
      [
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
      ].sort(),
    );
  });

  it('MCP: the three billing tools are listed for a full-access key; a read-only key sees the read ones only', async () => {
    const buyer = await makeBuyer(t.db);
    expect(await toolNames(buyer.key)).toEqual(expect.arrayContaining(PURCHASE_TOOLS));
    const read = await buyer.newKey({ permission: 'read' });
    const names = await toolNames(read.key);
    expect(names).toEqual(expect.arrayContaining(['list_credit_packs', 'get_checkout']));
    expect(names).not.toContain('buy_credits');
    const refused = await call(read.key, 'buy_credits', { credit_pack_id: 1 });
    expect(refused).toMatchObject({ isError: true, data: { error: { code: 'read_only_api_key' } } });
  });

  it('MCP: list_credit_packs, buy_credits and get_checkout run the REST rules (discount, ownership, completion)', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db, { credits: 12, price: 1200 });
    const code = await makeDiscount(t.db, { percentOff: 50, creditPackId: pack.id });
    const listed = await call(buyer.key, 'list_credit_packs');
    expect(listed.isError).toBe(false);
    expect(listed.data).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(listed.data.data.find((p: any) => p.id === pack.id)).toMatchObject({
      price: '12.00',
      credits: 12,
    });

    const bought = await call(buyer.key, 'buy_credits', {
      credit_pack_id: pack.id,
      discount_code: code.code,
    });
    expect(bought.isError).toBe(false);
    expect(bought.data).toMatchObject({
      object: 'checkout',
      status: 'pending',
      amount: '6.00',
      discount_code: code.code,
      credit_pack: { id: pack.id, price: '6.00', price_per_credit: '0.50' },
      checkout_url: expect.stringContaining(`/checkout/${bought.data.id}?token=`),
    });
    const source = await t.db
      .selectFrom('checkouts')
      .select('source')
      .where('id', '=', bought.data.id)
      .executeTakeFirstOrThrow();
    expect(source.source).toBe('mcp');

    const colleague = await makeColleague(t.db, buyer);
    const foreign = await call(colleague.key, 'get_checkout', { id: bought.data.id });
    expect(foreign).toMatchObject({ isError: true, data: { error: { code: 'not_found' } } });

    await answerAsOperator(t.db, bought.data.id, 'paid', new Date());
    const done = await call(buyer.key, 'get_checkout', { id: bought.data.id });
    expect(done.data).toMatchObject({ status: 'completed', checkout_url: null });
    const account = await call(buyer.key, 'get_account');
    expect(account.data.credits.available).toBe(12);
  });

  it('MCP: the REST error codes come back as isError (billing_details_required, invalid_discount_code, already_purchased)', async () => {
    const noCountry = await createTestAccount(t.db);
    const pack = await makePack(t.db);
    expect(await call(noCountry.key, 'buy_credits', { credit_pack_id: pack.id })).toMatchObject({
      isError: true,
      data: { error: { code: 'billing_details_required' } },
    });
    const buyer = await makeBuyer(t.db, { lifetime: true });
    expect(
      await call(buyer.key, 'buy_credits', { credit_pack_id: pack.id, discount_code: 'NO-SUCH' }),
    ).toMatchObject({ isError: true, data: { error: { code: 'invalid_discount_code' } } });
    const life = await makePack(t.db, { lifetime: true });
    expect(await call(buyer.key, 'buy_credits', { credit_pack_id: life.id })).toMatchObject({
      isError: true,
      data: { error: { code: 'already_purchased' } },
    });
    expect(await call(buyer.key, 'buy_credits', {})).toMatchObject({
      isError: true,
      data: { error: { code: 'missing_parameter', message: expect.stringContaining('credit_pack_id') } },
    });
  });
});

describe('MCP: the assistant product without purchases (a per-client setting)', () => {
  it('MCP: a client whose purchases are hidden is not offered the purchase tools; calling one anyway is 403 not_available', async () => {
    const buyer = await makeBuyer(t.db);
    const hidden = await buyer.newKey();
    await setPurchasesOffered(t.db, { apiKeyId: hidden.id }, false);
    const names = await toolNames(hidden.key);
    for (const tool of PURCHASE_TOOLS) expect(names).not.toContain(tool);
    expect(names).toContain('get_account');
    const pack = await makePack(t.db);
    for (const [tool, args] of [
      ['buy_credits', { credit_pack_id: pack.id }],
      ['list_credit_packs', {}],
      ['get_checkout', { id: crypto.randomUUID() }],
    ] as const) {
      const res = await call(hidden.key, tool, args);
      expect(res, tool).toMatchObject({ isError: true, data: { error: { code: 'not_available' } } });
    }
    const none = await t.db
      .selectFrom('checkouts')
      .select('id')
      .where('user_id', '=', buyer.userId)
      .execute();
    expect(none).toEqual([]);
  });

  it('MCP: its results omit purchase_url (get_account); the same key keeps purchase_url on REST; offering again restores the tools', async () => {
    const buyer = await makeBuyer(t.db);
    const hidden = await buyer.newKey();
    await setPurchasesOffered(t.db, { apiKeyId: hidden.id }, false);
    const account = await call(hidden.key, 'get_account');
    expect(account.isError).toBe(false);
    expect(account.data.credits).toMatchObject({ object: 'credits', available: 0 });
    expect(JSON.stringify(account.data)).not.toContain('purchase_url');
    const rest = await t.api('GET', 'credits', { key: hidden.key });
    expect(rest.body.purchase_url).toBe(`${t.baseUrl}/billing`);
    const visible = await call(buyer.key, 'get_account');
    expect(visible.data.credits.purchase_url).toBe(`${t.baseUrl}/billing`);

    await setPurchasesOffered(t.db, { apiKeyId: hidden.id }, true);
    expect(await toolNames(hidden.key)).toEqual(expect.arrayContaining(PURCHASE_TOOLS));
  });
});
