import { sql } from 'kysely';
import type { Executor } from '../connection.ts';
import type { Scope } from '../scope.ts';

// The dashboard's reads of an account side's activity: audit entries with the request and signer
// they name, and the overview's counts.

/** One audit entry with the request's title and the signer it names (as they were then). */
export interface ActivityRow {
  id: number;
  type: string;
  created_at: Date;
  actor_type: string;
  ip: string | null;
  data: Record<string, unknown>;
  signature_request_id: number | null;
  template_name: string | null;
  signer_id: number | null;
  signer_name: string | null;
  signer_email: string | null;
}

function activityQuery(db: Executor, scope: Scope) {
  return db
    .selectFrom('audit_events as a')
    .leftJoin('signature_requests as r', 'r.id', 'a.signature_request_id')
    .leftJoin('signers as s', 's.id', 'a.signer_id')
    .select([
      'a.id',
      'a.type',
      'a.created_at',
      'a.actor_type',
      'a.ip',
      'a.data',
      'a.signature_request_id',
      'r.template_name',
      'a.signer_id',
      // The signer as they were when the entry was written (a hand-over changes the row, issue 42).
      sql<string | null>`case when a.signer_who is null then s.name else a.signer_who->>'name' end`.as(
        'signer_name',
      ),
      sql<string | null>`case when a.signer_who is null then s.email else a.signer_who->>'email' end`.as(
        'signer_email',
      ),
    ])
    .where('a.account_id', '=', scope.accountId)
    .where('a.environment', '=', scope.environment);
}

/** A request's audit entries, oldest first. */
export async function listRequestActivity(
  db: Executor,
  scope: Scope,
  opts: { requestId: number; limit: number },
): Promise<ActivityRow[]> {
  return activityQuery(db, scope)
    .where('a.signature_request_id', '=', opts.requestId)
    .orderBy('a.id')
    .limit(opts.limit)
    .execute();
}

/** The account side's latest audit entries, newest first. */
export async function listRecentActivity(db: Executor, scope: Scope, limit: number): Promise<ActivityRow[]> {
  return activityQuery(db, scope).orderBy('a.id', 'desc').limit(limit).execute();
}

/**
 * Requests waiting on others (sent or in progress, unexpired at `now`) and those completed after
 * `completedSince`.
 */
export async function countRequestsForOverview(
  db: Executor,
  scope: Scope,
  opts: { now: Date; completedSince: Date },
): Promise<{ waiting: number; completed: number }> {
  return db
    .selectFrom('signature_requests')
    .select([
      sql<number>`count(*) filter (where status in ('sent', 'in_progress') and (expires_at is null or expires_at > ${opts.now}))::int`.as(
        'waiting',
      ),
      sql<number>`count(*) filter (where status = 'completed' and completed_at > ${opts.completedSince})::int`.as(
        'completed',
      ),
    ])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirstOrThrow();
}

/** Templates of the account side not archived. */
export async function countActiveTemplates(db: Executor, scope: Scope): Promise<number> {
  const row = await db
    .selectFrom('templates')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Folder names of the account side, alphabetically (the templates page's filter). */
export async function listFolderNames(db: Executor, scope: Scope): Promise<string[]> {
  const rows = await db
    .selectFrom('folders')
    .select('name')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}
