import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import type { Config } from '../../config.ts';
import { readerLocale } from '../locale.ts';
import { signerChannels } from './delivery.ts';
import { queueSms } from './outbox.ts';
import { smsText } from './texts.ts';

/**
 * The completion link by SMS, to every signer reached by SMS (sms/delivery.ts), once per number, in
 * the signer's language:
 * the one combined file when there is one (an SMS is paid per segment), else each document.
 */
export async function queueCompletionSms(
  tx: Tx,
  o: {
    config: Config;
    request: SignatureRequestRow;
    signers: SignerRow[];
    links: { kind: string; url: string }[];
    title: string;
    until: Date;
    now: Date;
  },
): Promise<void> {
  const combined = o.links.filter((l) => l.kind === 'combined');
  const urls = (combined.length ? combined : o.links.filter((l) => l.kind !== 'audit_trail')).map(
    (l) => l.url,
  );
  const texted = new Set<string>();
  for (const s of o.signers) {
    if (!s.phone || !signerChannels(s).sms || texted.has(s.phone)) continue;
    texted.add(s.phone);
    const { locale } = await readerLocale(tx, { signer: s, request: o.request });
    await queueSms(tx, {
      config: o.config,
      now: o.now,
      message: {
        kind: 'request.completed',
        to: s.phone,
        text: smsText(
          'request.completed',
          { title: o.title, urls, until: o.until, test: o.request.environment === 'test' },
          locale,
        ),
        accountId: o.request.account_id,
        environment: o.request.environment,
        signatureRequestId: o.request.id,
        signerId: s.id,
      },
    });
  }
}
