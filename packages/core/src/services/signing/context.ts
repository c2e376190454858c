import { type Db, json, type SignatureRequestRow, type SignerRow, type Tx } from '@esign/db';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { CoreDeps, WebSession } from '../../context.ts';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import type { JobContext } from '../jobs.ts';
import { effectiveStatus } from '../signature-requests/index.ts';
import { signingSessionFromCookie } from './cookie.ts';

/** What the signing procedures get: no actor, the signer's token says who; the clock is fixed per call. */
export interface SignerCtx {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now: Date;
  ip: string | null;
  userAgent: string | null;
  /** The browser adapter's cookie access (the email-code session cookie); null for other callers. */
  web?: WebSession | null;
}

export interface Resolved {
  signer: SignerRow;
  request: SignatureRequestRow;
}

/** For sendMailNow after a commit: the same context the worker's mail job gets. */
export const mailCtx = (sc: SignerCtx): JobContext => ({
  db: sc.db,
  logger: sc.logger,
  config: sc.config,
  deps: sc.deps,
  now: () => sc.now,
});

export const scopeOfRequest = (r: SignatureRequestRow) => ({
  accountId: r.account_id,
  environment: r.environment,
});

/**
 * The token's signer, with the rules every signing procedure shares: unknown → not_found; a
 * finished signer → signer_finished; a canceled, declined or expired request → not_open; an
 * archived template → template_archived.
 */
export async function resolve(
  db: Db | Tx,
  token: string,
  now: Date,
  opts: { lock?: boolean; allowFinished?: boolean } = {},
): Promise<Resolved> {
  const found = await db
    .selectFrom('signers')
    .selectAll()
    .where('token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!found) throw new CoreError('not_found', 'This signing link is not valid');
  let requestQuery = db
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', found.signature_request_id);
  if (opts.lock) requestQuery = requestQuery.forUpdate();
  const request = await requestQuery.executeTakeFirstOrThrow();
  const signer = opts.lock
    ? await db
        .selectFrom('signers')
        .selectAll()
        .where('id', '=', found.id)
        .forUpdate()
        .executeTakeFirstOrThrow()
    : found;
  if (!opts.allowFinished && (signer.status === 'signed' || signer.status === 'declined')) {
    throw new CoreError(
      'signer_finished',
      `You have already ${signer.status === 'signed' ? 'signed' : 'declined'} this document`,
    );
  }
  const status = effectiveStatus(request, now);
  if (status === 'canceled' || status === 'declined' || status === 'expired') {
    throw new CoreError('not_open', `This signature request is ${status}; the link no longer works`);
  }
  if (status === 'completed' && !opts.allowFinished)
    throw new CoreError('signer_finished', 'This document is already signed by everyone');
  if (request.template_id) {
    const t = await db
      .selectFrom('templates')
      .select('archived_at')
      .where('id', '=', request.template_id)
      .executeTakeFirst();
    if (t?.archived_at)
      throw new CoreError(
        'template_archived',
        'The template of this document was archived; the link no longer works',
      );
  }
  return { signer, request };
}

/**
 * The email-code session a call brings: the explicit `session` input (embedders without cookies),
 * else the signer's session cookie that signing.verifyCode set.
 */
function sessionOf(sc: SignerCtx, signer: SignerRow, explicit: string | undefined): string | undefined {
  return explicit ?? signingSessionFromCookie(sc.config, signer.id, sc.web?.cookieHeader);
}

/** Whether the document is unlocked for this call: no code needed, or a live email-code session. */
export async function sessionValid(
  sc: SignerCtx,
  db: Db | Tx,
  signer: SignerRow,
  explicit: string | undefined,
): Promise<boolean> {
  if (!signer.require_email_otp) return true;
  const session = sessionOf(sc, signer, explicit);
  if (!session) return false;
  const row = await db
    .selectFrom('signing_sessions')
    .select('expires_at')
    .where('id_hash', '=', sha256Hex(session))
    .where('signer_id', '=', signer.id)
    .executeTakeFirst();
  return !!row && row.expires_at > sc.now;
}

export async function requireSession(
  sc: SignerCtx,
  db: Db | Tx,
  signer: SignerRow,
  session: string | undefined,
) {
  if (!(await sessionValid(sc, db, signer, session))) {
    throw new CoreError('forbidden', 'Enter the one-time code emailed to you first');
  }
}

/** An audit entry by the signer (with their IP and user agent), in the caller's transaction. */
export function audit(tx: Tx, r: Resolved, sc: SignerCtx, type: string, data: Record<string, unknown> = {}) {
  return tx
    .insertInto('audit_events')
    .values({
      account_id: r.request.account_id,
      environment: r.request.environment,
      signature_request_id: r.request.id,
      signer_id: r.signer.id,
      type,
      actor_type: 'signer',
      actor_id: String(r.signer.id),
      ip: sc.ip,
      user_agent: sc.userAgent,
      data: json(data),
      created_at: sc.now,
    })
    .execute();
}
