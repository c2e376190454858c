import { deleteUserPasskeys } from '@esign/db/queries/passkeys';
import { findAccountSecondStepRule, setAccountSecondStepRule } from '@esign/db/queries/sessions';
import { setAccountSsoRequired } from '@esign/db/queries/sso';
import { deleteTotp } from '@esign/db/queries/two-step';
import type { Actor } from '../../context.ts';
import { requireUserByEmail } from '../accounts.ts';
import { recordAudit } from '../audit.ts';
import type { ServiceContext } from '../service-context.ts';
import { revokeUserSessions } from './sessions.ts';

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

/**
 * The operator's way back in for a locked-out user (`esign user reset-2fa`): removes their
 * authenticator app and recovery codes, and ends their sessions. Recorded in the audit log as done
 * by the operator. With the account rule on, the next sign-in leads them through setting one up.
 */
export async function resetUserSecondStep(
  sc: Pick<ServiceContext, 'db' | 'now'>,
  email: string,
): Promise<{
  user: { id: number; email: string };
  second_step_removed: boolean;
  passkeys_removed: number;
  signed_out_sessions: number;
}> {
  const now = sc.now();
  const user = await requireUserByEmail(sc.db, email);
  return sc.db.transaction().execute(async (tx) => {
    const removed = await deleteTotp(tx, user.id);
    // Passkeys too (issue 45 item 2): a lost phone may have held both the app and the passkey.
    const passkeys = await deleteUserPasskeys(tx, user.id);
    if (passkeys > 0) {
      await recordAudit(
        tx,
        { accountId: user.account_id, environment: 'live' },
        {
          type: 'user.passkey_removed',
          by: { kind: 'system' },
          data: { user_id: user.id, by: 'operator', count: passkeys },
          now,
        },
      );
    }
    const signedOut = await revokeUserSessions(tx, user.id, { keepId: null, now });
    if (removed) {
      await recordAudit(
        tx,
        { accountId: user.account_id, environment: 'live' },
        {
          type: 'user.totp_removed',
          by: { kind: 'system' },
          data: { user_id: user.id, by: 'operator' },
          now,
        },
      );
    }
    return {
      user: { id: user.id, email: user.email },
      second_step_removed: removed || passkeys > 0,
      passkeys_removed: passkeys,
      signed_out_sessions: signedOut,
    };
  });
}

/**
 * The operator's way back in when an account requires single sign-on and its provider is down
 * or misconfigured (`esign account sso-optional --email ADMIN`): everyone may sign in without it
 * again, until an admin requires it anew. Recorded in the audit log as done by the operator.
 */
export async function makeSsoOptional(
  sc: Pick<ServiceContext, 'db' | 'now'>,
  email: string,
): Promise<{ account_id: number; sso_required: false; changed: boolean }> {
  const user = await requireUserByEmail(sc.db, email);
  return sc.db.transaction().execute(async (tx) => {
    const changed = await setAccountSsoRequired(tx, user.account_id, false);
    if (changed) {
      await recordAudit(
        tx,
        { accountId: user.account_id, environment: 'live' },
        { type: 'account.sso_optional', by: { kind: 'system' }, data: { by: 'operator' }, now: sc.now() },
      );
    }
    return { account_id: user.account_id, sso_required: false as const, changed };
  });
}
