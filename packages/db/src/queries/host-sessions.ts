import type { Executor, Tx } from '../connection.ts';

// Issue 47, in-person signing: a dashboard user hosts a signer on their own device (the
// signer_host_sessions table, migration 2026_12_07_1101).

export interface HostSession {
  signer_id: number;
  host_user_id: number;
  host_name: string | null;
  host_email: string;
  user_agent: string | null;
  created_at: Date;
}

export async function insertHostSession(
  tx: Tx,
  row: {
    idHash: string;
    signerId: number;
    hostUserId: number;
    userAgent: string | null;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await tx
    .insertInto('signer_host_sessions')
    .values({
      id_hash: row.idHash,
      signer_id: row.signerId,
      host_user_id: row.hostUserId,
      user_agent: row.userAgent,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** The live (unused, unexpired) host session of this signer with this cookie's hash, with its host. */
export async function findLiveHostSession(
  db: Executor,
  o: { idHash: string; signerId: number; now: Date },
): Promise<HostSession | undefined> {
  return db
    .selectFrom('signer_host_sessions as h')
    .innerJoin('users as u', 'u.id', 'h.host_user_id')
    .select(['h.signer_id', 'h.host_user_id', 'u.name as host_name', 'u.email as host_email'])
    .select(['h.user_agent', 'h.created_at'])
    .where('h.id_hash', '=', o.idHash)
    .where('h.signer_id', '=', o.signerId)
    .where('h.used_at', 'is', null)
    .where('h.expires_at', '>', o.now)
    .executeTakeFirst();
}

/** The signer finished: every host session of theirs is spent (the hosted page cannot reopen). */
export async function spendHostSessions(tx: Tx, signerId: number, now: Date): Promise<void> {
  await tx
    .updateTable('signer_host_sessions')
    .set({ used_at: now })
    .where('signer_id', '=', signerId)
    .where('used_at', 'is', null)
    .execute();
}
