import type { Executor } from '@esign/db';
import { type CreditsRow, findCredits, insertCreditGrant } from '@esign/db/queries/credits';
import { CoreError } from '../errors.ts';

export interface CreditsState {
  unlimited: boolean;
  available: number | null;
  overdraft_limit: number;
  can_send: boolean;
  billing: string;
}

/**
 * The account's plan and overdraft limit, its balance (the sum of the ledger: grants and purchases
 * add, completed documents consume) and, given a template, whether a document from it already
 * consumed its credit: one statement.
 */
export async function readCredits(db: Executor, accountId: number, templateId: number | null = null) {
  const row = await findCredits(db, accountId, templateId);
  if (!row) throw new CoreError('not_found', `Account ${accountId} was not found`);
  return creditsDecision(row);
}

/** What a credits row means: the Credits object, and whether the template's credit is already used. */
export function creditsDecision(row: CreditsRow): { state: CreditsState; consumed: boolean } {
  return { state: creditsState(row), consumed: row.consumed };
}

/** The balance is the sum of the ledger: grants and purchases add, completed documents consume. */
export async function getCredits(db: Executor, accountId: number): Promise<CreditsState> {
  return (await readCredits(db, accountId)).state;
}

function creditsState(account: {
  plan: string;
  overdraft_limit: number;
  total: string | number | bigint | null;
}): CreditsState {
  if (account.plan === 'lifetime') {
    return {
      unlimited: true,
      available: null,
      overdraft_limit: account.overdraft_limit,
      can_send: true,
      billing: 'Lifetime plan: unlimited signed documents',
    };
  }
  const available = Number(account.total ?? 0);
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
  { credits, note, now }: { credits: number; note: string | null; now: Date },
) {
  if (!Number.isInteger(credits) || credits === 0) {
    throw new CoreError('invalid_parameter', 'credits must be a non-zero integer');
  }
  await insertCreditGrant(db, { accountId, credits, note, now });
  return getCredits(db, accountId);
}
