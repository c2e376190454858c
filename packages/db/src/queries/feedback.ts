import type { Executor } from '../connection.ts';
import type { Environment } from '../schema.ts';

// Messages for the operator (`feedback`).

/** How many messages a user sent since `since`. */
export async function countUserFeedbackSince(db: Executor, userId: number, since: Date): Promise<number> {
  const { n } = await db
    .selectFrom('feedback')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(n);
}

export interface FeedbackRow {
  id: number;
  kind: string;
  message: string;
  source: string;
  created_at: Date;
}

export async function insertFeedback(
  db: Executor,
  values: {
    accountId: number;
    environment: Environment;
    userId: number;
    apiKeyId: number | null;
    kind: string;
    message: string;
    source: string;
    now: Date;
  },
): Promise<FeedbackRow> {
  return db
    .insertInto('feedback')
    .values({
      account_id: values.accountId,
      environment: values.environment,
      user_id: values.userId,
      api_key_id: values.apiKeyId,
      kind: values.kind,
      message: values.message,
      source: values.source,
      created_at: values.now,
    })
    .returning(['id', 'kind', 'message', 'source', 'created_at'])
    .executeTakeFirstOrThrow();
}
