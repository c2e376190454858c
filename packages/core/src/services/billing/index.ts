// Billing (the spec's Billing section): packs, discount codes, checkouts and their payment providers.
export * from './answers.ts';
export * from './checkouts.ts';
export * from './discounts.ts';
export * from './hosted.ts';
export * from './money.ts';
export * from './offer.ts';
export * from './packs.ts';
export * from './providers.ts';
export * from './settle-checkout.ts';
export * from './start-checkout.ts';
export { createStripeClient, readStripeEvent, type StripeEndpoint, stripeProvider } from './stripe.ts';
