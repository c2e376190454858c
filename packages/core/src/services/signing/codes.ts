import { randomInt } from 'node:crypto';
import type { Tx } from '@esign/db';
import { findUserName } from '@esign/db/queries/signature-requests';
import {
  clearSignerCode,
  countSignerAuditEventsSince,
  insertSigningSession,
  markSignerCodeVerified,
  setSignerCode,
  setSignerCodeAttempts,
} from '@esign/db/queries/signing';
import { findSmsStatus } from '@esign/db/queries/sms';
import type { Locale, MessageKey } from '@esign/i18n';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { queueRequestMail } from '../brands/request-mail.ts';
import { oneTimeCodeEmail } from '../emails.ts';
import { readerLocale } from '../locale.ts';
import { purgeSignerMail } from '../mail-secrets.ts';
import type { RequestSnapshot } from '../request-model.ts';
import { hmac, safeEqual } from '../secret.ts';
import { senderNameOf } from '../signature-requests/index.ts';
import { codeBySms, maskPhone, queueCodeSms, sendOutgoingNow } from '../sms/index.ts';
import {
  CODE_MAX_ATTEMPTS,
  CODE_REQUESTS_PER_HOUR,
  CODE_RESEND_MS,
  CODE_TTL_MS,
  SIGNING_SESSION_TTL_MS,
} from './code-policy.ts';
import { audit, mailCtx, type Resolved, resolveLocked, type SignerCtx } from './context.ts';
import { signingSetCookie } from './cookie.ts';

const HOUR_MS = 3600_000;

/** Keyed with the server secret: a copy of the database alone cannot try the million codes. */
const codeHash = (sc: SignerCtx, signerId: number, code: string) =>
  hmac(sc.config, 'signing-code', `${signerId}:${code}`).toString('hex');

const EXPIRED = { message: 'This code has expired; ask for a new one', key: 'error.code_expired' } as const;
const LOCKED = {
  message: 'Too many wrong codes: this code no longer works. Ask for a new code.',
  key: 'error.code_locked',
} as const;
const NO_CODE = {
  message: 'No code is waiting to be entered; ask for a new one',
  key: 'error.code_none',
} as const;

/**
 * signing.requestCode: emails a one-time code (when require_email_otp), or texts it (sms/codes.ts:
 * a signer with only a phone, or one the sender reaches by SMS), at most 5 an hour.
 */
export async function requestSigningCode(sc: SignerCtx, token: string) {
  const { capped, result, out } = await sc.db.transaction().execute(async (tx) => {
    const r = await resolveLocked(tx, token, sc.now);
    if (!r.signer.require_email_otp)
      throw new CoreError('invalid_request', 'This signing link does not need a code', {
        messageKey: 'error.code_not_needed',
      });
    const bySms = codeBySms(r.signer);
    if (!r.signer.email && !bySms)
      throw new CoreError('invalid_request', 'No email address or phone to send a code to', {
        messageKey: 'error.code_no_address',
      });
    await checkCodeRequestLimits(tx, r, sc.now);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expires = new Date(sc.now.getTime() + CODE_TTL_MS);
    await setSignerCode(tx, r.signer.id, {
      hash: codeHash(sc, r.signer.id, code),
      expiresAt: expires,
      now: sc.now,
    });
    // The previous code no longer works: its email (or SMS) keeps no copy of it.
    await purgeSignerMail(tx, [r.signer.id], { what: 'codes', now: sc.now });
    const { locale } = await readerLocale(tx, {
      signer: r.signer,
      request: r.request,
      acceptLanguage: sc.acceptLanguage,
    });
    const smsId = bySms
      ? await queueCodeSms(tx, {
          ...sc,
          request: r.request,
          signer: r.signer,
          code,
          minutes: CODE_TTL_MS / 60_000,
          senderName: await senderNameOf(tx, r.request),
          title: (r.request.snapshot as RequestSnapshot).template.name,
          locale,
        })
      : null;
    // Past the account's daily SMS limit the code is never texted (issue 42.3): no `otp.sent`, and
    // the signer is told whom to contact instead of to wait for it.
    if (smsId !== null && (await findSmsStatus(tx, smsId)) === 'capped') {
      return { capped: await senderContact(tx, r), result: null, out: { mail: [], sms: [] } };
    }
    const out =
      smsId !== null
        ? { mail: [], sms: [smsId] }
        : { mail: [await queueCodeMail(tx, r, { code, locale, config: sc.config })], sms: [] };
    await audit(tx, sc, { r, type: 'otp.sent', ...(bySms ? { data: { channel: 'sms' } } : {}) });
    const result = bySms
      ? { sent: true as const, channel: 'sms' as const, email: null, to: maskPhone(r.signer.phone!) }
      : { sent: true as const, channel: 'email' as const, email: r.signer.email!, to: r.signer.email! };
    return { capped: null, result: { ...result, expires_at: expires.toISOString() }, out };
  });
  if (capped) {
    const who =
      capped.contact && capped.contact !== capped.sender
        ? `${capped.sender} (${capped.contact})`
        : capped.sender;
    throw new CoreError(
      'invalid_request',
      `No code was texted to you: the sender's SMS limit for today is reached. Contact ${who} to sign.`,
      { messageKey: 'error.code_sms_capped', messageValues: { who } },
    );
  }
  await sendOutgoingNow(mailCtx(sc), out);
  return result!;
}

/** Whom a signer whose code could not be texted contacts: the sender's name and email (or reply-to). */
async function senderContact(tx: Tx, r: Resolved): Promise<{ sender: string; contact: string | null }> {
  const user = r.request.created_by_user_id
    ? await findUserName(tx, r.request.created_by_user_id)
    : undefined;
  return {
    sender: user?.name ?? user?.email ?? r.request.reply_to ?? 'the sender',
    contact: user?.email ?? r.request.reply_to ?? null,
  };
}

/** The code by email, in the language the signer reads (issue 32). */
async function queueCodeMail(
  tx: Tx,
  r: Resolved,
  o: { code: string; locale: Locale; config: SignerCtx['config'] },
): Promise<number> {
  const { code, locale } = o;
  const mail = oneTimeCodeEmail({
    locale,
    title: (r.request.snapshot as RequestSnapshot).template.name,
    code,
    minutes: CODE_TTL_MS / 60_000,
  });
  // Issue 44: under the request's brand.
  return queueRequestMail(
    tx,
    { config: o.config, request: r.request },
    {
      kind: 'otp',
      to: r.signer.email!,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      accountId: r.request.account_id,
      environment: r.request.environment,
      signerId: r.signer.id,
    },
  );
}

/** 429 rate_limited (with Retry-After) within 30 s of the last code, or past 5 codes in the last hour. */
async function checkCodeRequestLimits(tx: Tx, r: Resolved, now: Date) {
  const lastSent = r.signer.otp_expires_at ? r.signer.otp_expires_at.getTime() - CODE_TTL_MS : null;
  if (lastSent !== null && lastSent + CODE_RESEND_MS > now.getTime()) {
    const retry = Math.ceil((lastSent + CODE_RESEND_MS - now.getTime()) / 1000);
    throw new CoreError('rate_limited', `A code was sent moments ago; retry in ${retry} s`, {
      retryAfterSeconds: retry,
    });
  }
  const recent = await countSignerAuditEventsSince(
    tx,
    { requestId: r.request.id, signerId: r.signer.id },
    { type: 'otp.sent', since: new Date(now.getTime() - HOUR_MS) },
  );
  if (recent.n >= CODE_REQUESTS_PER_HOUR && recent.first) {
    const retry = Math.max(1, Math.ceil((recent.first.getTime() + HOUR_MS - now.getTime()) / 1000));
    throw new CoreError(
      'rate_limited',
      `You asked for ${CODE_REQUESTS_PER_HOUR} codes in the last hour, the most allowed; you can ask for a new one in ${Math.ceil(retry / 60)} min`,
      { retryAfterSeconds: retry },
    );
  }
}

type CodeOutcome =
  | { ok: true; session: string; signerId: number; expiresAt: Date }
  | { ok: false; error: CoreError };

/**
 * signing.verifyCode: unlocks the document for this browser session (an HTTP-only cookie through
 * the web adapter, and the returned `session` for clients without cookies). A wrong, expired or locked
 * code commits its count, audit entry and email purge first, then fails.
 */
export async function verifySigningCode(sc: SignerCtx, token: string, code: string) {
  const outcome = await sc.db.transaction().execute((tx) => checkCode(tx, sc, { token, code }));
  if (!outcome.ok) throw outcome.error;
  sc.web?.addSetCookie?.(signingSetCookie(sc.config, outcome));
  return { verified: true as const, session: outcome.session };
}

async function checkCode(
  tx: Tx,
  sc: SignerCtx,
  entered: { token: string; code: string },
): Promise<CodeOutcome> {
  const { code } = entered;
  const r = await resolveLocked(tx, entered.token, sc.now);
  const s = r.signer;
  const fail = (refusal: { message: string; key: MessageKey }): CodeOutcome => ({
    ok: false,
    error: new CoreError('invalid_request', refusal.message, { messageKey: refusal.key }),
  });
  // Refusals that change nothing write nothing: a flood of calls cannot grow the audit log.
  if (!s.otp_hash || !s.otp_expires_at)
    return fail(s.otp_expires_at && s.otp_expires_at <= sc.now ? EXPIRED : NO_CODE);
  if (s.otp_attempts >= CODE_MAX_ATTEMPTS) return fail(LOCKED);
  if (s.otp_expires_at <= sc.now) {
    await clearSignerCode(tx, s.id, sc.now);
    await purgeSignerMail(tx, [s.id], { what: 'codes', now: sc.now });
    await audit(tx, sc, { r, type: 'otp.expired' });
    return fail(EXPIRED);
  }
  if (!safeEqual(Buffer.from(codeHash(sc, s.id, code), 'hex'), Buffer.from(s.otp_hash, 'hex')))
    return wrongCode(tx, sc, r);
  const session = randomToken(32);
  const expiresAt = new Date(sc.now.getTime() + SIGNING_SESSION_TTL_MS);
  await insertSigningSession(tx, { idHash: sha256Hex(session), signerId: s.id, expiresAt });
  await markSignerCodeVerified(tx, s.id, sc.now);
  await purgeSignerMail(tx, [s.id], { what: 'codes', now: sc.now });
  await audit(tx, sc, { r, type: 'otp.verified' });
  return { ok: true, session, signerId: s.id, expiresAt };
}

async function wrongCode(tx: Tx, sc: SignerCtx, r: Resolved): Promise<CodeOutcome> {
  const attempts = r.signer.otp_attempts + 1;
  await setSignerCodeAttempts(tx, r.signer.id, { attempts, now: sc.now });
  await audit(tx, sc, { r, type: 'otp.failed', data: { attempt: attempts } });
  const left = CODE_MAX_ATTEMPTS - attempts;
  if (left > 0) {
    return {
      ok: false,
      error: new CoreError(
        'invalid_request',
        `That code is not correct; ${left} ${left === 1 ? 'try' : 'tries'} left`,
        {
          messageKey: 'error.code_wrong',
          messageValues: { left },
        },
      ),
    };
  }
  await audit(tx, sc, { r, type: 'otp.locked', data: { attempts } });
  await purgeSignerMail(tx, [r.signer.id], { what: 'codes', now: sc.now });
  return { ok: false, error: new CoreError('invalid_request', LOCKED.message, { messageKey: LOCKED.key }) };
}
