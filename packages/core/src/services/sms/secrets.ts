import type { Executor, Tx } from '@esign/db';
import { purgeOutboxBodies, purgeSpentSecretBodies } from '@esign/db/queries/outbox';
import { CODE_KIND, SENT_MARKER, SIGNING_LINK_KINDS, SPENT_MARKER } from '../secret-markers.ts';
import { CODE_MAX_ATTEMPTS } from '../signing/code-policy.ts';

// Signing links and codes in the SMS outbox, by the mail outbox's rules (mail-secrets.ts): with a
// provider a body is purged once the provider took it; without one the outbox is the channel and a
// body stays while its link or code still works. Completion links (files) are kept.

/** Purges a message right after the provider accepted it (in the sending transaction). */
export async function purgeSentSms(db: Executor, smsId: number, now: Date): Promise<void> {
  await purgeOutboxBodies(db, 'sms_outbox', { rows: { id: smsId }, purge: { marker: SENT_MARKER, now } });
}

/** Purges the code messages, signing-link messages, or both, of these signers (their secret was spent). */
export async function purgeSignerSms(
  db: Executor,
  signerIds: number[],
  spent: { what: 'codes' | 'links' | 'all'; now: Date },
): Promise<void> {
  if (signerIds.length === 0) return;
  const kinds: string[] =
    spent.what === 'codes'
      ? [CODE_KIND]
      : spent.what === 'links'
        ? [...SIGNING_LINK_KINDS]
        : [CODE_KIND, ...SIGNING_LINK_KINDS];
  await purgeOutboxBodies(db, 'sms_outbox', {
    rows: { signerIds, kinds },
    purge: { marker: SPENT_MARKER, now: spent.now },
  });
}

/** Housekeeping: purges every body the rules no longer allow; returns how many rows changed. */
export async function purgeSmsSecrets(tx: Tx, now: Date): Promise<number> {
  const sent = await purgeOutboxBodies(tx, 'sms_outbox', {
    rows: { sent: true },
    purge: { marker: SENT_MARKER, now },
  });
  const spent = await purgeSpentSecretBodies(tx, 'sms_outbox', {
    spent: { codeKind: CODE_KIND, linkKinds: SIGNING_LINK_KINDS, codeMaxAttempts: CODE_MAX_ATTEMPTS },
    purge: { marker: SPENT_MARKER, now },
  });
  return sent + spent;
}
