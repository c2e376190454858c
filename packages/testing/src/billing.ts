import {
  createCreditPack,
  createDiscountCode,
  createUser,
  issueApiKey,
  type NewDiscountCode,
  updateUser,
} from '@esign/core/operator';
import type { UserRole } from '@esign/db';
import { createTestAccount, type TestAccount } from './accounts.ts';
import type { TestDatabase } from './db.ts';

type Db = TestDatabase['db'];

let packCounter = 0;
let codeCounter = 0;

/** A credit pack made through the same service as `esign pack create`. */
export async function makePack(
  db: Db,
  opts: { credits?: number; lifetime?: boolean; price?: number; name?: string; description?: string } = {},
) {
  packCounter += 1;
  return createCreditPack(
    db,
    {
      name: opts.name ?? `Pack ${packCounter}`,
      description: opts.description ?? null,
      credits: opts.lifetime ? null : (opts.credits ?? 10),
      lifetime: opts.lifetime ?? false,
      priceCents: opts.price ?? 1000,
    },
    new Date(),
  );
}

/** A discount code made through the same service as `esign discount create`. */
export async function makeDiscount(db: Db, opts: Partial<NewDiscountCode> = {}) {
  codeCounter += 1;
  const kind = opts.amountOffCents !== undefined ? {} : { percentOff: opts.percentOff ?? 20 };
  return createDiscountCode(
    db,
    { code: opts.code ?? `CODE${codeCounter}X${Date.now() % 100000}`, ...kind, ...opts },
    new Date(),
  );
}

/** An account whose admin has a billing country (ready to buy). */
export function makeBuyer(db: Db, opts: Parameters<typeof createTestAccount>[1] = {}): Promise<TestAccount> {
  return createTestAccount(db, { billingCountry: 'US', ...opts });
}

/** Another user of the same account, with a live full-access key. */
export async function makeColleague(db: Db, owner: TestAccount, role: UserRole = 'admin') {
  const user = await createUser(db, {
    accountId: owner.accountId,
    email: `colleague-${Math.random().toString(36).slice(2, 10)}@example.com`,
    role,
  });
  await updateUser(db, user.email, { billingCountry: 'DE', now: new Date() });
  const key = await issueApiKey(db, { userId: user.id, environment: 'live', permission: 'full' });
  return { userId: user.id, email: user.email, key: key.key, keyId: key.id };
}
