/**
 * @esign/core/endpoints: the services behind the adapters' HTTP endpoints that are not procedures
 * (apps/web: inbound SMS, payment webhooks, file links, SSO redirects, the signing and embed pages;
 * apps/mcp: purchase links).
 */
// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// Inbound SMS and payment provider webhooks.
export { receivePaymentWebhook } from '../services/billing/answers.ts';
export { providerFor } from '../services/billing/providers.ts';
export { receiveInboundSms } from '../services/sms/inbound.ts';

// File links (/files/...) and short links.
export { readLinkedFile } from '../services/file-links.ts';
export { resolveShortFileLink } from '../services/short-file-links.ts';

// SSO sign-in: the redirect to the identity provider and the way back.
export { ssoStateFromCookie, ssoStateSetCookie } from '../services/sessions/cookies.ts';
export { finishSsoSignIn, SsoError, startSsoSignIn } from '../services/sessions/sso.ts';

// Signing and embed pages: their language and the origins that may frame them.
export { embedFrameOrigins } from '../services/embed/origins.ts';
export { signingPageLocale } from '../services/signing/locale.ts';

// MCP: whether the account offers purchases, and removing purchase links when it does not.
export { omitPurchaseLinks, purchasesOffered } from '../services/billing/offer.ts';
