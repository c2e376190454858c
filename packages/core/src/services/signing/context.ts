import type { Db, Executor, SignatureRequestRow, SignerRow, SignerWho, Tx } from '@esign/db';
import {
  findSignerByTokenHash,
  findSigningSessionExpiry,
  findTemplateArchivedAt,
  getSigningRequest,
  insertSignerAuditEvent,
  lockSigningRequest,
  lockSigningSigner,
} from '@esign/db/queries/signing';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { CoreDeps, WebSession } from '../../context.ts';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import type { JobContext } from '../jobs.ts';
import { effectiveStatus } from '../signature-requests/index.ts';
import { signingSessionFromCookie } from './cookie.ts';
import { hostedElsewhere, hostSessionOf } from './hosted.ts';

/** What the signing procedures get: no actor, the signer's token says who; the clock is fixed per call. */
export interface SignerCtx {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now: Date;
  ip: string | null;
  userAgent: string | null;
  /** The browser's Accept-Language header: the signing page's language when nothing else names one. */
  acceptLanguage?: string | null;
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
export async function resolve(db: Executor, token: string, now: Date): Promise<Resolved> {
  const signer = await findToken(db, token);
  const request = await getSigningRequest(db, signer.signature_request_id);
  return checkOpen(db, { signer, request }, now);
}

/**
 * `resolve`, with the request and then the signer locked (`FOR UPDATE`) until the transaction
 * ends: what every signing procedure that changes something reads first.
 */
export async function resolveLocked(tx: Tx, token: string, now: Date): Promise<Resolved> {
  const found = await findToken(tx, token);
  const request = await lockSigningRequest(tx, found.signature_request_id);
  const signer = await lockSigningSigner(tx, found.id);
  return checkOpen(tx, { signer, request }, now);
}

async function findToken(db: Executor, token: string): Promise<SignerRow> {
  const found = await findSignerByTokenHash(db, sha256Hex(token));
  if (!found)
    throw new CoreError('not_found', 'This signing link is not valid', { messageKey: 'error.link_invalid' });
  return found;
}

async function checkOpen(db: Executor, r: Resolved, now: Date): Promise<Resolved> {
  const { signer, request } = r;
  if (signer.status === 'signed' || signer.status === 'declined') {
    // The key tells the page which: a declined signer sees the declined page, not a green tick.
    const signed = signer.status === 'signed';
    throw new CoreError(
      'signer_finished',
      `You have already ${signed ? 'signed' : 'declined'} this document`,
      { messageKey: signed ? 'error.signer_signed' : 'error.signer_declined' },
    );
  }
  const status = effectiveStatus(request, now);
  if (status === 'canceled' || status === 'declined' || status === 'expired') {
    throw new CoreError('not_open', `This signature request is ${status}; the link no longer works`, {
      messageKey: 'error.not_open',
    });
  }
  if (status === 'completed')
    throw new CoreError('signer_finished', 'This document is already signed by everyone', {
      messageKey: 'error.all_signed',
    });
  if (request.template_id && (await findTemplateArchivedAt(db, request.template_id))) {
    throw new CoreError(
      'template_archived',
      'The template of this document was archived; the link no longer works',
    );
  }
  return r;
}

/**
 * The email-code session a call brings: the explicit `session` input (embedders without cookies),
 * else the signer's session cookie that signing.verifyCode set.
 */
function sessionOf(sc: SignerCtx, signer: SignerRow, explicit: string | undefined): string | undefined {
  return explicit ?? signingSessionFromCookie(sc.config, signer.id, sc.web?.cookieHeader);
}

/** The signer a call is about and the email-code session it brings (explicit, else the cookie). */
export interface SessionCheck {
  signer: SignerRow;
  session: string | undefined;
  /** Issue 47: the page runs hosted (in person): the host's device cookie replaces the code. */
  hosted?: boolean | undefined;
}

/** Whether the document is unlocked for this call: no code needed, or a live email-code session. */
export async function sessionValid(db: Executor, sc: SignerCtx, check: SessionCheck): Promise<boolean> {
  const { signer } = check;
  if (check.hosted) return !!(await hostOf(db, sc, signer));
  if (!signer.require_email_otp) return true;
  const session = sessionOf(sc, signer, check.session);
  if (!session) return false;
  const expiresAt = await findSigningSessionExpiry(db, { idHash: sha256Hex(session), signerId: signer.id });
  return !!expiresAt && expiresAt > sc.now;
}

export async function requireSession(db: Executor, sc: SignerCtx, check: SessionCheck): Promise<void> {
  if (!(await sessionValid(db, sc, check))) {
    if (check.hosted) throw hostedElsewhere();
    throw new CoreError('forbidden', 'Enter the one-time code emailed to you first');
  }
}

/** Issue 47: the live host session this browser holds for the signer (hosted.ts), if any. */
export function hostOf(db: Executor, sc: SignerCtx, signer: SignerRow) {
  return hostSessionOf(db, {
    config: sc.config,
    signerId: signer.id,
    cookieHeader: sc.web?.cookieHeader,
    now: sc.now,
  });
}

/** An audit entry by the signer (with their IP and user agent), in the caller's transaction. */
export function audit(
  tx: Tx,
  sc: SignerCtx,
  entry: { r: Resolved; type: string; data?: Record<string, unknown>; signerWho?: SignerWho },
): Promise<void> {
  const { r } = entry;
  return insertSignerAuditEvent(tx, {
    request: r.request,
    signerId: r.signer.id,
    type: entry.type,
    ip: sc.ip,
    userAgent: sc.userAgent,
    data: entry.data ?? {},
    now: sc.now,
    ...(entry.signerWho ? { signerWho: entry.signerWho } : {}),
  });
}
