import { sql } from 'kysely';
import { type Executor, json, type Tx } from '../connection.ts';
import type { JobRow } from '../schema.ts';

// Issue 34.2, automatic reminders: the account's default schedule, the per-signer count, and the
// job's own completion written in the transaction of the reminders it sent.

/** A request's automatic reminders: every `every_hours`, at most `max` per signer. */
export interface ReminderSchedule {
  every_hours: number;
  max: number;
}

/** The account's default schedule (null: none). */
export async function findDefaultReminders(
  db: Executor,
  accountId: number,
): Promise<ReminderSchedule | null> {
  const row = await db
    .selectFrom('accounts')
    .select('default_reminders')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.default_reminders ?? null;
}

export async function setDefaultReminders(
  db: Executor,
  accountId: number,
  schedule: ReminderSchedule | null,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ default_reminders: schedule === null ? null : json(schedule), updated_at: new Date() })
    .where('id', '=', accountId)
    .execute();
}

/** Counts one automatic reminder for each of these signers. */
export async function countAutoReminders(tx: Tx, signerIds: readonly number[]): Promise<void> {
  if (signerIds.length === 0) return;
  await tx
    .updateTable('signers')
    .set({ auto_reminders: sql`auto_reminders + 1` })
    .where('id', 'in', [...signerIds])
    .execute();
}

/**
 * Marks the job done in the caller's transaction if this claim still holds it (same worker and
 * attempt, still running): false when another worker took it over, and then nothing may be sent.
 * Committed with the reminders, so a reminder is never sent by two claims, nor twice by one.
 */
export async function finishHeldJob(
  tx: Tx,
  job: Pick<JobRow, 'id' | 'locked_by' | 'attempts'>,
  now: Date,
): Promise<boolean> {
  const result = await tx
    .updateTable('jobs')
    .set({ status: 'done', finished_at: now, locked_until: null, last_error: null })
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .where('attempts', '=', job.attempts)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
