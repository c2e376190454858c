import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import { countCodeSmsToSince } from '@esign/db/queries/sms';
import type { Locale } from '@esign/i18n';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Config } from '../../config.ts';
import { CoreError } from '../../errors.ts';
import { CODE_KIND } from '../secret-markers.ts';
import { CODE_REQUESTS_PER_HOUR, CODE_RESEND_MS } from '../signing/code-policy.ts';
import { queueSms } from './outbox.ts';
import { smsText } from './texts.ts';

const HOUR_MS = 3600_000;

/**
 * Whether a signer's one-time code goes by SMS: when they have a phone and no email, or when the
 * sender asked for SMS (`delivery` `sms` or `email_and_sms`: the code then proves the phone too).
 */
export function codeBySms(signer: Pick<SignerRow, 'email' | 'phone' | 'delivery'>): boolean {
  if (!signer.phone) return false;
  return !signer.email || (signer.delivery ?? 'email') !== 'email';
}

/** A phone number as the signing page shows it: its country code and last two digits. */
export function maskPhone(e164: string): string {
  const cc = parsePhoneNumberFromString(e164)?.countryCallingCode;
  return `+${cc ?? ''} ••• ${e164.slice(-2)}`;
}

/**
 * The email codes' limits, for each phone number across signers and requests (a number that is
 * the signer of many requests is texted no more often): a code at most every 30 seconds and at
 * most 5 an hour; beyond, `429 rate_limited` with Retry-After.
 */
async function checkPhoneCodeLimits(tx: Tx, phone: string, now: Date): Promise<void> {
  const recent = await countCodeSmsToSince(
    tx,
    { number: phone, kind: CODE_KIND },
    new Date(now.getTime() - HOUR_MS),
  );
  if (recent.last && recent.last.getTime() + CODE_RESEND_MS > now.getTime()) {
    const retry = Math.ceil((recent.last.getTime() + CODE_RESEND_MS - now.getTime()) / 1000);
    throw new CoreError('rate_limited', `A code was texted to this number moments ago; retry in ${retry} s`, {
      retryAfterSeconds: retry,
    });
  }
  if (recent.n >= CODE_REQUESTS_PER_HOUR && recent.first) {
    const retry = Math.max(1, Math.ceil((recent.first.getTime() + HOUR_MS - now.getTime()) / 1000));
    throw new CoreError(
      'rate_limited',
      `This number got ${CODE_REQUESTS_PER_HOUR} codes in the last hour, the most allowed; you can ask for a new one in ${Math.ceil(retry / 60)} min`,
      { retryAfterSeconds: retry },
    );
  }
}

/** Checks the number's limits and queues the code SMS in the caller's transaction; returns its id. */
export async function queueCodeSms(
  tx: Tx,
  o: {
    config: Config;
    now: Date;
    request: SignatureRequestRow;
    signer: SignerRow;
    code: string;
    minutes: number;
    /** who sent the request and the document's title: the code SMS names them (issue 42.7) */
    senderName: string;
    title: string;
    /** the signer's language (locale.ts readerLocale) */
    locale: Locale;
  },
): Promise<number> {
  const phone = o.signer.phone!;
  await checkPhoneCodeLimits(tx, phone, o.now);
  return queueSms(tx, {
    config: o.config,
    now: o.now,
    message: {
      kind: CODE_KIND,
      to: phone,
      text: smsText(
        'otp',
        { code: o.code, minutes: o.minutes, senderName: o.senderName, title: o.title },
        o.locale,
      ),
      accountId: o.request.account_id,
      environment: o.request.environment,
      signatureRequestId: o.request.id,
      signerId: o.signer.id,
    },
  });
}
