import { answerAsOperator, getCredits } from '@esign/core/operator';
import { settleCheckout } from '@esign/core/testing';
import { makeBuyer, makeColleague, makeDiscount, makePack } from '@esign/testing/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestApp, type TestApp } from '../../../test/harness.ts';

// The spec's Billing section over REST: GET /credit_packs, POST /checkouts, GET /checkouts/{id}.
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const buy = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  t.api('POST', 'checkouts', { key, body, headers });
const credits = async (accountId: number) => (await getCredits(t.db, accountId)).available;
const pay = (id: string) => answerAsOperator(t.db, id, 'paid', new Date());

describe('GET /credit_packs', () => {
  it('Billing: packs cheapest first, all on one page (has_more false, next_cursor null), spec shape', async () => {
    const buyer = await makeBuyer(t.db);
    const big = await makePack(t.db, { credits: 100, price: 4900, name: 'Big', description: 'For teams' });
    const small = await makePack(t.db, { credits: 10, price: 900, name: 'Small' });
    const odd = await makePack(t.db, { credits: 300, price: 1900, name: 'Odd' });
    const res = await t.api('GET', 'credit_packs?limit=1', { key: buyer.key });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe('list');
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toBeNull();
    const prices = res.body.data.map((p: any) => Number(p.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const ids = res.body.data.map((p: any) => p.id);
    expect(ids.indexOf(small.id)).toBeLessThan(ids.indexOf(odd.id));
    expect(ids.indexOf(odd.id)).toBeLessThan(ids.indexOf(big.id));
    expect(res.body.data.find((p: any) => p.id === big.id)).toEqual({
      object: 'credit_pack',
      id: big.id,
      name: 'Big',
      description: 'For teams',
      credits: 100,
      unlimited: false,
      price: '49.00',
      currency: 'USD',
      price_per_credit: '0.49',
    });
    expect(res.body.data.find((p: any) => p.id === odd.id).price_per_credit).toBe('0.0633');
  });

  it('Billing: the lifetime deal is listed (credits null, price_per_credit null) and left out for users who have it', async () => {
    const life = await makePack(t.db, { lifetime: true, price: 29900, name: 'Lifetime' });
    const buyer = await makeBuyer(t.db);
    const listed = (await t.api('GET', 'credit_packs', { key: buyer.key })).body.data;
    expect(listed.find((p: any) => p.id === life.id)).toMatchObject({
      credits: null,
      unlimited: true,
      price: '299.00',
      price_per_credit: null,
    });
    const lifer = await makeBuyer(t.db, { lifetime: true });
    const theirs = (await t.api('GET', 'credit_packs', { key: lifer.key })).body.data;
    expect(theirs.some((p: any) => p.unlimited)).toBe(false);
    expect(theirs.length).toBe(listed.length - listed.filter((p: any) => p.unlimited).length);
  });

  it('Billing: a read-only key may list packs', async () => {
    const buyer = await makeBuyer(t.db, { permission: 'read' });
    expect((await t.api('GET', 'credit_packs', { key: buyer.key })).status).toBe(200);
  });
});

describe('POST /checkouts', () => {
  it('Billing: 201 pending checkout with the spec shape and a working checkout_url', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db, { credits: 25, price: 2000, name: 'Starter' });
    const res = await buy(buyer.key, { credit_pack_id: pack.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'checkout',
      id: expect.stringMatching(UUID),
      status: 'pending',
      credit_pack: {
        object: 'credit_pack',
        id: pack.id,
        name: 'Starter',
        description: null,
        credits: 25,
        unlimited: false,
        price: '20.00',
        currency: 'USD',
        price_per_credit: '0.80',
      },
      amount: '20.00',
      currency: 'USD',
      discount_code: null,
      checkout_url: expect.stringMatching(new RegExp(`^${t.baseUrl}/checkout/${res.body.id}\\?token=`)),
      completed_at: null,
      created_at: expect.any(String),
    });
    const page = await fetch(res.body.checkout_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('$20.00');
  });

  it('Billing: billing country required on the user (422 billing_details_required), nothing stored', async () => {
    const buyer = await createTestAccount(t.db);
    const pack = await makePack(t.db);
    const res = await buy(buyer.key, { credit_pack_id: pack.id });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('billing_details_required');
    const stored = await t.db
      .selectFrom('checkouts')
      .select('id')
      .where('user_id', '=', buyer.userId)
      .execute();
    expect(stored).toEqual([]);
  });

  it('Billing: an unknown credit pack is 404 not_found; a missing credit_pack_id is 422 missing_parameter', async () => {
    const buyer = await makeBuyer(t.db);
    const res = await buy(buyer.key, { credit_pack_id: 999999 });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const missing = await buy(buyer.key, {});
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe('missing_parameter');
  });

  it('Billing: buying the lifetime deal when the account has it is 422 already_purchased', async () => {
    const life = await makePack(t.db, { lifetime: true, price: 19900 });
    const lifer = await makeBuyer(t.db, { lifetime: true });
    const res = await buy(lifer.key, { credit_pack_id: life.id });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('already_purchased');
  });

  it('Billing: buying the lifetime deal twice: the second purchase is 422 already_purchased', async () => {
    const life = await makePack(t.db, { lifetime: true, price: 19900 });
    const buyer = await makeBuyer(t.db, { credits: 1 });
    const first = await buy(buyer.key, { credit_pack_id: life.id });
    expect(first.status).toBe(201);
    await pay(first.body.id);
    const creditsNow = await t.api('GET', 'credits', { key: buyer.key });
    expect(creditsNow.body).toMatchObject({ unlimited: true, available: null, can_send: true });
    const again = await buy(buyer.key, { credit_pack_id: life.id });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('already_purchased');
  });

  it('Billing: a percent code discounts credit_pack.price, price_per_credit and amount; the code is named', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db, { credits: 10, price: 1999 });
    const code = await makeDiscount(t.db, { code: `Save25-${pack.id}`, percentOff: 25 });
    const res = await buy(buyer.key, { credit_pack_id: pack.id, discount_code: code.code.toLowerCase() });
    expect(res.status).toBe(201);
    // 25% of 19.99 is 5.00 (rounded to the cent): 14.99.
    expect(res.body).toMatchObject({
      amount: '14.99',
      discount_code: code.code,
      credit_pack: { id: pack.id, price: '14.99', price_per_credit: '1.499', credits: 10 },
    });
  });

  it('Billing: a fixed-amount code for one pack applies to that pack, never below 0.00', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db, { credits: 5, price: 500 });
    const code = await makeDiscount(t.db, { amountOffCents: 150, creditPackId: pack.id });
    const res = await buy(buyer.key, { credit_pack_id: pack.id, discount_code: code.code });
    expect(res.body).toMatchObject({ amount: '3.50', credit_pack: { price: '3.50' } });
    const cheap = await makePack(t.db, { credits: 1, price: 100 });
    const big = await makeDiscount(t.db, { amountOffCents: 500 });
    const free = await buy(buyer.key, { credit_pack_id: cheap.id, discount_code: big.code });
    expect(free.body).toMatchObject({ amount: '0.00', credit_pack: { price: '0.00' } });
  });

  it('Billing: unknown, used-up, expired and other-pack codes are 422 invalid_discount_code, nothing stored', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db);
    const other = await makePack(t.db);
    const usedUp = await makeDiscount(t.db, { maxUses: 1 });
    expect((await buy(buyer.key, { credit_pack_id: pack.id, discount_code: usedUp.code })).status).toBe(201);
    const expired = await makeDiscount(t.db, { expiresAt: new Date(Date.now() + 60_000) });
    t.clock.now = new Date(Date.now() + 120_000);
    const forOther = await makeDiscount(t.db, { creditPackId: other.id });
    const before = await t.db
      .selectFrom('checkouts')
      .select('id')
      .where('user_id', '=', buyer.userId)
      .execute();
    try {
      for (const code of ['NOPE-NOT-A-CODE', usedUp.code, expired.code, forOther.code]) {
        const res = await buy(buyer.key, { credit_pack_id: pack.id, discount_code: code });
        expect(res.status, code).toBe(422);
        expect(res.body.error.code, code).toBe('invalid_discount_code');
      }
    } finally {
      t.clock.now = null;
    }
    const after = await t.db
      .selectFrom('checkouts')
      .select('id')
      .where('user_id', '=', buyer.userId)
      .execute();
    expect(after.length).toBe(before.length);
  });

  it('Billing: many checkouts racing for the last use of a code: exactly one gets it, the use is counted once', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db);
    const code = await makeDiscount(t.db, { maxUses: 3 });
    // Two uses taken; ten checkouts race for the last one.
    for (let i = 0; i < 2; i++) await buy(buyer.key, { credit_pack_id: pack.id, discount_code: code.code });
    const results = await Promise.all(
      Array.from({ length: 10 }, () => buy(buyer.key, { credit_pack_id: pack.id, discount_code: code.code })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(9);
    for (const r of refused) expect(r.body.error.code).toBe('invalid_discount_code');
    const row = await t.db
      .selectFrom('discount_codes')
      .select('uses')
      .where('id', '=', code.id)
      .executeTakeFirstOrThrow();
    expect(row.uses).toBe(3);
    const withCode = await t.db
      .selectFrom('checkouts')
      .select('id')
      .where('discount_code_id', '=', code.id)
      .execute();
    expect(withCode).toHaveLength(3);
  });

  it('Billing: a failed checkout gives its discount use back', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db);
    const code = await makeDiscount(t.db, { maxUses: 1 });
    const first = await buy(buyer.key, { credit_pack_id: pack.id, discount_code: code.code });
    expect((await buy(buyer.key, { credit_pack_id: pack.id, discount_code: code.code })).status).toBe(422);
    await answerAsOperator(t.db, first.body.id, 'failed', new Date());
    expect((await buy(buyer.key, { credit_pack_id: pack.id, discount_code: code.code })).status).toBe(201);
  });

  it('Idempotency: POST /checkouts with the same Idempotency-Key replays the first checkout', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db);
    const headers = { 'Idempotency-Key': crypto.randomUUID() };
    const first = await buy(buyer.key, { credit_pack_id: pack.id }, headers);
    const again = await buy(buyer.key, { credit_pack_id: pack.id }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const other = await buy(buyer.key, { credit_pack_id: pack.id });
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('Authentication 7: checkouts need a full-access key (403 read_only_api_key)', async () => {
    const buyer = await makeBuyer(t.db, { permission: 'read' });
    const res = await buy(buyer.key, { credit_pack_id: (await makePack(t.db)).id });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('read_only_api_key');
  });

  it('Roles (operations.md §5): billing is an admin action; a member gets 403 forbidden', async () => {
    const owner = await makeBuyer(t.db);
    const member = await makeColleague(t.db, owner, 'member');
    const res = await buy(member.key, { credit_pack_id: (await makePack(t.db)).id });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });
});

describe('GET /checkouts/{id}', () => {
  it('Billing: the user who started a checkout reads it; another user of the same account gets 404', async () => {
    const owner = await makeBuyer(t.db);
    const colleague = await makeColleague(t.db, owner);
    const started = await buy(owner.key, { credit_pack_id: (await makePack(t.db)).id });
    const mine = await t.api('GET', `checkouts/${started.body.id}`, { key: owner.key });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(started.body);
    const theirs = await t.api('GET', `checkouts/${started.body.id}`, { key: colleague.key });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('not_found');
    const readKey = await owner.newKey({ permission: 'read' });
    expect((await t.api('GET', `checkouts/${started.body.id}`, { key: readKey.key })).status).toBe(200);
  });

  it('Billing: a malformed or unknown checkout id is 404 not_found', async () => {
    const owner = await makeBuyer(t.db);
    for (const id of ['not-a-uuid', crypto.randomUUID()]) {
      const res = await t.api('GET', `checkouts/${id}`, { key: owner.key });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});

describe('Checkout status: payment confirmation', () => {
  it('Checkout status: confirmed -> completed, credits added, checkout_url null, completed_at set', async () => {
    const buyer = await makeBuyer(t.db, { credits: 2 });
    const pack = await makePack(t.db, { credits: 40, price: 3000 });
    const started = await buy(buyer.key, { credit_pack_id: pack.id });
    await pay(started.body.id);
    const res = await t.api('GET', `checkouts/${started.body.id}`, { key: buyer.key });
    expect(res.body).toMatchObject({
      status: 'completed',
      checkout_url: null,
      completed_at: expect.any(String),
    });
    expect(await credits(buyer.accountId)).toBe(42);
  });

  it('Billing: credits are added exactly once, however many confirmations arrive (twice, then ten at once)', async () => {
    const buyer = await makeBuyer(t.db);
    const pack = await makePack(t.db, { credits: 7 });
    const started = await buy(buyer.key, { credit_pack_id: pack.id });
    const by = { actorType: 'payment_provider', actorId: 'simulated' };
    const first = await settleCheckout(t.db, started.body.id, 'paid', by, new Date());
    const second = await settleCheckout(t.db, started.body.id, 'paid', by, new Date());
    expect([first.changed, second.changed]).toEqual([true, false]);
    const other = await buy(buyer.key, { credit_pack_id: pack.id });
    const racing = await Promise.all(
      Array.from({ length: 10 }, () => settleCheckout(t.db, other.body.id, 'paid', by, new Date())),
    );
    expect(racing.filter((r) => r.changed)).toHaveLength(1);
    expect(await credits(buyer.accountId)).toBe(14);
    const ledger = await t.db
      .selectFrom('credit_ledger')
      .select(['delta', 'checkout_id'])
      .where('account_id', '=', buyer.accountId)
      .where('reason', '=', 'purchase')
      .execute();
    expect(ledger).toHaveLength(2);
  });

  it('Checkout status: a failed or canceled payment marks the checkout failed; no credits; a late confirmation changes nothing', async () => {
    const buyer = await makeBuyer(t.db, { credits: 1 });
    const started = await buy(buyer.key, { credit_pack_id: (await makePack(t.db)).id });
    await answerAsOperator(t.db, started.body.id, 'failed', new Date());
    const res = await t.api('GET', `checkouts/${started.body.id}`, { key: buyer.key });
    expect(res.body).toMatchObject({ status: 'failed', checkout_url: null, completed_at: null });
    const late = await settleCheckout(
      t.db,
      started.body.id,
      'paid',
      { actorType: 'payment_provider', actorId: 'simulated' },
      new Date(),
    );
    expect(late.changed).toBe(false);
    expect(late.checkout.status).toBe('failed');
    expect(await credits(buyer.accountId)).toBe(1);
  });

  it('Events and audit: every checkout state change is recorded', async () => {
    const buyer = await makeBuyer(t.db);
    const started = await buy(buyer.key, { credit_pack_id: (await makePack(t.db)).id });
    await pay(started.body.id);
    await pay(started.body.id);
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['type', 'actor_type', 'api_key_id', 'environment'])
      .where('checkout_id', '=', started.body.id)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { type: 'checkout.created', actor_type: 'api_key', api_key_id: buyer.keyId, environment: 'live' },
      { type: 'checkout.completed', actor_type: 'operator', api_key_id: null, environment: 'live' },
    ]);
  });

  it('Authentication 3: a test-key checkout lives on the test side, is simulated and adds no credits', async () => {
    const buyer = await makeBuyer(t.db, { credits: 3 });
    const testKey = await buyer.newKey({ environment: 'test' });
    const started = await buy(testKey.key, { credit_pack_id: (await makePack(t.db, { credits: 50 })).id });
    expect(started.status).toBe(201);
    await pay(started.body.id);
    expect((await t.api('GET', `checkouts/${started.body.id}`, { key: testKey.key })).body.status).toBe(
      'completed',
    );
    expect((await t.api('GET', `checkouts/${started.body.id}`, { key: buyer.key })).status).toBe(404);
    expect(await credits(buyer.accountId)).toBe(3);
  });
});

describe('OpenAPI', () => {
  it('Billing endpoints are in the OpenAPI document (tag Billing, 201 for POST /checkouts, Idempotency-Key)', async () => {
    const doc = (await t.api('GET', 'openapi.json')).body;
    expect(doc.paths['/credit_packs'].get.tags).toEqual(['Billing']);
    expect(doc.paths['/checkouts/{id}'].get.responses['200']).toBeDefined();
    const post = doc.paths['/checkouts'].post;
    expect(post.responses['201']).toBeDefined();
    expect(post.responses['502']).toBeDefined();
    expect(post.parameters.map((p: any) => p.name)).toContain('Idempotency-Key');
  });
});
