import type { Executor } from '../connection.ts';

// Passkeys (migration 2026_12_07_1201): a user's WebAuthn credentials and the challenges waiting
// for the browser's answer (by the SHA-256 of a ticket the caller computes).

export interface PasskeyRow {
  id: number;
  user_id: number;
  credential_id: string;
  public_key: Buffer;
  counter: number;
  transports: string[];
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = [
  'id',
  'user_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'device_type',
  'backed_up',
  'name',
  'created_at',
  'last_used_at',
] as const;

const toRow = <T extends { counter: number | string; id: number | string }>(r: T) => ({
  ...r,
  id: Number(r.id),
  counter: Number(r.counter),
});

export async function listPasskeys(db: Executor, userId: number): Promise<PasskeyRow[]> {
  const rows = await db
    .selectFrom('user_passkeys')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toRow);
}

export async function countPasskeys(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('user_passkeys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findPasskeyByCredentialId(
  db: Executor,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const row = await db
    .selectFrom('user_passkeys')
    .select(COLUMNS)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  return row && toRow(row);
}

export async function insertPasskey(
  db: Executor,
  values: {
    userId: number;
    credentialId: string;
    publicKey: Buffer;
    counter: number;
    transports: string[];
    deviceType: string;
    backedUp: boolean;
    name: string;
    now: Date;
  },
): Promise<number> {
  const row = await db
    .insertInto('user_passkeys')
    .values({
      user_id: values.userId,
      credential_id: values.credentialId,
      public_key: values.publicKey,
      counter: values.counter,
      transports: values.transports,
      device_type: values.deviceType,
      backed_up: values.backedUp,
      name: values.name,
      created_at: values.now,
    })
    .onConflict((oc) => oc.column('credential_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : 0;
}

/**
 * Records a use: the new signature counter, only when it is the counter read before (atomic: of
 * two concurrent uses of one assertion, one wins). False when another use came first.
 */
export async function usePasskey(
  db: Executor,
  values: { id: number; oldCounter: number; newCounter: number; now: Date },
): Promise<boolean> {
  const row = await db
    .updateTable('user_passkeys')
    .set({ counter: values.newCounter, last_used_at: values.now })
    .where('id', '=', values.id)
    .where('counter', '=', values.oldCounter)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function renamePasskey(
  db: Executor,
  values: { userId: number; id: number; name: string },
): Promise<boolean> {
  const row = await db
    .updateTable('user_passkeys')
    .set({ name: values.name })
    .where('id', '=', values.id)
    .where('user_id', '=', values.userId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deletePasskey(
  db: Executor,
  values: { userId: number; id: number },
): Promise<{ name: string } | undefined> {
  return db
    .deleteFrom('user_passkeys')
    .where('id', '=', values.id)
    .where('user_id', '=', values.userId)
    .returning('name')
    .executeTakeFirst();
}

export async function deleteUserPasskeys(db: Executor, userId: number): Promise<number> {
  const rows = await db.deleteFrom('user_passkeys').where('user_id', '=', userId).returning('id').execute();
  return rows.length;
}

export async function insertWebauthnChallenge(
  db: Executor,
  values: {
    ticketHash: string;
    purpose: 'register' | 'sign_in';
    userId: number | null;
    challenge: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('webauthn_challenges')
    .values({
      ticket_hash: values.ticketHash,
      purpose: values.purpose,
      user_id: values.userId,
      challenge: values.challenge,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

/** Spends a live challenge (atomic, once): its user and challenge, or undefined. */
export async function useWebauthnChallenge(
  db: Executor,
  values: { ticketHash: string; purpose: 'register' | 'sign_in'; now: Date },
): Promise<{ user_id: number | null; challenge: string } | undefined> {
  return db
    .updateTable('webauthn_challenges')
    .set({ used_at: values.now })
    .where('ticket_hash', '=', values.ticketHash)
    .where('purpose', '=', values.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', values.now)
    .returning(['user_id', 'challenge'])
    .executeTakeFirst();
}

/** Gives a sign-in waiting for its second step a WebAuthn challenge (a passkey as the second step). */
export async function setSignInChallengeWebauthn(
  db: Executor,
  values: { id: number; challenge: string },
): Promise<void> {
  await db
    .updateTable('sign_in_challenges')
    .set({ webauthn_challenge: values.challenge })
    .where('id', '=', values.id)
    .execute();
}

export async function findSignInChallengeWebauthn(db: Executor, id: number): Promise<string | null> {
  const row = await db
    .selectFrom('sign_in_challenges')
    .select('webauthn_challenge')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.webauthn_challenge ?? null;
}
