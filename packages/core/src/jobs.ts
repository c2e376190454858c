import { BULK_SEND_JOB, bulkSendJob } from './services/bulk/index.ts';
import type { JobHandler, JobKind } from './services/jobs.ts';
import { MAIL_SEND_JOB, sendMailJob } from './services/mail.ts';
import { SEAL_JOB, SIGNER_COPY_JOB, sealRequestJob, signerCopyJob } from './services/sealing/index.ts';
import { withSealingGiveUpReport } from './services/sealing-failures.ts';
import { EMAIL_LINK_JOB, emailLinkJob } from './services/sessions/sign-in.ts';
import { AUTO_REMIND_JOB, autoRemindJob } from './services/signature-requests/auto-reminders.ts';
import { SMS_SEND_JOB, sendSmsJob } from './services/sms/index.ts';
import { RENDER_PAGES_JOB, renderTemplatePagesJob } from './services/templates/index.ts';
import { WEBHOOK_DELIVER_JOB, webhookDeliverJob } from './services/webhooks/index.ts';

/** The handler of every background job kind the worker runs: one per `JobKind`, checked by the compiler. */
export const jobHandlers = {
  [MAIL_SEND_JOB]: sendMailJob,
  // SMS to signers (issue 32): Twilio, or kept in the SMS outbox; failures retried, then `undeliverable`.
  [SMS_SEND_JOB]: sendSmsJob,
  // When the last attempt fails: an error log naming `esign sealing retry`, and an audit entry.
  [SEAL_JOB]: withSealingGiveUpReport(sealRequestJob),
  // A signer's own signed copy, right after they sign (the final seal replaces it at completion).
  [SIGNER_COPY_JOB]: signerCopyJob,
  [WEBHOOK_DELIVER_JOB]: webhookDeliverJob,
  [RENDER_PAGES_JOB]: renderTemplatePagesJob,
  [BULK_SEND_JOB]: bulkSendJob,
  // A sign-in link or password reset: queued for every address, so the request's timing tells nothing.
  [EMAIL_LINK_JOB]: emailLinkJob,
  // Issue 34.2: a request's automatic reminders; marks itself done in the commit of what it sent.
  [AUTO_REMIND_JOB]: autoRemindJob,
} satisfies Record<JobKind, JobHandler>;
