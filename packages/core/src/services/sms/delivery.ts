import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import type { Locale } from '@esign/i18n';
import type { Config } from '../../config.ts';
import type { JobContext } from '../jobs.ts';
import { sendMailNow } from '../mail.ts';
import type { RequestSnapshot } from '../request-model.ts';
import { queueSms, sendSmsNow } from './outbox.ts';
import { smsText } from './texts.ts';

/**
 * How a signer is reached (issue 32). `delivery` is what the sender asked for (`signers[].delivery`
 * or the request's `delivery`): `email`, `sms` or `email_and_sms`; unset, email. A channel the
 * signer has no address for falls to the other: a signer with only a phone gets SMS, one with only
 * an email gets email, whatever was asked.
 */
export function signerChannels(signer: Pick<SignerRow, 'email' | 'phone' | 'delivery'>): {
  email: boolean;
  sms: boolean;
} {
  const asked = signer.delivery ?? 'email';
  const email = !!signer.email && (asked !== 'sms' || !signer.phone);
  const sms = !!signer.phone && (asked !== 'email' || !signer.email);
  return { email, sms };
}

/** Emails and SMS a change queued, sent right after its commit. */
export interface Outgoing {
  mail: number[];
  sms: number[];
}

export const noOutgoing = (): Outgoing => ({ mail: [], sms: [] });

/** Adds `more` to `into` (returns `into`). */
export function addOutgoing(into: Outgoing, more: Outgoing): Outgoing {
  into.mail.push(...more.mail);
  into.sms.push(...more.sms);
  return into;
}

/** After the commit that queued them: the emails and SMS go out now, within a short bound; the worker delivers the rest. */
export async function sendOutgoingNow(ctx: JobContext, out: Outgoing): Promise<void> {
  await Promise.all([out.mail.length ? sendMailNow(ctx, out.mail) : null, sendSmsNow(ctx, out.sms)]);
}

type InvitationKind = 'invitation' | 'next_signer' | 'reminder' | 'resend';

/** Queues the SMS with a signer's signing link, when SMS is one of their channels; returns its id. */
export async function queueInvitationSms(
  tx: Tx,
  o: {
    config: Config;
    request: SignatureRequestRow;
    signer: SignerRow;
    kind: InvitationKind;
    senderName: string;
    url: string;
    now: Date;
    /** the signer's language (locale.ts readerLocale) */
    locale: Locale;
  },
): Promise<number[]> {
  const { request, signer } = o;
  if (!signer.phone || !signerChannels(signer).sms) return [];
  const title = (request.snapshot as RequestSnapshot).template.name;
  const text = smsText(
    o.kind,
    {
      senderName: o.senderName,
      title,
      url: o.url,
      expiresAt: request.expires_at,
      part: signer.kind === 'signer' ? null : signer.kind,
    },
    o.locale,
  );
  const id = await queueSms(tx, {
    config: o.config,
    now: o.now,
    message: {
      kind: o.kind,
      to: signer.phone,
      text,
      accountId: request.account_id,
      environment: request.environment,
      signatureRequestId: request.id,
      signerId: signer.id,
    },
  });
  return [id];
}
