import type { Executor } from '@esign/db';
import { sql } from 'kysely';
import type { Scope } from '../../context.ts';
import { getCredits } from '../credits.ts';
import { requireRequest } from '../signature-requests/index.ts';

export interface ActivityDto {
  id: number;
  type: string;
  created_at: string;
  actor_type: string;
  signature_request: { id: number; title: string | null } | null;
  signer: { id: number; name: string | null; email: string | null } | null;
  ip: string | null;
  data: Record<string, unknown>;
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
      's.name as signer_name',
      's.email as signer_email',
    ])
    .where('a.account_id', '=', scope.accountId)
    .where('a.environment', '=', scope.environment);
}

type ActivityRow = Awaited<ReturnType<ReturnType<typeof activityQuery>['execute']>>[number];

const toActivityDto = (r: ActivityRow): ActivityDto => ({
  id: Number(r.id),
  type: r.type,
  created_at: r.created_at.toISOString(),
  actor_type: r.actor_type,
  signature_request: r.signature_request_id ? { id: r.signature_request_id, title: r.template_name } : null,
  signer: r.signer_id ? { id: r.signer_id, name: r.signer_name, email: r.signer_email } : null,
  ip: r.ip,
  data: r.data,
});

/** A request's timeline, oldest first, from its audit trail (the same events the sealed trail lists). */
export async function requestTimeline(db: Executor, scope: Scope, requestId: number): Promise<ActivityDto[]> {
  await requireRequest(db, scope, requestId);
  const rows = await activityQuery(db, scope)
    .where('a.signature_request_id', '=', requestId)
    .orderBy('a.id')
    .limit(500)
    .execute();
  return rows.map(toActivityDto);
}

/** The overview page: credits, what is waiting on others, and the latest activity. */
export async function accountOverview(db: Executor, scope: Scope, now: Date) {
  const counts = await db
    .selectFrom('signature_requests')
    .select([
      sql<number>`count(*) filter (where status in ('sent', 'in_progress') and (expires_at is null or expires_at > ${now}))::int`.as(
        'waiting',
      ),
      sql<number>`count(*) filter (where status = 'completed' and completed_at > ${new Date(now.getTime() - 30 * 86400_000)})::int`.as(
        'completed_30_days',
      ),
    ])
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirstOrThrow();
  const templates = await db
    .selectFrom('templates')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  const recent = await activityQuery(db, scope).orderBy('a.id', 'desc').limit(15).execute();
  return {
    credits: await getCredits(db, scope.accountId),
    waiting_on_others: counts.waiting,
    completed_last_30_days: counts.completed_30_days,
    active_templates: templates.n,
    recent_activity: recent.map(toActivityDto),
  };
}

/** Folder names of the account side, for the templates page's filter. */
export async function listFolders(db: Executor, scope: Scope): Promise<string[]> {
  const rows = await db
    .selectFrom('folders')
    .select('name')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}
