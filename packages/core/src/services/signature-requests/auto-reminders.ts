import type { JobRow, SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import {
  countAutoReminders,
  findDefaultReminders,
  finishHeldJob,
  type ReminderSchedule,
  setDefaultReminders,
} from '@esign/db/queries/auto-reminders';
import { findPendingJobRunAt } from '@esign/db/queries/jobs';
import { listRequestSigners, lockSigningRequest } from '@esign/db/queries/signing';
import type { Actor, Scope } from '../../context.ts';
import { REMINDER_BOUNDS } from '../../contracts/reminders.ts';
import { recordAudit } from '../audit.ts';
import { recordEvent } from '../events.ts';
import { enqueueJob, type JobContext, RetryLater } from '../jobs.ts';
import { remindAllowedAt, remindableSigners, remindLockedSigners } from './lifecycle.ts';
import { loadSigners, requireRequest } from './queries.ts';
import { effectiveStatus, isFinished, REMIND_INTERVAL_MS, wasInvitedByEmail } from './status.ts';

// Issue 34.2, automatic reminders. A request with `reminders` ({ every_hours, max }) has one job
// `request.auto_remind` in the durable queue at a time (unique key per request). When it runs, in
// ONE transaction: it marks itself done if its claim still holds (finishHeldJob), locks the
// request, reminds through the same core function as POST /remind (remindLockedSigners: same
// signers, same hourly limit, same audit entry), counts each signer's automatic reminders, and
// enqueues the next run. So a worker that dies before the commit sends nothing (the job is taken
// over when its lease runs out), one that dies after it has nothing left to redo (the job is done
// in the same commit), and two workers never both send: the queue's SKIP LOCKED claim, the claim
// check in the commit and the request's row lock each stand in the way.

export const AUTO_REMIND_JOB = 'request.auto_remind';

const HOUR_MS = 3_600_000;
const uniqueKey = (requestId: number) => `auto_remind:${requestId}`;

/** Enqueues the first run of every written request that has a schedule (in the send's transaction). */
export async function scheduleAutoReminders(
  tx: Tx,
  requests: Pick<SignatureRequestRow, 'id' | 'reminders' | 'send_email'>[],
  now: Date,
): Promise<void> {
  for (const r of requests) {
    // Without send_email the sender shares the links: /remind has nobody invited to remind.
    if (!r.reminders || !r.send_email) continue;
    await enqueueAutoRemind(tx, r.id, new Date(now.getTime() + r.reminders.every_hours * HOUR_MS));
  }
}

function enqueueAutoRemind(tx: Tx, requestId: number, runAt: Date): Promise<void> {
  return enqueueJob(tx, {
    kind: AUTO_REMIND_JOB,
    payload: { signature_request_id: requestId },
    runAt,
    uniqueKey: uniqueKey(requestId),
  });
}

/** Whether the request still reminds anyone: open (sent or in progress, not past its expiry), emailing. */
function stillOpen(request: SignatureRequestRow, now: Date): boolean {
  if (!request.send_email) return false;
  const status = effectiveStatus(request, now);
  return status === 'sent' || status === 'in_progress';
}

/**
 * When the next run is due: the earliest time a signer who can still get an automatic reminder
 * (by email or SMS) is `every_hours` past their last link; null when no signer can get one now. A signer whose turn
 * has not come (`waiting`) is not looked at: their schedule starts when their turn comes
 * (rearmAutoReminders from the signing that invites them). Never sooner than the hourly limit.
 */
function nextAutoRemindAt(signers: SignerRow[], schedule: ReminderSchedule, now: Date): Date | null {
  const every = schedule.every_hours * HOUR_MS;
  let next: number | null = null;
  for (const s of signers) {
    // Reminders go by each signer's channel (issue 42.4): a phone-only signer is texted each time.
    if (isFinished(s) || (!s.email && !s.phone) || s.auto_reminders >= schedule.max) continue;
    if (!wasInvitedByEmail(s) || !s.last_emailed_at) continue;
    const at = s.last_emailed_at.getTime() + every;
    next = next === null ? at : Math.min(next, at);
  }
  if (next === null) return null;
  return new Date(Math.max(next, now.getTime() + REMIND_INTERVAL_MS));
}

/** The signers due now: remindable by /remind's rules, under `max`, `every_hours` past their last email. */
function dueSigners(remindable: SignerRow[], schedule: ReminderSchedule, now: Date): SignerRow[] {
  const cutoff = now.getTime() - schedule.every_hours * HOUR_MS;
  return remindable.filter(
    (s) => s.auto_reminders < schedule.max && !!s.last_emailed_at && s.last_emailed_at.getTime() <= cutoff,
  );
}

async function remindDue(ctx: JobContext, tx: Tx, request: SignatureRequestRow, now: Date) {
  const schedule = request.reminders!;
  const due = dueSigners(await remindableSigners(tx, request.id), schedule, now);
  if (due.length === 0) return [];
  await remindLockedSigners(ctx, tx, { request, signers: due, by: { kind: 'system' }, now, automatic: true });
  await countAutoReminders(
    tx,
    due.map((s) => s.id),
  );
  const scope = { accountId: request.account_id, environment: request.environment };
  for (const s of due)
    await recordEvent(tx, scope, { type: 'signer.reminded', objectType: 'signer', objectId: s.id, now });
  return due.map((s) => s.id);
}

/** One run, in the caller's transaction; returns the signers reminded. */
async function autoRemindLocked(ctx: JobContext, tx: Tx, requestId: number, job: JobRow) {
  const now = ctx.now();
  // First: this claim must still hold the job, and its completion commits with what it sends.
  if (!(await finishHeldJob(tx, job, now))) throw new RetryLater('the job was taken over by another worker');
  const request = await lockSigningRequest(tx, requestId);
  if (!request.reminders || !stillOpen(request, now)) return [];
  const blockedUntil = remindAllowedAt(request, now);
  if (blockedUntil) {
    await enqueueAutoRemind(tx, requestId, blockedUntil);
    return [];
  }
  const reminded = await remindDue(ctx, tx, request, now);
  const next = nextAutoRemindAt(await listRequestSigners(tx, requestId), request.reminders, now);
  if (next) await enqueueAutoRemind(tx, requestId, next);
  return reminded;
}

/** The job `request.auto_remind` (payload: signature_request_id). The emails go out as mail jobs. */
export async function autoRemindJob(
  ctx: JobContext,
  payload: Record<string, unknown>,
  job: JobRow,
): Promise<'finished'> {
  const requestId = Number(payload.signature_request_id);
  const reminded = await ctx.db.transaction().execute((tx) => autoRemindLocked(ctx, tx, requestId, job));
  if (reminded.length) ctx.logger.info({ requestId, signerIds: reminded }, 'automatic reminders queued');
  return 'finished';
}

/**
 * Re-arms the schedule of a request when a signer's turn comes (the next signer of a sequential
 * order is invited, or a signer handed their turn on): their first reminder `every_hours` from now.
 * A no-op while a run is queued: that run finds them not yet due and schedules them itself.
 */
export async function rearmAutoReminders(tx: Tx, request: SignatureRequestRow, now: Date): Promise<void> {
  if (!request.reminders || !request.send_email) return;
  await enqueueAutoRemind(tx, request.id, new Date(now.getTime() + request.reminders.every_hours * HOUR_MS));
}

/**
 * A request's automatic reminders for the dashboard's request page: the schedule, whether it still
 * runs (`open`: the request is sent or in progress and its signers were emailed), when its next run
 * is queued (null when none is: no signer can get one now, or the request ended, even while the
 * last queued run has yet to notice), and how many each signer got. Another account's request is
 * `404 not_found`.
 */
export async function reminderSchedule(ctx: Pick<JobContext, 'db' | 'now'>, scope: Scope, id: number) {
  const request = await requireRequest(ctx.db, scope, id);
  const open = Boolean(request.reminders) && stillOpen(request, ctx.now());
  const nextRunAt = open ? await findPendingJobRunAt(ctx.db, uniqueKey(id)) : null;
  const signers = await loadSigners(ctx.db, id);
  return {
    object: 'reminder_schedule' as const,
    signature_request_id: id,
    reminders: request.reminders,
    open,
    next_run_at: nextRunAt?.toISOString() ?? null,
    signers: signers.map((s) => ({ id: s.id, sent: s.auto_reminders })),
  };
}

/** The dashboard's account default: the schedule of requests whose sender names none. */
export async function getReminderDefaults(ctx: Pick<JobContext, 'db'>, actor: Actor) {
  return reminderDefaultsDto(await findDefaultReminders(ctx.db, actor.accountId));
}

/** Sets (or, with null, clears) the account default; audited. */
export async function setReminderDefaults(
  ctx: Pick<JobContext, 'db' | 'now'>,
  actor: Actor,
  reminders: ReminderSchedule | null,
) {
  await ctx.db.transaction().execute(async (tx) => {
    await setDefaultReminders(tx, actor.accountId, reminders);
    await recordAudit(
      tx,
      { accountId: actor.accountId, environment: actor.environment },
      {
        type: 'account.default_reminders_changed',
        by: { kind: 'actor', actor },
        data: { reminders },
        now: ctx.now(),
      },
    );
  });
  return reminderDefaultsDto(reminders);
}

function reminderDefaultsDto(reminders: ReminderSchedule | null) {
  return {
    object: 'reminder_defaults' as const,
    reminders,
    bounds: {
      min_every_hours: REMINDER_BOUNDS.minEveryHours,
      max_every_hours: REMINDER_BOUNDS.maxEveryHours,
      max_reminders: REMINDER_BOUNDS.maxMax,
    },
  };
}
