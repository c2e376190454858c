/**
 * @esign/core/testing: internals that tests and benchmarks drive directly. Never imported by product
 * code (the src folders of apps and packages): scripts/core-entries.test.ts fails if it is. The
 * names are listed by the module that defines them.
 */

// biome-ignore-all assist/source/organizeImports: one list, in the order of the defining modules

export { sha256Hex } from '../crypto.ts';
export { createMetrics } from '../metrics/metrics.ts';
export { checkoutPageUrl } from '../services/billing/hosted.ts';
export type { PaymentProvider } from '../services/billing/payment-provider.ts';
export { settleCheckout } from '../services/billing/settle-checkout.ts';
export { createStripeClient, stripeProvider } from '../services/billing/stripe.ts';
export { SPREADSHEET_LIMITS } from '../services/bulk/spreadsheet-limits.ts';
export { requestsWithSmsProblems, requestTimeline } from '../services/dashboard/activity.ts';
export { recordEvent } from '../services/events.ts';
export { downloadName, signFileLink, verifyFileLink } from '../services/file-links.ts';
export { enqueueJob, JOB_LEASE_MS, type JobContext } from '../services/jobs.ts';
export { LINK_VISITS_PER_IP_PER_HOUR } from '../services/links/policy.ts';
export { readMessageBacklog } from '../services/outbox-retry.ts';
export { type ProducedFile, producedFiles, type RequestSnapshot } from '../services/request-model.ts';
export { COMPLETION_LINK_TTL_SECONDS } from '../services/sealing/completion-mails.ts';
export { SEAL_JOB } from '../services/sealing/queue.ts';
export { SIGNER_COPY_JOB } from '../services/sealing/signer-copy.ts';
export { createSession } from '../services/sessions/sessions.ts';
export { SIGN_IN_RATE_LIMITS } from '../services/sessions/sign-in.ts';
export { sealTotpSeed } from '../services/sessions/totp.ts';
export { queueInvitation } from '../services/signature-requests/invitations.ts';
export { SIGNING_CONSENT_TEXT } from '../services/signing/consent.ts';
export { checkSubmission } from '../services/signing/form-logic.ts';
export { twilioSignature } from '../services/sms/inbound.ts';
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
