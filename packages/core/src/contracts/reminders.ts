import { z } from 'zod';

// Issue 34.2 and 34.3: the optional extensions of POST /signature_requests this module owns
// (automatic reminders, handing a turn to someone else) and the account's default schedule.

/** The documented bounds of an automatic reminder schedule (docs/sending.md). */
export const REMINDER_BOUNDS = { minEveryHours: 24, maxEveryHours: 720, minMax: 1, maxMax: 10 } as const;

const ReminderSchedule = z
  .object({
    every_hours: z
      .number()
      .int()
      .min(REMINDER_BOUNDS.minEveryHours)
      .max(REMINDER_BOUNDS.maxEveryHours)
      .describe(
        `hours between reminders, counted from the last email each signer got (${REMINDER_BOUNDS.minEveryHours} to ${REMINDER_BOUNDS.maxEveryHours})`,
      ),
    max: z
      .number()
      .int()
      .min(REMINDER_BOUNDS.minMax)
      .max(REMINDER_BOUNDS.maxMax)
      .describe(
        `at most this many automatic reminders per signer (${REMINDER_BOUNDS.minMax} to ${REMINDER_BOUNDS.maxMax})`,
      ),
  })
  .strict();

/** The input keys added to POST /signature_requests (extensions; the spec's keys are unchanged). */
export const ReminderInputFields = {
  reminders: ReminderSchedule.nullable()
    .optional()
    .describe(
      'extension: automatic reminders, e.g. {"every_hours": 72, "max": 3}: signers whose turn it is and who have not signed get their link again by the same rules as /remind; null: none; omitted: the account\'s default (dashboard, Account)',
    ),
  allow_delegation: z
    .boolean()
    .default(false)
    .describe(
      'extension, default false: a signer may hand their turn to another person (name and email or phone, with a reason) on the signing page; the old link stops working',
    ),
};

/** The output keys added to the Signature request (only when set). */
export const ReminderOutputFields = {
  reminders: ReminderSchedule.optional().describe('extension: the automatic reminder schedule, when set'),
  allow_delegation: z.boolean().optional().describe('extension: true when signers may hand their turn on'),
};

/** The dashboard's account default (admins change it). */
export const ReminderDefaultsInput = z.object({ reminders: ReminderSchedule.nullable() });
export const ReminderDefaultsOutput = z.object({
  object: z.literal('reminder_defaults'),
  reminders: ReminderSchedule.nullable(),
  bounds: z.object({
    min_every_hours: z.number(),
    max_every_hours: z.number(),
    max_reminders: z.number(),
  }),
});

/** A request's automatic reminders as the dashboard's request page shows them. */
export const ReminderScheduleOutput = z.object({
  object: z.literal('reminder_schedule'),
  signature_request_id: z.number(),
  reminders: ReminderSchedule.nullable(),
  /** Whether reminders can still go out: the request has a schedule and is still open. */
  open: z.boolean(),
  /** When the next run looks for signers due (ISO 8601); null when none is scheduled. */
  next_run_at: z.string().nullable(),
  /** Automatic reminders each signer got so far, out of `reminders.max` while `open`. */
  signers: z.array(z.object({ id: z.number(), sent: z.number() })),
});
