import type { Db } from '@esign/db';
import { makePack } from '@esign/testing/billing';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountWithPassword,
  codeOf,
  dashboardConfig,
  type Harness,
  harness,
  signIn,
} from './dashboard-helpers.ts';

// The dashboard's Billing page lists the signed-in admin's latest checkouts through
// `billing.listRecentCheckouts` (operations.md §5: billing is an admin's; roles enforced in core).

let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date() };

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  h = harness(db, dashboardConfig(), clock);
});
afterAll(async () => tdb.drop());

async function buyer() {
  const acct = await accountWithPassword(db);
  const s = await signIn(h, acct.admin.email, acct.admin.password);
  const admin = h.caller(s.browser, s.actor);
  await admin.sessions.updateProfile({ billing_country: 'US' });
  return { acct, admin };
}

describe('billing.listRecentCheckouts (the dashboard Billing page)', () => {
  it('lists the admin’s own checkouts newest first, with status, pack, amount and date; limit is kept', async () => {
    const { admin } = await buyer();
    const small = await makePack(db, { credits: 5, price: 500 });
    const big = await makePack(db, { credits: 50, price: 4000 });
    const first = await admin.billing.createCheckout({ credit_pack_id: small.id });
    clock.now = new Date(clock.now.getTime() + 1000);
    const second = await admin.billing.createCheckout({ credit_pack_id: big.id });
    const list = await admin.billing.listRecentCheckouts({});
    expect(list.object).toBe('list');
    expect(list.data.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(list.data[0]).toMatchObject({
      status: 'pending',
      amount: '40.00',
      currency: 'USD',
      credit_pack: { id: big.id, credits: 50 },
    });
    expect(list.data[0]!.created_at).toBe(clock.now.toISOString());
    expect((await admin.billing.listRecentCheckouts({ limit: 1 })).data.map((c) => c.id)).toEqual([
      second.id,
    ]);
  });

  it('limit above 50 is refused (422 invalid_parameter), below 1 too', async () => {
    const { admin } = await buyer();
    expect(await codeOf(admin.billing.listRecentCheckouts({ limit: 51 }))).toBe('invalid_parameter');
    expect(await codeOf(admin.billing.listRecentCheckouts({ limit: 0 }))).toBe('invalid_parameter');
  });

  it('a member or a viewer gets 403 forbidden (billing is admin only)', async () => {
    const { acct } = await buyer();
    for (const role of ['member', 'viewer'] as const) {
      const u = await acct.addUser(role);
      const s = await signIn(h, u.email, u.password);
      const caller = h.caller(s.browser, s.actor);
      expect(await codeOf(caller.billing.listRecentCheckouts({}))).toBe('forbidden');
    }
  });

  it('another account’s checkouts are not listed, and reading one by id is 404 not_found', async () => {
    const mine = await buyer();
    const theirs = await buyer();
    const pack = await makePack(db);
    const other = await theirs.admin.billing.createCheckout({ credit_pack_id: pack.id });
    expect((await mine.admin.billing.listRecentCheckouts({})).data).toEqual([]);
    expect(await codeOf(mine.admin.billing.getCheckout({ id: other.id }))).toBe('not_found');
  });

  it('a colleague admin does not see the checkouts another admin started', async () => {
    const { acct, admin } = await buyer();
    await admin.billing.createCheckout({ credit_pack_id: (await makePack(db)).id });
    const colleague = await acct.addUser('admin');
    const s = await signIn(h, colleague.email, colleague.password);
    expect((await h.caller(s.browser, s.actor).billing.listRecentCheckouts({})).data).toEqual([]);
  });
});
