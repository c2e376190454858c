import type { Executor } from '../connection.ts';
import type { FirstFactor } from '../schema-sign-in.ts';

// The second step at sign-in (migration 2026_12_07_0501): authenticator-app seeds (sealed by the
// caller), recovery codes and sign-in challenges (by hashes the caller computes).

export interface TotpRow {
  user_id: number;
  secret_sealed: string;
  confirmed_at: Date | null;
  last_used_step: number | null;
}

export async function findTotp(db: Executor, userId: number): Promise<TotpRow | undefined> {
  return db
    .selectFrom('user_totp')
    .select(['user_id', 'secret_sealed', 'confirmed_at', 'last_used_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Stores a new seed waiting for its first code; false when the user already has a confirmed one. */
export async function savePendingTotp(
  db: Executor,
  values: { userId: number; secretSealed: string; now: Date },
): Promise<boolean> {
  const row = await db
    .insertInto('user_totp')
    .values({ user_id: values.userId, secret_sealed: values.secretSealed, created_at: values.now })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret_sealed: values.secretSealed, last_used_step: null })
        .where('user_totp.confirmed_at', 'is', null),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Accepts a code of time step `step`: only when the seed is in the state asked for (confirmed, or
 * waiting for its first code) and no code of this step or a later one was accepted before
 * (atomic: of two concurrent uses of one code, one wins). Confirms a waiting seed.
 */
export async function acceptTotpStep(
  db: Executor,
  values: { userId: number; step: number; confirmed: boolean; now: Date },
): Promise<boolean> {
  let q = db
    .updateTable('user_totp')
    .set((eb) => ({
      last_used_step: values.step,
      confirmed_at: eb.fn.coalesce('confirmed_at', eb.val(values.now)),
    }))
    .where('user_id', '=', values.userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', values.step)]));
  q = q.where('confirmed_at', values.confirmed ? 'is not' : 'is', null);
  const row = await q.returning('user_id').executeTakeFirst();
  return row !== undefined;
}

/** Removes the user's seed and recovery codes; true when there was a seed. */
export async function deleteTotp(db: Executor, userId: number): Promise<boolean> {
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
  const row = await db
    .deleteFrom('user_totp')
    .where('user_id', '=', userId)
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces the user's recovery codes by these hashes. */
export async function replaceRecoveryCodes(
  db: Executor,
  values: { userId: number; hashes: string[]; now: Date },
): Promise<void> {
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', values.userId).execute();
  await db
    .insertInto('user_recovery_codes')
    .values(values.hashes.map((h) => ({ user_id: values.userId, code_hash: h, created_at: values.now })))
    .execute();
}

/** Spends one unused recovery code (atomic); false when there is none by that hash. */
export async function useRecoveryCode(
  db: Executor,
  values: { userId: number; codeHash: string; now: Date },
): Promise<boolean> {
  const row = await db
    .updateTable('user_recovery_codes')
    .set({ used_at: values.now })
    .where('user_id', '=', values.userId)
    .where('code_hash', '=', values.codeHash)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countRecoveryCodesLeft(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSignInChallenge(
  db: Executor,
  values: { tokenHash: string; userId: number; firstFactor: FirstFactor; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('sign_in_challenges')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      first_factor: values.firstFactor,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

export interface SignInChallengeRow {
  id: number;
  user_id: number;
  first_factor: FirstFactor;
  attempts: number;
}

/** A challenge that is unused, unexpired at `now` and tried fewer than `maxAttempts` times. */
export async function findLiveSignInChallenge(
  db: Executor,
  tokenHash: string,
  opts: { now: Date; maxAttempts: number },
): Promise<SignInChallengeRow | undefined> {
  return db
    .selectFrom('sign_in_challenges')
    .select(['id', 'user_id', 'first_factor', 'attempts'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', opts.now)
    .where('attempts', '<', opts.maxAttempts)
    .executeTakeFirst();
}

export async function countSignInChallengeFailure(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Marks a challenge used (atomic); false when it already was. */
export async function useSignInChallenge(db: Executor, id: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('sign_in_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Audit entries of a type recorded for a user (as its actor) since a time: the sliding window of failures. */
export async function countUserAuditSince(
  db: Executor,
  values: { userId: number; type: string; since: Date },
): Promise<number> {
  const row = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('actor_id', '=', String(values.userId))
    .where('actor_type', '=', 'user')
    .where('type', '=', values.type)
    .where('created_at', '>', values.since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
