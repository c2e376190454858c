import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../connection.ts';

// The credit ledger: grants and purchases add, a template's first completed document consumes one
// (the unique index credit_ledger_consume_once keeps that to exactly one row per template).

/** What the credit rules need of an account: its plan, overdraft limit, balance, and a template's consumption. */
export interface CreditsRow {
  plan: 'credits' | 'lifetime';
  overdraft_limit: number;
  /** The sum of the ledger. */
  total: string | number | null;
  /** Whether a document from the given template already consumed its credit. */
  consumed: boolean;
}

/**
 * The credits row of `accountId` as one JSON column of a larger statement (the send reads it with
 * its template): null when the account does not exist.
 */
export function creditsColumn(
  accountId: number,
  templateId: RawBuilder<unknown> | null,
): RawBuilder<CreditsRow | null> {
  const consumed = templateId
    ? sql`exists (select 1 from credit_ledger l where l.account_id = a.id and l.template_id = ${templateId} and l.reason = 'consume')`
    : sql`false`;
  return sql<CreditsRow | null>`(select json_build_object(
    'plan', a.plan,
    'overdraft_limit', a.overdraft_limit,
    'total', (select coalesce(sum(l.delta), 0) from credit_ledger l where l.account_id = a.id),
    'consumed', ${consumed}) from accounts a where a.id = ${accountId})`;
}

/** The account's credits row (and whether `templateId` already consumed its credit): one statement. */
export async function findCredits(
  db: Executor,
  accountId: number,
  templateId: number | null = null,
): Promise<CreditsRow | undefined> {
  const row = await db
    .selectNoFrom(creditsColumn(accountId, templateId === null ? null : sql.val(templateId)).as('credits'))
    .executeTakeFirstOrThrow();
  return row.credits ?? undefined;
}

/** Adds a ledger entry (a grant when positive, an adjustment when negative). */
export async function insertCreditGrant(
  db: Executor,
  opts: { accountId: number; credits: number; note: string | null; now: Date },
): Promise<void> {
  await db
    .insertInto('credit_ledger')
    .values({
      account_id: opts.accountId,
      delta: opts.credits,
      reason: opts.credits > 0 ? 'grant' : 'adjust',
      note: opts.note,
      created_at: opts.now,
    })
    .execute();
}
