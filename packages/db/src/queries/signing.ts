import type { Executor, Tx } from '../connection.ts';
import { json } from '../connection.ts';
import type { SignatureRequestRow, SignerRow, SignerWho } from '../schema.ts';

// The signer's flow on the signing page (packages/core/src/services/signing: open, codes, values,
// complete): the reads that resolve a signing link, email-code sessions, and the signer's and
// request's changes as the signer goes. The token is the access (no account scope): the signer
// found by its hash decides which request is read.

// ---- Resolving a signing link ------------------------------------------------------------------

export async function findSignerByTokenHash(db: Executor, tokenHash: string): Promise<SignerRow | undefined> {
  return db.selectFrom('signers').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The signer's request (a signer always has one). */
export async function getSigningRequest(db: Executor, id: number): Promise<SignatureRequestRow> {
  return db.selectFrom('signature_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The signer's request, locked (`FOR UPDATE`) until the transaction ends. */
export async function lockSigningRequest(tx: Tx, id: number): Promise<SignatureRequestRow> {
  return tx
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** The signer, locked (`FOR UPDATE`) until the transaction ends. */
export async function lockSigningSigner(tx: Tx, id: number): Promise<SignerRow> {
  return tx.selectFrom('signers').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
}

/** When the request's template was archived (null when it was not; undefined when it is gone). */
export async function findTemplateArchivedAt(
  db: Executor,
  templateId: number,
): Promise<Date | null | undefined> {
  const t = await db
    .selectFrom('templates')
    .select('archived_at')
    .where('id', '=', templateId)
    .executeTakeFirst();
  return t?.archived_at;
}

// ---- Email-code sessions -----------------------------------------------------------------------

/** When the signer's session with this id hash ends; undefined when there is none. */
export async function findSigningSessionExpiry(
  db: Executor,
  session: { idHash: string; signerId: number },
): Promise<Date | undefined> {
  const row = await db
    .selectFrom('signing_sessions')
    .select('expires_at')
    .where('id_hash', '=', session.idHash)
    .where('signer_id', '=', session.signerId)
    .executeTakeFirst();
  return row?.expires_at;
}

export async function insertSigningSession(
  tx: Tx,
  session: { idHash: string; signerId: number; expiresAt: Date },
): Promise<void> {
  await tx
    .insertInto('signing_sessions')
    .values({ id_hash: session.idHash, signer_id: session.signerId, expires_at: session.expiresAt })
    .execute();
}

// ---- Audit entries by the signer ---------------------------------------------------------------

export interface SignerAuditEntry {
  request: Pick<SignatureRequestRow, 'id' | 'account_id' | 'environment'>;
  signerId: number;
  type: string;
  ip: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
  now: Date;
  /** Who acted, when not the signer row as it is at insert time (the trigger's default). */
  signerWho?: SignerWho;
}

export async function insertSignerAuditEvent(tx: Tx, entry: SignerAuditEntry): Promise<void> {
  await tx
    .insertInto('audit_events')
    .values({
      account_id: entry.request.account_id,
      environment: entry.request.environment,
      signature_request_id: entry.request.id,
      signer_id: entry.signerId,
      type: entry.type,
      actor_type: 'signer',
      actor_id: String(entry.signerId),
      ip: entry.ip,
      user_agent: entry.userAgent,
      data: json(entry.data),
      created_at: entry.now,
      ...(entry.signerWho ? { signer_who: json(entry.signerWho) } : {}),
    })
    .execute();
}

/** How many audit entries of this type the signer has since `since`, and the first one's time. */
export async function countSignerAuditEventsSince(
  tx: Tx,
  signer: { requestId: number; signerId: number },
  opts: { type: string; since: Date },
): Promise<{ n: number; first: Date | null }> {
  const recent = await tx
    .selectFrom('audit_events')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('created_at').as('first')])
    .where('signature_request_id', '=', signer.requestId)
    .where('signer_id', '=', signer.signerId)
    .where('type', '=', opts.type)
    .where('created_at', '>', opts.since)
    .executeTakeFirstOrThrow();
  return { n: Number(recent.n), first: recent.first ? new Date(recent.first) : null };
}

// ---- Email codes -------------------------------------------------------------------------------

/** A new code (its hash) for the signer, with no wrong tries yet. */
export async function setSignerCode(
  tx: Tx,
  signerId: number,
  code: { hash: string; expiresAt: Date; now: Date },
): Promise<void> {
  await tx
    .updateTable('signers')
    .set({ otp_hash: code.hash, otp_expires_at: code.expiresAt, otp_attempts: 0, updated_at: code.now })
    .where('id', '=', signerId)
    .execute();
}

/** The signer's code no longer works (it expired). */
export async function clearSignerCode(tx: Tx, signerId: number, now: Date): Promise<void> {
  await tx
    .updateTable('signers')
    .set({ otp_hash: null, updated_at: now })
    .where('id', '=', signerId)
    .execute();
}

/** The signer entered the right code: it is spent, and the time recorded. */
export async function markSignerCodeVerified(tx: Tx, signerId: number, now: Date): Promise<void> {
  await tx
    .updateTable('signers')
    .set({ otp_hash: null, otp_verified_at: now, updated_at: now })
    .where('id', '=', signerId)
    .execute();
}

export async function setSignerCodeAttempts(
  tx: Tx,
  signerId: number,
  change: { attempts: number; now: Date },
): Promise<void> {
  await tx
    .updateTable('signers')
    .set({ otp_attempts: change.attempts, updated_at: change.now })
    .where('id', '=', signerId)
    .execute();
}

// ---- The signer's progress ---------------------------------------------------------------------

/** Where the signer acted from. */
export interface SignerClient {
  ip: string | null;
  userAgent: string | null;
}

export async function markSignerViewed(
  tx: Tx,
  signerId: number,
  view: SignerClient & { status: SignerRow['status']; now: Date },
): Promise<SignerRow> {
  return tx
    .updateTable('signers')
    .set({
      viewed_at: view.now,
      status: view.status,
      ip: view.ip,
      user_agent: view.userAgent,
      updated_at: view.now,
    })
    .where('id', '=', signerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The language the signer chose on the signing page (issue 32): their `locale` from now on. */
export async function setSignerLocale(
  tx: Tx,
  signerId: number,
  set: { locale: string; now: Date },
): Promise<void> {
  await tx
    .updateTable('signers')
    .set({ locale: set.locale, updated_at: set.now })
    .where('id', '=', signerId)
    .execute();
}

export async function markSignerStarted(tx: Tx, signerId: number, now: Date): Promise<void> {
  await tx.updateTable('signers').set({ started_at: now }).where('id', '=', signerId).execute();
}

export async function saveSignerValues(
  tx: Tx,
  signerId: number,
  save: { values: Record<string, unknown>; now: Date },
): Promise<void> {
  await tx
    .updateTable('signers')
    .set({ values: json(save.values), updated_at: save.now })
    .where('id', '=', signerId)
    .execute();
}

export async function markSignerSigned(
  tx: Tx,
  signerId: number,
  sign: SignerClient & { values: Record<string, unknown>; now: Date },
): Promise<void> {
  await tx
    .updateTable('signers')
    .set({
      values: json(sign.values),
      status: 'signed',
      signed_at: sign.now,
      ip: sign.ip,
      user_agent: sign.userAgent,
      updated_at: sign.now,
    })
    .where('id', '=', signerId)
    .execute();
}

export async function markSignerDeclined(
  tx: Tx,
  signerId: number,
  decline: SignerClient & { reason: string; now: Date },
): Promise<void> {
  await tx
    .updateTable('signers')
    .set({
      status: 'declined',
      declined_at: decline.now,
      decline_reason: decline.reason,
      ip: decline.ip,
      user_agent: decline.userAgent,
      updated_at: decline.now,
    })
    .where('id', '=', signerId)
    .execute();
}

/** A waiting signer whose turn came: `ready`, invited now. */
export async function markSignerReady(tx: Tx, signerId: number, now: Date): Promise<SignerRow> {
  return tx
    .updateTable('signers')
    .set({ status: 'ready', invited_at: now, updated_at: now })
    .where('id', '=', signerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every signer of the request, in signing order. */
export async function listRequestSigners(tx: Tx, requestId: number): Promise<SignerRow[]> {
  return tx
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', requestId)
    .orderBy('position')
    .execute();
}

export async function listRequestSignerIds(tx: Tx, requestId: number): Promise<number[]> {
  const rows = await tx
    .selectFrom('signers')
    .select('id')
    .where('signature_request_id', '=', requestId)
    .execute();
  return rows.map((s) => s.id);
}

// ---- The request as its signers go -------------------------------------------------------------

export async function markSigningRequestCompleted(tx: Tx, requestId: number, now: Date): Promise<void> {
  await tx
    .updateTable('signature_requests')
    .set({ status: 'completed', completed_at: now, updated_at: now })
    .where('id', '=', requestId)
    .execute();
}

export async function markSigningRequestInProgress(tx: Tx, requestId: number, now: Date): Promise<void> {
  await tx
    .updateTable('signature_requests')
    .set({ status: 'in_progress', updated_at: now })
    .where('id', '=', requestId)
    .execute();
}

export async function markSigningRequestDeclined(tx: Tx, requestId: number, now: Date): Promise<void> {
  await tx
    .updateTable('signature_requests')
    .set({ status: 'declined', declined_at: now, updated_at: now })
    .where('id', '=', requestId)
    .execute();
}

/**
 * The one credit a request made from a template uses when it completes: one `consume` ledger row
 * per (account, template), so a template is paid for once (a second completion adds nothing).
 */
export async function insertCreditConsumption(
  tx: Tx,
  use: { accountId: number; templateId: number; requestId: number; now: Date },
): Promise<void> {
  await tx
    .insertInto('credit_ledger')
    .values({
      account_id: use.accountId,
      delta: -1,
      reason: 'consume',
      template_id: use.templateId,
      signature_request_id: use.requestId,
      created_at: use.now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'template_id']).where('reason', '=', 'consume').doNothing())
    .execute();
}
