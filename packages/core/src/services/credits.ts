import type { Executor } from '@esign/db';
import { CoreError } from '../errors.ts';

export interface CreditsState {
  unlimited: boolean;
  available: number | null;
  overdraft_limit: number;
  can_send: boolean;
  billing: string;
}

/** The balance is the sum of the ledger: grants and purchases add, completed documents consume. */
export async function getCredits(db: Executor, accountId: number): Promise<CreditsState> {
  const account = await db
    .selectFrom('accounts')
    .select(['plan', 'overdraft_limit'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account) throw new CoreError('not_found', `Account ${accountId} was not found`);
  if (account.plan === 'lifetime') {
    return {
      unlimited: true,
      available: null,
      overdraft_limit: account.overdraft_limit,
      can_send: true,
      billing: 'Lifetime plan: unlimited signed documents',
    };
  }
  const { total } = await db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)).as('total'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  const available = Number(total);
  const canSend = available > account.overdraft_limit;
  const unit = Math.abs(available) === 1 ? 'credit' : 'credits';
  return {
    unlimited: false,
    available,
    overdraft_limit: account.overdraft_limit,
    can_send: canSend,
    billing: `${available} ${unit} available; one credit is used the first time a template is signed${
      account.overdraft_limit < 0 ? `; sending is blocked at ${account.overdraft_limit}` : ''
    }`,
  };
}

export async function grantCredits(
  db: Executor,
  accountId: number,
  credits: number,
  note: string | null,
  now: Date,
) {
  if (!Number.isInteger(credits) || credits === 0) {
    throw new CoreError('invalid_parameter', 'credits must be a non-zero integer');
  }
  await db
    .insertInto('credit_ledger')
    .values({
      account_id: accountId,
      delta: credits,
      reason: credits > 0 ? 'grant' : 'adjust',
      note,
      created_at: now,
    })
    .execute();
  return getCredits(db, accountId);
}
