import { type Locale, t } from '@esign/i18n';

/**
 * The consent sentence the signing page shows next to the button that signs, in the signer's
 * language (@esign/i18n `consent.text`). signing.open returns it (`consent_text`) in the page's
 * language so every client shows the same words, and signing.complete records the sentence in the
 * language the page showed (`consent`, with `locale`) in the `signer.signed` audit entry, which the
 * sealed audit trail prints.
 */
export function consentText(locale: Locale): string {
  return t(locale, 'consent.text');
}

/** The English consent sentence. */
export const SIGNING_CONSENT_TEXT = consentText('en');
