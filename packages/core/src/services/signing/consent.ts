/**
 * The consent sentence the signing page shows next to the button that signs. signing.open returns
 * it (`consent_text`) so every client shows the same words, and signing.complete records it in the
 * `signer.signed` audit entry (`consent`, at the entry's time), which the sealed audit trail prints.
 */
export const SIGNING_CONSENT_TEXT =
  'By selecting Sign you agree that your electronic signature and the values you entered are the legal equivalent of your handwritten signature on this document.';
