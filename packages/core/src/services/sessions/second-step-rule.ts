import { findAccountSecondStepRule, setAccountSecondStepRule } from '@esign/db/queries/sessions';
import type { Actor } from '../../context.ts';
import { recordAudit } from '../audit.ts';
import type { ServiceContext } from '../service-context.ts';

// Issue 45 item 2: an account can require a second step of every member. Enforced where sessions
// are read (sessions.ts, authenticateSession): a session opened without one may only set one up,
// in the dashboard; the OAuth consent page and every other route see no session.

export async function accountSecondStepRule(
  sc: ServiceContext,
  accountId: number,
): Promise<{ required: boolean }> {
  return { required: await findAccountSecondStepRule(sc.db, accountId) };
}

/** Turns the rule on or off (admins); recorded in the audit log. */
export async function setSecondStepRule(
  sc: ServiceContext,
  actor: Actor,
  required: boolean,
): Promise<{ required: boolean }> {
  const now = sc.now();
  await sc.db.transaction().execute(async (tx) => {
    await setAccountSecondStepRule(tx, actor.accountId, required);
    await recordAudit(
      tx,
      { accountId: actor.accountId, environment: 'live' },
      {
        type: required ? 'account.second_step_required' : 'account.second_step_optional',
        by: { kind: 'actor', actor },
        now,
      },
    );
  });
  return { required };
}
