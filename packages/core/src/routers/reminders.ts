import { ReminderDefaultsInput, ReminderDefaultsOutput } from '../contracts/reminders.ts';
import { getReminderDefaults, setReminderDefaults } from '../services/signature-requests/auto-reminders.ts';
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
});
