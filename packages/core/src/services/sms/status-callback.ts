import type { Db } from '@esign/db';
import { markSentSmsUndeliverable } from '@esign/db/queries/sms';
import type { Config } from '../../config.ts';
import { recordAudit } from '../audit.ts';
import { tellSenderSmsUndeliverable } from './undeliverable.ts';

// Issue 42 item 5: Twilio's final delivery status for a message it had accepted. Messages are sent
// with StatusCallback = `${PUBLIC_URL}/webhooks/sms` (twilio.ts); the same address receives
// replies (inbound.ts), which carry no MessageStatus. `undelivered` and `failed` are final: the
// message becomes `undeliverable` and the sender is told, as for a refusal when sending.

/** Twilio's final failure statuses (its other statuses, queued … delivered, change nothing). */
const FINAL_FAILURES = new Set(['undelivered', 'failed']);

/** Whether these verified parameters are a status callback (not a reply). */
export const isStatusCallback = (params: URLSearchParams) =>
  params.has('MessageStatus') && params.has('MessageSid') && !params.has('Body');

/** One verified status callback; whether it settled a message as undeliverable. */
export async function receiveSmsStatus(
  ctx: { db: Db; config: Config; now: () => Date },
  params: URLSearchParams,
): Promise<boolean> {
  const status = params.get('MessageStatus') ?? '';
  const providerId = params.get('MessageSid') ?? '';
  if (!FINAL_FAILURES.has(status) || !providerId) return false;
  const code = params.get('ErrorCode');
  const error = `Twilio reported the message ${status}${code ? ` (error ${code})` : ''}`;
  const now = ctx.now();
  return ctx.db.transaction().execute(async (tx) => {
    const sms = await markSentSmsUndeliverable(tx, providerId, error);
    if (!sms) return false;
    if (sms.account_id && sms.environment && sms.signature_request_id) {
      await recordAudit(
        tx,
        { accountId: sms.account_id, environment: sms.environment },
        {
          type: 'sms.failed',
          by: { kind: 'system' },
          signatureRequestId: sms.signature_request_id,
          signerId: sms.signer_id,
          data: { sms_id: sms.id, kind: sms.kind, error, retried: false, status },
          now,
        },
      );
    }
    await tellSenderSmsUndeliverable(tx, { config: ctx.config, now, sms, error });
    return true;
  });
}
