import { scopeOf } from '../context.ts';
import {
  ReminderDefaultsInput,
  ReminderDefaultsOutput,
  ReminderScheduleOutput,
} from '../contracts/reminders.ts';
import { IdInput } from '../contracts/signature-requests.ts';
import {
  getReminderDefaults,
  reminderSchedule,
  setReminderDefaults,
} from '../services/signature-requests/auto-reminders.ts';
import { actorProcedure, adminProcedure, router } from '../trpc.ts';

/** Issue 34.2: the account's default automatic reminders (dashboard, Account; admins change it). */
export const remindersRouter = router({
  defaults: actorProcedure
    .output(ReminderDefaultsOutput)
    .query(({ ctx }) => getReminderDefaults(ctx, ctx.actor)),
  setDefaults: adminProcedure
    .input(ReminderDefaultsInput)
    .output(ReminderDefaultsOutput)
    .mutation(({ ctx, input }) => setReminderDefaults(ctx, ctx.actor, input.reminders)),
  /** A request's schedule, next run and reminders sent per signer (the dashboard's request page). */
  schedule: actorProcedure
    .input(IdInput)
    .output(ReminderScheduleOutput)
    .query(({ ctx, input }) => reminderSchedule(ctx, scopeOf(ctx.actor), input.id)),
});
