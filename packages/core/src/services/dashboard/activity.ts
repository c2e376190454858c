import type { Executor } from '@esign/db';
import {
  type ActivityRow,
  countActiveTemplates,
  countRequestsForOverview,
  listFolderNames,
  listRecentActivity,
  listRequestActivity,
} from '@esign/db/queries/activity';
import { listRequestsWithUndeliveredSms } from '@esign/db/queries/sms';
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
  const rows = await listRequestActivity(db, scope, { requestId, limit: 500 });
  return rows.map(toActivityDto);
}

/** The overview page: credits, what is waiting on others, and the latest activity. */
export async function accountOverview(db: Executor, scope: Scope, now: Date) {
  const counts = await countRequestsForOverview(db, scope, {
    now,
    completedSince: new Date(now.getTime() - 30 * 86400_000),
  });
  const activeTemplates = await countActiveTemplates(db, scope);
  const recent = await listRecentActivity(db, scope, 15);
  return {
    credits: await getCredits(db, scope.accountId),
    waiting_on_others: counts.waiting,
    completed_last_30_days: counts.completed,
    active_templates: activeTemplates,
    recent_activity: recent.map(toActivityDto),
  };
}

/** Folder names of the account side, for the templates page's filter. */
export async function listFolders(db: Executor, scope: Scope): Promise<string[]> {
  return listFolderNames(db, scope);
}

/**
 * The requests list's warning (issue 42 item 5): which of these requests (a page of the list) have
 * a signer whose latest SMS was not delivered (undeliverable or capped), so the sender sees it
 * without opening each request. Ids of another account side are simply never in the answer.
 */
export async function requestsWithSmsProblems(db: Executor, scope: Scope, ids: number[]) {
  return { signature_request_ids: await listRequestsWithUndeliveredSms(db, scope, ids) };
}
