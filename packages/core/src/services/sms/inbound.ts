import { createHmac } from 'node:crypto';
import type { Db } from '@esign/db';
import { findUserContact } from '@esign/db/queries/sealing';
import { deleteSmsOptOut, insertSmsOptOut, listOpenSignersByPhone } from '@esign/db/queries/sms';
import type { Config } from '../../config.ts';
import { recordAudit } from '../audit.ts';
import { escapeHtml, queueMail } from '../mail.ts';
import { safeEqual } from '../secret.ts';
import { isStatusCallback, receiveSmsStatus } from './status-callback.ts';

// Replies to our SMS (issue 42.7): the provider posts each one to `${PUBLIC_URL}/webhooks/sms` as
// Twilio does (form-encoded From, To, Body, …, signed in the X-Twilio-Signature header). A reply of
// STOP (or Twilio's other opt-out words) is honoured: the number is kept in sms_opt_outs and gets no
// more SMS from any account (outbox.ts writes them `opted_out`), and the sender of each request
// still open for that number is told (the request's timeline, and an email). START undoes it.

/** Twilio's default opt-out and opt-in keywords (the whole reply, any case). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE']);
const START_WORDS = new Set(['START', 'UNSTOP']);

/**
 * Twilio's request signature: base64 HMAC-SHA1, under the auth token, of the URL it called
 * followed by each POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const names = [...new Set(params.keys())].sort();
  let data = url;
  for (const name of names) for (const value of params.getAll(name)) data += name + value;
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export type InboundSmsOutcome =
  | { kind: 'not_configured' }
  | { kind: 'bad_signature' }
  | { kind: 'ignored' }
  | { kind: 'opted_out'; requests: number }
  | { kind: 'opted_in' }
  | { kind: 'undeliverable' };

/**
 * One inbound SMS from the provider: verified with its signature over `url` (the address it
 * called, as PUBLIC_URL spells it), then a STOP or START reply is recorded. Anything else is
 * ignored (no one reads replies).
 */
export async function receiveInboundSms(
  ctx: { db: Db; config: Config; now: () => Date },
  o: { url: string; params: URLSearchParams; signature: string | undefined },
): Promise<InboundSmsOutcome> {
  const { config } = ctx;
  if (config.SMS_PROVIDER !== 'twilio' || !config.TWILIO_AUTH_TOKEN) return { kind: 'not_configured' };
  const expected = Buffer.from(twilioSignature(config.TWILIO_AUTH_TOKEN, o.url, o.params));
  if (!o.signature || !safeEqual(Buffer.from(o.signature), expected)) return { kind: 'bad_signature' };
  if (isStatusCallback(o.params))
    return (await receiveSmsStatus(ctx, o.params)) ? { kind: 'undeliverable' } : { kind: 'ignored' };
  const from = o.params.get('From') ?? '';
  if (!/^\+[1-9]\d{5,14}$/.test(from)) return { kind: 'ignored' };
  const word = (o.params.get('Body') ?? '')
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  const now = ctx.now();
  if (START_WORDS.has(word)) {
    await deleteSmsOptOut(ctx.db, from);
    return { kind: 'opted_in' };
  }
  if (!STOP_WORDS.has(word)) return { kind: 'ignored' };
  return ctx.db.transaction().execute(async (tx) => {
    await insertSmsOptOut(tx, from, word, now);
    const signers = await listOpenSignersByPhone(tx, from);
    const told = new Set<number>();
    for (const s of signers) {
      await recordAudit(
        tx,
        { accountId: s.account_id, environment: s.environment },
        {
          type: 'sms.opted_out',
          by: { kind: 'system' },
          signatureRequestId: s.signature_request_id,
          signerId: s.signer_id,
          data: { keyword: word },
          now,
        },
      );
      if (!s.created_by_user_id || told.has(s.signature_request_id)) continue;
      told.add(s.signature_request_id);
      const user = await findUserContact(tx, s.created_by_user_id);
      if (!user) continue;
      const who = s.name ?? 'A signer';
      const text = `Hello${user.name ? ` ${user.name}` : ''},\n\n${who} replied ${word} to our text messages for signature request #${s.signature_request_id}: their number gets no more SMS. Reach them another way (edit the signer to give an email address), or ask them to reply START.\n`;
      await queueMail(tx, {
        kind: 'sms.opted_out',
        to: user.email,
        subject: `${who} stopped text messages for signature request #${s.signature_request_id}`,
        text,
        html: `<!doctype html><html lang="en"><body><p>${escapeHtml(text).replace(/\n\n/g, '</p><p>')}</p></body></html>`,
        accountId: s.account_id,
        environment: s.environment,
      });
    }
    return { kind: 'opted_out', requests: new Set(signers.map((s) => s.signature_request_id)).size };
  });
}
