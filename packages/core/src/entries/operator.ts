/** @esign/core/operator: the operator's commands, as the `esign` CLI (apps/cli) calls them. */
// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// Accounts, users and API keys.
export {
  archiveAccount,
  createAccount,
  createUser,
  requireUserByEmail,
  updateUser,
} from '../services/accounts.ts';
export { issueApiKey, revokeApiKey } from '../services/api-keys.ts';
export { makeSsoOptional, resetUserSecondStep } from '../services/sessions/second-step-rule.ts';

// Credits and billing: grants, packs, discount codes, checkouts, answering a payment by hand.
export { answerAsOperator } from '../services/billing/answers.ts';
export { toCheckoutDto } from '../services/billing/checkouts.ts';
export { createDiscountCode, type NewDiscountCode, toDiscountDto } from '../services/billing/discounts.ts';
export { parseAmount } from '../services/billing/money.ts';
export { setPurchasesOffered } from '../services/billing/offer.ts';
export { createCreditPack, snapshotOf, toCreditPackDto } from '../services/billing/packs.ts';
export { getCredits, grantCredits } from '../services/credits.ts';

// Webhook endpoints and their deliveries.
export { sendTestWebhook } from '../services/webhooks/delivery.ts';
export {
  createWebhookEndpoint,
  disableWebhookEndpoint,
  listWebhookEndpoints,
  webhookEndpointScope,
} from '../services/webhooks/endpoints.ts';
export { listWebhookDeliveries } from '../services/webhooks/records.ts';

// Outboxes and failures: mail, SMS, sealing; listing and retrying.
export { listMail } from '../services/mail.ts';
export { type MessageChannel, retryUndeliverableMessages } from '../services/outbox-retry.ts';
export { assertSealingRetryable, listFailedSealing } from '../services/sealing-failures.ts';
export { retrySealing } from '../services/sealing/queue.ts';
export { listSms } from '../services/sms/outbox.ts';
