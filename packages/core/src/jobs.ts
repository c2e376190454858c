import type { JobHandler } from './services/jobs.ts';
import { sendMailJob } from './services/mail.ts';

/** Every background job kind the worker runs. */
export const jobHandlers: Record<string, JobHandler> = {
  'mail.send': sendMailJob,
};
