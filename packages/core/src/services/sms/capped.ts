import type { Environment, Tx } from '@esign/db';
import { findSmsCappedContext } from '@esign/db/queries/sms';
import type { Config } from '../../config.ts';
import { layout } from '../emails.ts';
import { recordEvent } from '../events.ts';
import { queueMail } from '../mail.ts';

// Issue 42.3: an SMS to a signer kept back by the account's daily limit (SMS_DAILY_LIMIT) reaches
// the sender, not only the request's timeline: the extension webhook event `signer.sms_capped`
// for each one, and an email once a day per request (the first capped SMS of the request in 24
// hours), since a capped code or link is a signer who cannot sign until the sender steps in.

const DAY_MS = 24 * 3600_000;

export interface CappedSms {
  kind: string;
  accountId: number;
  environment: Environment;
  signatureRequestId: number;
  signerId: number | null;
}

/** What queueSms needs before it writes the capped message: the request's sender and whether to email them. */
export async function cappedContext(tx: Tx, sms: CappedSms, now: Date) {
  return findSmsCappedContext(tx, sms.signatureRequestId, new Date(now.getTime() - DAY_MS));
}

type Context = NonNullable<Awaited<ReturnType<typeof cappedContext>>>;

/** The event and (once a day per request) the sender's email for one capped SMS. */
export async function tellSenderSmsCapped(
  tx: Tx,
  o: { config: Config; now: Date; sms: CappedSms; context: Context | undefined },
): Promise<void> {
  const { sms, context, now } = o;
  const scope = { accountId: sms.accountId, environment: sms.environment };
  if (sms.signerId !== null) {
    await recordEvent(tx, scope, {
      type: 'signer.sms_capped',
      objectType: 'signer',
      objectId: sms.signerId,
      now,
    });
  }
  const to = context?.sender_email ?? context?.reply_to;
  if (!context || context.capped_before || !to) return;
  const title = context.template_name ?? `#${sms.signatureRequestId}`;
  const mail = layout(
    [
      `An SMS (${sms.kind}) to a signer of "${title}" was not sent: your account reached its limit of ${o.config.SMS_DAILY_LIMIT} SMS in 24 hours.`,
      'The signer cannot receive their link or one-time code by SMS until the limit frees up. Share their signing link another way, or ask your administrator to raise SMS_DAILY_LIMIT.',
    ],
    { url: `${o.config.PUBLIC_URL}/requests/${sms.signatureRequestId}`, label: 'Open the request' },
    'You get this email once a day per request while its SMS are held back by the daily limit.',
  );
  await queueMail(tx, {
    kind: 'sms_capped_notice',
    to,
    subject: `SMS not sent for "${title}": daily SMS limit reached`,
    ...mail,
    accountId: sms.accountId,
    environment: sms.environment,
  });
}
