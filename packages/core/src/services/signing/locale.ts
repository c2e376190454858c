import type { Executor } from '@esign/db';
import { findSignerByTokenHash, getSigningRequest, setSignerLocale } from '@esign/db/queries/signing';
import { type Locale, negotiate } from '@esign/i18n';
import { sha256Hex } from '../../crypto.ts';
import { readerLocale } from '../locale.ts';
import { isPreviewToken } from '../templates/preview.ts';
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

/**
 * The language of the signing page's first HTML at /s/{token} and /e/{token} (issue 42.6): the
 * signer's, as signing.open will answer it (signer > request > account > Accept-Language), so the
 * title, the loading text and the no-JavaScript message are never English before the script runs.
 * Any link whose signer is not found (unknown, preview) reads the browser's language; a finished
 * signer or closed request still reads theirs (the page then says so in it).
 */
export async function signingPageLocale(
  db: Executor,
  token: string,
  acceptLanguage: string | null | undefined,
): Promise<Locale> {
  const signer = isPreviewToken(token) ? undefined : await findSignerByTokenHash(db, sha256Hex(token));
  if (!signer) return negotiate(acceptLanguage) ?? 'en';
  const request = await getSigningRequest(db, signer.signature_request_id);
  return (await readerLocale(db, { signer, request, acceptLanguage })).locale;
}
