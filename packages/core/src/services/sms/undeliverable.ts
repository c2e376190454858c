import type { SmsRow, Tx } from '@esign/db';
import { findSmsCappedContext } from '@esign/db/queries/sms';
import type { Config } from '../../config.ts';
import { layout } from '../emails.ts';
import { recordEvent } from '../events.ts';
import { queueMail } from '../mail.ts';

// Issue 42 item 5: an SMS to a signer that the provider gave up on (a refusal such as an invalid
// number, or failures past the retry window) reaches the sender, not only the request's timeline:
// the extension webhook event `signer.sms_undeliverable` and an email naming what to do. The
// requests list's badge (listRequestsWithUndeliveredSms) shows it until a later SMS goes out.

/** The event and the sender's email for one SMS that became `undeliverable`, in its transaction. */
export async function tellSenderSmsUndeliverable(
  tx: Tx,
  o: { config: Config; now: Date; sms: SmsRow; error: string },
): Promise<void> {
  const { sms, now } = o;
  if (sms.signature_request_id === null || sms.account_id === null || sms.environment === null) return;
  const scope = { accountId: sms.account_id, environment: sms.environment };
  if (sms.signer_id !== null) {
    await recordEvent(tx, scope, {
      type: 'signer.sms_undeliverable',
      objectType: 'signer',
      objectId: sms.signer_id,
      now,
    });
  }
  const context = await findSmsCappedContext(tx, sms.signature_request_id, now);
  const to = context?.sender_email ?? context?.reply_to;
  if (!context || !to) return;
  const title = context.template_name ?? `#${sms.signature_request_id}`;
  const mail = layout(
    [
      `An SMS (${sms.kind}) to a signer of "${title}" could not be delivered. The SMS provider said: ${o.error.slice(0, 300)}`,
      'The signer has not received their link or code by SMS. Check their phone number: open the request and use Edit or resend to correct it, or share their signing link another way.',
    ],
    { url: `${o.config.PUBLIC_URL}/requests/${sms.signature_request_id}`, label: 'Open the request' },
    'You get this email for each SMS to your signers that could not be delivered.',
  );
  await queueMail(tx, {
    kind: 'sms_undeliverable_notice',
    to,
    subject: `SMS not delivered for "${title}"`,
    ...mail,
    accountId: sms.account_id,
    environment: sms.environment,
  });
}
