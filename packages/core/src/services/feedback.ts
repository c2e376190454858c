import type { Tx } from '@esign/db';
import { countUserFeedbackSince, insertFeedback } from '@esign/db/queries/feedback';
import { lockUser } from '@esign/db/queries/users';
import type { Config } from '../config.ts';
import type { Actor, Source } from '../context.ts';
import type { FeedbackKind } from '../contracts/feedback.ts';
import { CoreError } from '../errors.ts';
import { escapeHtml, queueMail } from './mail.ts';
import type { ServiceContext } from './service-context.ts';

const FEEDBACK_PER_HOUR = 20;

export interface FeedbackDto {
  object: 'feedback';
  id: number;
  kind: FeedbackKind;
  message: string;
  source: string;
  created_at: string;
}

/** Where feedback goes: OPERATOR_EMAIL, else the address of MAIL_FROM. */
function operatorEmail(config: Pick<Config, 'OPERATOR_EMAIL' | 'MAIL_FROM'>): string {
  return config.OPERATOR_EMAIL ?? config.MAIL_FROM.replace(/^.*<([^>]+)>.*$/, '$1');
}

/**
 * POST /feedback: stores a message for the operator and queues its email (the worker sends it),
 * at most 20 per user per clock hour (429 rate_limited with Retry-After = seconds to the next hour).
 */
export async function sendFeedback(
  sc: ServiceContext,
  actor: Actor,
  { source, ...input }: { kind: FeedbackKind; message: string; source: Source },
): Promise<FeedbackDto> {
  const now = sc.now();
  const to = operatorEmail(sc.config);
  const row = await sc.db
    .transaction()
    .execute((tx) => storeFeedback(tx, actor, input, { now, source, operatorEmail: to }));
  return {
    object: 'feedback',
    id: row.id,
    kind: row.kind as FeedbackKind,
    message: row.message,
    source: row.source,
    created_at: row.created_at.toISOString(),
  };
}

async function storeFeedback(
  tx: Tx,
  actor: Actor,
  input: { kind: FeedbackKind; message: string },
  opts: { now: Date; source: Source; operatorEmail: string },
) {
  // Serialise one user's submissions so concurrent requests cannot pass the limit together.
  if (!(await lockUser(tx, actor.userId)))
    throw new CoreError('not_found', `User ${actor.userId} was not found`);
  const hourStart = new Date(Math.floor(opts.now.getTime() / 3_600_000) * 3_600_000);
  if ((await countUserFeedbackSince(tx, actor.userId, hourStart)) >= FEEDBACK_PER_HOUR) {
    const retry = Math.max(1, Math.ceil((hourStart.getTime() + 3_600_000 - opts.now.getTime()) / 1000));
    throw new CoreError(
      'rate_limited',
      `At most ${FEEDBACK_PER_HOUR} feedback messages per hour; retry in ${retry} s`,
      {
        retryAfterSeconds: retry,
      },
    );
  }
  const row = await insertFeedback(tx, {
    accountId: actor.accountId,
    environment: actor.environment,
    userId: actor.userId,
    apiKeyId: actor.apiKeyId,
    kind: input.kind,
    message: input.message,
    source: opts.source,
    now: opts.now,
  });
  const label = input.kind.replace('_', ' ');
  await queueMail(tx, {
    kind: 'feedback',
    to: opts.operatorEmail,
    replyTo: actor.userEmail,
    subject: `[${label}] from ${actor.userEmail}`,
    text: `${label} #${row.id} from ${actor.userEmail} (account ${actor.accountId}, ${actor.environment}, via ${opts.source}):\n\n${input.message}\n`,
    html: `<p><strong>${escapeHtml(label)}</strong> #${row.id} from ${escapeHtml(actor.userEmail)} (account ${actor.accountId}, ${actor.environment}, via ${opts.source}):</p><pre>${escapeHtml(input.message)}</pre>`,
    accountId: actor.accountId,
    environment: actor.environment,
  });
  return row;
}
