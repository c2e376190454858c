import type { Insertable, Updateable } from 'kysely';
import { type Executor, preparedInsert, type Tx } from '../connection.ts';
import type { Database, SignerRow } from '../schema.ts';
import { insertInChunks } from './chunks.ts';

// Signers: written with their request, read in signing order.

export type SignerInsert = Insertable<Database['signers']>;

/** Bind parameters of one signer row (every column a send writes), for `insertInChunks`. */
const SIGNER_PARAMETERS = 22;

const insertSignerChunk = preparedInsert('esign_insert_signers', (db, rows: SignerInsert[]) =>
  db.insertInto('signers').values(rows).returningAll(),
);

/**
 * Writes the signers (of one or many requests) in as few statements as the parameter limit allows;
 * rows in input order. A send's few signers run prepared (preparedInsert).
 */
export async function insertSigners(tx: Tx, rows: SignerInsert[]): Promise<SignerRow[]> {
  return insertInChunks(rows, SIGNER_PARAMETERS, (chunk) => insertSignerChunk(tx, chunk));
}

/** The signers of several requests in one statement, each request's in signing order. */
export async function findSignersOf(db: Executor, requestIds: number[]): Promise<SignerRow[]> {
  if (requestIds.length === 0) return [];
  return db
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', 'in', requestIds)
    .orderBy('signature_request_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Notes that an email was just queued for the signer. */
export async function markSignerEmailed(db: Executor, signerId: number, now: Date): Promise<void> {
  await db.updateTable('signers').set({ last_emailed_at: now }).where('id', '=', signerId).execute();
}

/** A request's signers in these statuses who can be reached: with an email or a phone. */
export async function findSignersWithContact(
  db: Executor,
  requestId: number,
  statuses: readonly SignerRow['status'][],
): Promise<SignerRow[]> {
  return db
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', requestId)
    .where('status', 'in', [...statuses])
    .where((eb) => eb.or([eb('email', 'is not', null), eb('phone', 'is not', null)]))
    .orderBy('position')
    .execute();
}

export type SignerUpdate = Updateable<Database['signers']>;

/** Changes the signer; returns it as it is now. */
export async function updateSigner(tx: Tx, id: number, set: SignerUpdate): Promise<SignerRow> {
  return tx.updateTable('signers').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}
