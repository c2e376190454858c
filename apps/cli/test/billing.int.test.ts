import { makeBuyer } from '@esign/testing/billing';
import { esign } from '@esign/testing/spawn';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

// Each test spawns the real `esign` process several times; on a loaded 2-core machine one start
// takes seconds, so these tests get more than the default minute.
vi.setConfig({ testTimeout: 180_000 });

// operations.md §3: pack create, discount create, checkout confirm|fail (and purchases hide|offer).
let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  env = { DATABASE_URL: t.dbUrl, PUBLIC_URL: t.baseUrl };
});
afterAll(() => t.close());

const run = async (args: string[]) => {
  const r = await esign([...args, '--json'], env);
  return { code: r.code, out: JSON.parse(r.stdout.trim()) };
};

describe('esign billing commands', () => {
  it('pack create --json prints the Credit pack object (credits, or --lifetime)', async () => {
    const pack = await run([
      'pack',
      'create',
      '--name',
      'Team',
      '--credits',
      '100',
      '--price',
      '49',
      '--description',
      'For teams',
    ]);
    expect(pack.code).toBe(0);
    expect(pack.out).toEqual({
      object: 'credit_pack',
      id: expect.any(Number),
      name: 'Team',
      description: 'For teams',
      credits: 100,
      unlimited: false,
      price: '49.00',
      currency: 'USD',
      price_per_credit: '0.49',
    });
    const life = await run(['pack', 'create', '--name', 'Lifetime', '--lifetime', '--price', '299.00']);
    expect(life.out).toMatchObject({
      credits: null,
      unlimited: true,
      price: '299.00',
      price_per_credit: null,
    });
    const listed = await t.api('GET', 'credit_packs', { key: (await makeBuyer(t.db)).key });
    expect(listed.body.data).toEqual(expect.arrayContaining([pack.out, life.out]));
  });

  it('pack create refuses both or neither of --credits/--lifetime and a bad --price (invalid_parameter)', async () => {
    for (const args of [
      ['--name', 'X', '--credits', '5', '--lifetime', '--price', '1.00'],
      ['--name', 'X', '--price', '1.00'],
      ['--name', 'X', '--credits', '5', '--price', '1.999'],
      ['--name', 'X', '--credits', '5', '--price', '-1'],
    ]) {
      const r = await run(['pack', 'create', ...args]);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.out.error.code, args.join(' ')).toBe('invalid_parameter');
    }
  });

  it('discount create --json prints { discount: {...} } (percent or amount, pack, max uses, expiry)', async () => {
    const pack = await run(['pack', 'create', '--name', 'Ten', '--credits', '10', '--price', '10']);
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const pct = await run([
      'discount',
      'create',
      '--code',
      'LAUNCH20',
      '--percent',
      '20',
      '--pack-id',
      String(pack.out.id),
      '--max-uses',
      '5',
      '--expires-at',
      expires,
    ]);
    expect(pct.code).toBe(0);
    expect(pct.out).toEqual({
      discount: {
        object: 'discount',
        id: expect.any(Number),
        code: 'LAUNCH20',
        percent_off: 20,
        amount_off: null,
        currency: 'USD',
        credit_pack_id: pack.out.id,
        max_uses: 5,
        uses: 0,
        expires_at: expires,
        created_at: expect.any(String),
      },
    });
    const amt = await run(['discount', 'create', '--code', 'FIVEOFF', '--amount', '5.00']);
    expect(amt.out.discount).toMatchObject({
      percent_off: null,
      amount_off: '5.00',
      credit_pack_id: null,
      max_uses: null,
    });
    const dup = await run(['discount', 'create', '--code', 'launch20', '--percent', '5']);
    expect(dup.out.error.code).toBe('invalid_parameter');
    const both = await run(['discount', 'create', '--code', 'BOTH', '--percent', '5', '--amount', '1.00']);
    expect(both.out.error.code).toBe('invalid_parameter');
    const noPack = await run([
      'discount',
      'create',
      '--code',
      'NOPACK',
      '--percent',
      '5',
      '--pack-id',
      '999999',
    ]);
    expect(noPack.out.error.code).toBe('not_found');
  });

  it('checkout confirm / checkout fail print the Checkout object; credits added once; the opposite answer is refused', async () => {
    const buyer = await makeBuyer(t.db, { credits: 1 });
    const pack = await run(['pack', 'create', '--name', 'Eight', '--credits', '8', '--price', '8']);
    const a = await t.api('POST', 'checkouts', { key: buyer.key, body: { credit_pack_id: pack.out.id } });
    const confirmed = await run(['checkout', 'confirm', '--id', a.body.id]);
    expect(confirmed.code).toBe(0);
    expect(confirmed.out).toEqual({
      ...a.body,
      status: 'completed',
      checkout_url: null,
      completed_at: expect.any(String),
    });
    const again = await run(['checkout', 'confirm', '--id', a.body.id]);
    expect(again.out.status).toBe('completed');
    expect((await t.api('GET', 'credits', { key: buyer.key })).body.available).toBe(9);
    const refused = await run(['checkout', 'fail', '--id', a.body.id]);
    expect(refused.code).not.toBe(0);
    expect(refused.out.error.code).toBe('invalid_request');

    const b = await t.api('POST', 'checkouts', { key: buyer.key, body: { credit_pack_id: pack.out.id } });
    const failed = await run(['checkout', 'fail', '--id', b.body.id]);
    expect(failed.out).toMatchObject({
      id: b.body.id,
      status: 'failed',
      checkout_url: null,
      completed_at: null,
    });
    expect((await run(['checkout', 'confirm', '--id', b.body.id])).out.error.code).toBe('invalid_request');
    expect((await run(['checkout', 'confirm', '--id', crypto.randomUUID()])).out.error.code).toBe(
      'not_found',
    );
  });

  it('purchases hide|offer --key-id sets the per-client setting (MCP: no purchase tools, no purchase links)', async () => {
    const buyer = await makeBuyer(t.db);
    const hidden = await run(['purchases', 'hide', '--key-id', String(buyer.keyId)]);
    expect(hidden.out).toEqual({ client: { type: 'api_key', id: buyer.keyId }, purchases_offered: false });
    const row = await t.db
      .selectFrom('api_keys')
      .select('purchases_hidden')
      .where('id', '=', buyer.keyId)
      .executeTakeFirstOrThrow();
    expect(row.purchases_hidden).toBe(true);
    const offered = await run(['purchases', 'offer', '--key-id', String(buyer.keyId)]);
    expect(offered.out.purchases_offered).toBe(true);
    expect((await run(['purchases', 'hide', '--client-id', 'no-such-client'])).out.error.code).toBe(
      'not_found',
    );
    expect((await run(['purchases', 'hide'])).out.error.code).toBe('invalid_parameter');
  });
});
