import { createAccount, issueApiKey } from '@esign/core/operator';
import type { Environment, Permission } from '@esign/db';
import type { TestDatabase } from './db.ts';

let counter = 0;

export interface TestAccount {
  accountId: number;
  userId: number;
  email: string;
  key: string;
  keyId: number;
  /** Issues another key for the same user. */
  newKey(opts?: {
    environment?: Environment;
    permission?: Permission;
    expiresAt?: Date | null;
  }): Promise<{ key: string; id: number }>;
}

/** An account with an admin user and a live full-access key, made through the production services. */
export async function createTestAccount(
  db: TestDatabase['db'],
  opts: {
    credits?: number;
    lifetime?: boolean;
    overdraft?: number;
    billingCountry?: string;
    environment?: Environment;
    permission?: Permission;
  } = {},
): Promise<TestAccount> {
  counter += 1;
  const email = `user${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { account, user } = await db.transaction().execute((tx) =>
    createAccount(
      tx,
      {
        email,
        name: `User ${counter}`,
        credits: opts.credits,
        lifetime: opts.lifetime,
        overdraft: opts.overdraft,
        billingCountry: opts.billingCountry,
      },
      new Date(),
    ),
  );
  const newKey = async (
    k: { environment?: Environment; permission?: Permission; expiresAt?: Date | null } = {},
  ) => {
    const issued = await issueApiKey(db, {
      userId: user.id,
      environment: k.environment ?? 'live',
      permission: k.permission ?? 'full',
      expiresAt: k.expiresAt ?? null,
    });
    return { key: issued.key, id: issued.id };
  };
  const first = await newKey({ environment: opts.environment, permission: opts.permission });
  return { accountId: account.id, userId: user.id, email, key: first.key, keyId: first.id, newKey };
}
