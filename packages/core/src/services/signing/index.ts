/**
 * The signing page procedures, authenticated by the signer's token:
 * open.ts (signing.open), codes.ts (requestCode, verifyCode; limits in code-policy.ts),
 * values.ts (saveValues, decline), complete.ts (complete), locale.ts (setLocale); context.ts holds
 * the rules they share.
 */
export * from './code-policy.ts';
export { requestSigningCode, verifySigningCode } from './codes.ts';
export { completeSigning } from './complete.ts';

export type { SignerCtx } from './context.ts';

export { setSigningLocale } from './locale.ts';
export { openSigning } from './open.ts';
export { finishPart } from './parts.ts';
export { declineSigning, saveSigningValues } from './values.ts';
