import type { Executor, Tx } from '../connection.ts';

// The origins an account lets frame its signing pages (`embed_origins`).

export async function listEmbedOrigins(db: Executor, accountId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('embed_origins')
    .select('origin')
    .where('account_id', '=', accountId)
    .orderBy('origin')
    .execute();
  return rows.map((r) => r.origin);
}

/** Replaces the account's whole list (two statements: the caller's transaction makes them one change). */
export async function replaceEmbedOrigins(
  tx: Tx,
  accountId: number,
  opts: { origins: readonly string[]; now: Date },
): Promise<void> {
  await tx.deleteFrom('embed_origins').where('account_id', '=', accountId).execute();
  if (opts.origins.length)
    await tx
      .insertInto('embed_origins')
      .values(opts.origins.map((origin) => ({ account_id: accountId, origin, created_at: opts.now })))
      .execute();
}

/** The account and `source` of the signature request whose signer holds this token hash. */
export async function findRequestSourceBySignerToken(
  db: Executor,
  tokenHash: string,
): Promise<{ account_id: number; source: string } | undefined> {
  return db
    .selectFrom('signers')
    .innerJoin('signature_requests', 'signature_requests.id', 'signers.signature_request_id')
    .select(['signature_requests.account_id', 'signature_requests.source'])
    .where('signers.token_hash', '=', tokenHash)
    .executeTakeFirst();
}
