/**
 * @esign/core/testing: internals that tests and benchmarks drive directly. Never imported by product
 * code (the src folders of apps and packages): scripts/core-entries.test.ts fails if it is.
 */

// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// Metrics.
export { createMetrics } from '../metrics/metrics.ts';
// Billing: the payment provider and settling a checkout.
export { checkoutPageUrl } from '../services/billing/hosted.ts';
export type { PaymentProvider } from '../services/billing/payment-provider.ts';
export { settleCheckout } from '../services/billing/settle-checkout.ts';
export { createStripeClient, stripeProvider } from '../services/billing/stripe.ts';
// Limits the tests check.
export { SPREADSHEET_LIMITS } from '../services/bulk/spreadsheet-limits.ts';
// Events and invitations written as a service would.
export { recordEvent } from '../services/events.ts';
// Sessions, sign-in secrets and file links.
export { downloadName, signFileLink } from '../services/file-links.ts';
// Running queued jobs and a job by hand.
export { enqueueJob, JOB_LEASE_MS, type JobContext } from '../services/jobs.ts';
export { LINK_VISITS_PER_IP_PER_HOUR } from '../services/links/policy.ts';
// Form logic, checked the same way in the browser and on the server.
export type { RequestSnapshot } from '../services/request-model.ts';
// Storage and produced files.
export { producedFiles } from '../services/request-model.ts';
export { SEAL_JOB } from '../services/sealing/queue.ts';
export { createSession } from '../services/sessions/sessions.ts';
export { SIGN_IN_RATE_LIMITS } from '../services/sessions/sign-in.ts';
export { sealTotpSeed } from '../services/sessions/totp.ts';
export { queueInvitation } from '../services/signature-requests/invitations.ts';
export { SIGNING_CONSENT_TEXT } from '../services/signing/consent.ts';
export { checkSubmission } from '../services/signing/form-logic.ts';
export {
  createFileStore,
  FileNotFoundError,
  type FileStore,
  LocalFileStore,
  S3FileStore,
  type StoredFileStream,
} from '../services/storage.ts';
export { renderTemplatePagesJob } from '../services/templates/render-pages.ts';
export { PUBLIC_VERIFY_PER_MINUTE } from '../services/verify.ts';
export { attemptWebhookDelivery } from '../services/webhooks/delivery.ts';
export { getWebhookDelivery } from '../services/webhooks/records.ts';
export { drainJobs, runOneJob } from '../services/worker.ts';
// What the HTTP-level tests moved out of core (issue 43.4) read directly.
export { sha256Hex } from '../crypto.ts';
export { requestsWithSmsProblems, requestTimeline } from '../services/dashboard/activity.ts';
export { verifyFileLink } from '../services/file-links.ts';
export { readMessageBacklog } from '../services/outbox-retry.ts';
export type { ProducedFile } from '../services/request-model.ts';
export { COMPLETION_LINK_TTL_SECONDS } from '../services/sealing/completion-mails.ts';
export { SIGNER_COPY_JOB } from '../services/sealing/signer-copy.ts';
export { twilioSignature } from '../services/sms/inbound.ts';
