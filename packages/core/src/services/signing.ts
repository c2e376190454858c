import { randomInt } from 'node:crypto';
import { type Db, json, type SignatureRequestRow, type SignerRow, type Tx } from '@esign/db';
import type { Config } from '../config.ts';
import { randomToken, sha256Hex } from '../crypto.ts';
import { CoreError } from '../errors.ts';
import { oneTimeCodeEmail } from './emails.ts';
import { recordEvent } from './events.ts';
import { normaliseValues } from './field-values.ts';
import { signFileLink } from './file-links.ts';
import { queueMail } from './mail.ts';
import type { FieldValue, RequestSnapshot } from './request-model.ts';
import { queueSealing } from './sealing/index.ts';
import {
  effectiveStatus,
  effectiveValues,
  queueInvitation,
  senderNameOf,
  signerFields,
} from './signature-requests/index.ts';

const CODE_TTL_MS = 10 * 60_000;
const CODE_RESEND_MS = 30_000;
const CODE_MAX_ATTEMPTS = 5;
const SESSION_TTL_MS = 12 * 3600_000;

export interface SignerCtx {
  db: Db;
  config: Config;
  now: Date;
  ip: string | null;
  userAgent: string | null;
}

interface Resolved {
  signer: SignerRow;
  request: SignatureRequestRow;
}

/**
 * The token's signer, with the rules every signing procedure shares: unknown → not_found; a
 * finished signer → signer_finished; a canceled, declined or expired request → not_open; an
 * archived template → template_archived.
 */
async function resolve(
  db: Db | Tx,
  token: string,
  now: Date,
  opts: { lock?: boolean; allowFinished?: boolean } = {},
): Promise<Resolved> {
  let signerQuery = db.selectFrom('signers').selectAll().where('token_hash', '=', sha256Hex(token));
  const found = await signerQuery.executeTakeFirst();
  if (!found) throw new CoreError('not_found', 'This signing link is not valid');
  let request: SignatureRequestRow;
  if (opts.lock) {
    request = await (db as Tx)
      .selectFrom('signature_requests')
      .selectAll()
      .where('id', '=', found.signature_request_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    signerQuery = db.selectFrom('signers').selectAll().where('id', '=', found.id);
  } else {
    request = await db
      .selectFrom('signature_requests')
      .selectAll()
      .where('id', '=', found.signature_request_id)
      .executeTakeFirstOrThrow();
  }
  const signer = opts.lock ? await signerQuery.forUpdate().executeTakeFirstOrThrow() : found;
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

async function sessionValid(
  db: Db | Tx,
  signer: SignerRow,
  session: string | undefined,
  now: Date,
): Promise<boolean> {
  if (!signer.require_email_otp) return true;
  if (!session) return false;
  const row = await db
    .selectFrom('signing_sessions')
    .select('expires_at')
    .where('id_hash', '=', sha256Hex(session))
    .where('signer_id', '=', signer.id)
    .executeTakeFirst();
  return !!row && row.expires_at > now;
}

async function requireSession(db: Db | Tx, signer: SignerRow, session: string | undefined, now: Date) {
  if (!(await sessionValid(db, signer, session, now))) {
    throw new CoreError('forbidden', 'Enter the one-time code emailed to you first');
  }
}

function audit(tx: Tx, r: Resolved, sc: SignerCtx, type: string, data: Record<string, unknown> = {}) {
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

const scopeOfRequest = (r: SignatureRequestRow) => ({ accountId: r.account_id, environment: r.environment });

/** signing.open: the snapshot for this signer; records `viewed` the first time. */
export async function openSigning(sc: SignerCtx, token: string, session: string | undefined) {
  const first = await resolve(sc.db, token, sc.now, { allowFinished: false });
  const r =
    first.signer.viewed_at || first.signer.status === 'waiting'
      ? first
      : await sc.db.transaction().execute(async (tx) => {
          const locked = await resolve(tx, token, sc.now, { lock: true });
          if (locked.signer.viewed_at) return locked;
          const signer = await tx
            .updateTable('signers')
            .set({
              viewed_at: sc.now,
              status:
                locked.signer.status === 'sent' || locked.signer.status === 'ready'
                  ? 'viewed'
                  : locked.signer.status,
              ip: sc.ip,
              user_agent: sc.userAgent,
              updated_at: sc.now,
            })
            .where('id', '=', locked.signer.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          await audit(tx, locked, sc, 'signer.viewed');
          await recordEvent(tx, scopeOfRequest(locked.request), {
            type: 'signer.viewed',
            objectType: 'signer',
            objectId: signer.id,
            now: sc.now,
          });
          return { ...locked, signer };
        });
  const snapshot = r.request.snapshot as RequestSnapshot;
  const unlocked = await sessionValid(sc.db, r.signer, session, sc.now);
  const prefill = r.signer.prefill as Record<string, FieldValue>;
  const values = effectiveValues(r.signer);
  const visible = unlocked && r.signer.status !== 'waiting';
  return {
    object: 'signing_session' as const,
    status: r.signer.status,
    request: {
      id: r.request.id,
      status: effectiveStatus(r.request, sc.now),
      title: snapshot.template.name,
      message: r.request.message,
      expires_at: r.request.expires_at?.toISOString() ?? null,
      test_mode: r.request.environment === 'test',
    },
    signer: { id: r.signer.id, name: r.signer.name, email: r.signer.email, role: r.signer.role },
    code_required: !unlocked,
    documents: visible
      ? snapshot.documents.map((d) => ({
          index: d.index,
          name: d.name,
          pages: d.pages.map((p, i) => ({
            number: i + 1,
            width: p.width,
            height: p.height,
            image_url: signFileLink(
              sc.config,
              { k: d.storage_key, t: 'image/png', n: `${d.name}-page-${i + 1}.png`, p: i + 1 },
              sc.now,
              24 * 3600,
            ),
          })),
        }))
      : [],
    fields: visible
      ? signerFields(snapshot, r.signer.role).map((f) => ({
          ...f,
          value: values[f.name] ?? null,
          prefilled: prefill[f.name] !== undefined && prefill[f.name] !== null,
        }))
      : [],
    redirect_url: r.signer.redirect_url ?? r.request.redirect_url,
  };
}

/** signing.requestCode: emails a one-time code (when require_email_otp). */
export async function requestSigningCode(sc: SignerCtx, token: string) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    if (!r.signer.require_email_otp)
      throw new CoreError('invalid_request', 'This signing link does not need a code');
    if (!r.signer.email) throw new CoreError('invalid_request', 'No email address to send a code to');
    if (
      r.signer.otp_expires_at &&
      r.signer.otp_expires_at.getTime() - CODE_TTL_MS + CODE_RESEND_MS > sc.now.getTime()
    ) {
      const retry = Math.ceil(
        (r.signer.otp_expires_at.getTime() - CODE_TTL_MS + CODE_RESEND_MS - sc.now.getTime()) / 1000,
      );
      throw new CoreError('rate_limited', `A code was sent moments ago; retry in ${retry} s`, {
        retryAfterSeconds: retry,
      });
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expires = new Date(sc.now.getTime() + CODE_TTL_MS);
    await tx
      .updateTable('signers')
      .set({
        otp_hash: sha256Hex(`${r.signer.id}:${code}`),
        otp_expires_at: expires,
        otp_attempts: 0,
        updated_at: sc.now,
      })
      .where('id', '=', r.signer.id)
      .execute();
    const mail = oneTimeCodeEmail({
      title: (r.request.snapshot as RequestSnapshot).template.name,
      code,
      minutes: CODE_TTL_MS / 60_000,
    });
    const mailId = await queueMail(tx, {
      kind: 'otp',
      to: r.signer.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      accountId: r.request.account_id,
      environment: r.request.environment,
      signerId: r.signer.id,
    });
    await audit(tx, r, sc, 'otp.sent');
    return {
      result: { sent: true as const, email: r.signer.email, expires_at: expires.toISOString() },
      mailId,
    };
  });
}

/** signing.verifyCode: unlocks the document for this browser session. */
export async function verifySigningCode(sc: SignerCtx, token: string, code: string) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    const s = r.signer;
    if (!s.otp_hash || !s.otp_expires_at || s.otp_expires_at <= sc.now) {
      throw new CoreError('invalid_request', 'The code has expired or was never sent; ask for a new one');
    }
    if (s.otp_attempts >= CODE_MAX_ATTEMPTS)
      throw new CoreError('rate_limited', 'Too many wrong codes; ask for a new one');
    if (sha256Hex(`${s.id}:${code}`) !== s.otp_hash) {
      await tx
        .updateTable('signers')
        .set({ otp_attempts: s.otp_attempts + 1 })
        .where('id', '=', s.id)
        .execute();
      await audit(tx, r, sc, 'otp.failed');
      throw new CoreError('invalid_request', 'That code is not correct');
    }
    const session = randomToken(32);
    await tx
      .insertInto('signing_sessions')
      .values({
        id_hash: sha256Hex(session),
        signer_id: s.id,
        expires_at: new Date(sc.now.getTime() + SESSION_TTL_MS),
      })
      .execute();
    await tx
      .updateTable('signers')
      .set({ otp_hash: null, otp_verified_at: sc.now, updated_at: sc.now })
      .where('id', '=', s.id)
      .execute();
    await audit(tx, r, sc, 'otp.verified');
    return { verified: true as const, session };
  });
}

function mergeValues(r: Resolved, valuesIn: Record<string, unknown>) {
  const snapshot = r.request.snapshot as RequestSnapshot;
  const fields = signerFields(snapshot, r.signer.role);
  const prefill = r.signer.prefill as Record<string, FieldValue>;
  for (const name of Object.keys(valuesIn)) {
    if (prefill[name] !== undefined && prefill[name] !== null && valuesIn[name] !== prefill[name]) {
      throw new CoreError(
        'invalid_request',
        `Field "${name}" was filled in by the sender and cannot be changed`,
      );
    }
  }
  const normalised = normaliseValues(fields, valuesIn, 'values');
  return { fields, values: { ...(r.signer.values as Record<string, FieldValue>), ...normalised } };
}

function assertTurn(r: Resolved) {
  if (r.signer.status === 'waiting')
    throw new CoreError(
      'invalid_request',
      'It is not your turn to sign yet; an earlier signer must sign first',
    );
}

async function markStarted(tx: Tx, r: Resolved, sc: SignerCtx) {
  if (r.signer.started_at) return;
  await tx.updateTable('signers').set({ started_at: sc.now }).where('id', '=', r.signer.id).execute();
  await audit(tx, r, sc, 'signer.started');
  await recordEvent(tx, scopeOfRequest(r.request), {
    type: 'signer.started',
    objectType: 'signer',
    objectId: r.signer.id,
    now: sc.now,
  });
}

/** signing.saveValues: stores progress; the first call emits signer.started. */
export async function saveSigningValues(
  sc: SignerCtx,
  token: string,
  session: string | undefined,
  valuesIn: Record<string, unknown>,
) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    await requireSession(tx, r.signer, session, sc.now);
    assertTurn(r);
    const { values } = mergeValues(r, valuesIn);
    await tx
      .updateTable('signers')
      .set({ values: json(values), updated_at: sc.now })
      .where('id', '=', r.signer.id)
      .execute();
    await markStarted(tx, r, sc);
    return { saved: true as const, values: { ...(r.signer.prefill as object), ...values } };
  });
}

/**
 * signing.complete: validates required fields, signs; the last signature completes the request
 * (event, credit, sealing job); in sequential order the next signer is invited.
 */
export async function completeSigning(
  sc: SignerCtx,
  token: string,
  session: string | undefined,
  valuesIn: Record<string, unknown>,
) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    await requireSession(tx, r.signer, session, sc.now);
    assertTurn(r);
    const { fields, values } = mergeValues(r, valuesIn);
    const effective = { ...(r.signer.prefill as Record<string, FieldValue>), ...values };
    const missing = fields.filter(
      (f) =>
        f.required &&
        (effective[f.name] === undefined ||
          effective[f.name] === null ||
          (effective[f.name] === false && f.type === 'checkbox')),
    );
    if (missing.length) {
      throw new CoreError(
        'invalid_request',
        `Required field${missing.length > 1 ? 's' : ''} missing: ${missing.map((f) => f.name).join(', ')}`,
      );
    }
    await markStarted(tx, r, sc);
    const signer = await tx
      .updateTable('signers')
      .set({
        values: json(values),
        status: 'signed',
        signed_at: sc.now,
        ip: sc.ip,
        user_agent: sc.userAgent,
        updated_at: sc.now,
      })
      .where('id', '=', r.signer.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, r, sc, 'signer.signed');
    const scope = scopeOfRequest(r.request);
    await recordEvent(tx, scope, {
      type: 'signer.signed',
      objectType: 'signer',
      objectId: signer.id,
      now: sc.now,
    });

    const all = await tx
      .selectFrom('signers')
      .selectAll()
      .where('signature_request_id', '=', r.request.id)
      .orderBy('position')
      .execute();
    const mailIds: number[] = [];
    if (all.every((s) => s.status === 'signed')) {
      await tx
        .updateTable('signature_requests')
        .set({ status: 'completed', completed_at: sc.now, updated_at: sc.now })
        .where('id', '=', r.request.id)
        .execute();
      await consumeCredit(tx, r.request, sc.now);
      await queueSealing(tx, r.request.id);
      await recordEvent(tx, scope, {
        type: 'signature_request.completed',
        objectType: 'signature_request',
        objectId: r.request.id,
        now: sc.now,
      });
    } else {
      await tx
        .updateTable('signature_requests')
        .set({ status: 'in_progress', updated_at: sc.now })
        .where('id', '=', r.request.id)
        .execute();
      if (r.request.signing_order === 'sequential') {
        const next = all.find((s) => s.status === 'waiting');
        if (next) {
          const ready = await tx
            .updateTable('signers')
            .set({ status: 'ready', invited_at: sc.now, updated_at: sc.now })
            .where('id', '=', next.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          if (r.request.send_email && ready.email) {
            mailIds.push(
              await queueInvitation(
                tx,
                sc.config,
                r.request,
                ready,
                'next_signer',
                await senderNameOf(tx, r.request),
                sc.now,
              ),
            );
          }
        }
      }
    }
    return { result: { redirect_url: r.signer.redirect_url ?? r.request.redirect_url }, mailIds };
  });
}

/** One credit the first time a request made from a template completes (live, credit plans). */
async function consumeCredit(tx: Tx, request: SignatureRequestRow, now: Date) {
  if (request.environment !== 'live' || !request.template_id) return;
  const account = await tx
    .selectFrom('accounts')
    .select('plan')
    .where('id', '=', request.account_id)
    .executeTakeFirstOrThrow();
  if (account.plan === 'lifetime') return;
  await tx
    .insertInto('credit_ledger')
    .values({
      account_id: request.account_id,
      delta: -1,
      reason: 'consume',
      template_id: request.template_id,
      signature_request_id: request.id,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'template_id']).where('reason', '=', 'consume').doNothing())
    .execute();
}

/** signing.decline: the signer declines with a reason; the request becomes declined. */
export async function declineSigning(
  sc: SignerCtx,
  token: string,
  session: string | undefined,
  reason: string,
) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    await requireSession(tx, r.signer, session, sc.now);
    await tx
      .updateTable('signers')
      .set({
        status: 'declined',
        declined_at: sc.now,
        decline_reason: reason,
        ip: sc.ip,
        user_agent: sc.userAgent,
        updated_at: sc.now,
      })
      .where('id', '=', r.signer.id)
      .execute();
    await tx
      .updateTable('signature_requests')
      .set({ status: 'declined', declined_at: sc.now, updated_at: sc.now })
      .where('id', '=', r.request.id)
      .execute();
    await audit(tx, r, sc, 'signer.declined', { reason });
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: 'signer.declined',
      objectType: 'signer',
      objectId: r.signer.id,
      now: sc.now,
    });
    return { declined: true as const };
  });
}
