import { setSignerLocale } from '@esign/db/queries/signing';
import type { Locale } from '@esign/i18n';
import { audit, requireSession, resolveLocked, type SignerCtx } from './context.ts';
import type { SigningInput } from './values.ts';

// Issue 32: the language a signer switches to on the signing page is theirs from then on. It is
// stored as the signer's `locale` (the first in the order signer > request > account >
// Accept-Language), so the emails and SMS that follow (reminders, the code, the signed copy, the
// completion link), the consent and the audit trail use it, and the API shows it. The sender can
// still change it with PATCH /signers. Audited as `signer.locale` with the language before and after.

/**
 * signing.setLocale: on an open link (with the code session when the request asks for one). A
 * choice equal to the stored language writes nothing.
 */
export async function setSigningLocale(
  sc: SignerCtx,
  input: SigningInput & { locale: Locale },
): Promise<{ locale: Locale; changed: boolean }> {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolveLocked(tx, input.token, sc.now);
    await requireSession(tx, sc, { signer: r.signer, session: input.session });
    const before = r.signer.locale;
    if (before === input.locale) return { locale: input.locale, changed: false };
    await setSignerLocale(tx, r.signer.id, { locale: input.locale, now: sc.now });
    await audit(tx, sc, { r, type: 'signer.locale', data: { from: before, to: input.locale } });
    return { locale: input.locale, changed: true };
  });
}
