import type { Database, SignatureRequestRow } from '@esign/db';
import { OPEN_REQUEST_STATUSES, REQUEST_STATUSES } from '@esign/domain';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { Scope } from '../../context.ts';
import type { SignatureRequestListOutput } from '../../contracts/signature-requests.ts';
import { CoreError } from '../../errors.ts';
import { listPage } from '../list-page.ts';
import type { ServiceContext } from '../service-context.ts';
import { signatureRequestDtos } from './dto.ts';
import { requestViews } from './queries.ts';
import { hasSignerMatching } from './signer-search.ts';

type SignatureRequestListDto = z.infer<typeof SignatureRequestListOutput>;

type ListQuery = { limit: number; cursor?: number; template_id?: number; q?: string };

/**
 * `status=expired` is computed (spec): stored `expired`, or open past `expires_at`. As one OR the
 * planner can only walk the account newest first until it has a page, reading more the rarer
 * expired requests are. Instead, the stored ones give their newest page from
 * signature_requests_status_idx, and the open ones past their date come from
 * signature_requests_open_expiry_scope_idx by date (few: the worker stores them as expired within
 * 30 s), both with every other filter applied; the page is the newest of those ids.
 */
function expiredIds(db: Kysely<Database>, scope: Scope, q: ListQuery, now: Date) {
  const half = (where: (eb: ExpressionBuilder<Database, 'signature_requests'>) => Expression<SqlBool>) => {
    let s = db
      .selectFrom('signature_requests')
      .select('id')
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .where(where);
    if (q.cursor) s = s.where('id', '<', q.cursor);
    if (q.template_id) s = s.where('template_id', '=', q.template_id);
    const term = q.q;
    if (term) s = s.where((eb) => hasSignerMatching(eb, term));
    return s;
  };
  const stored = half((eb) => eb('status', '=', 'expired'))
    .orderBy('id', 'desc')
    .limit(q.limit + 1);
  const overdue = half((eb) =>
    eb.and([eb('status', 'in', [...OPEN_REQUEST_STATUSES]), eb('expires_at', '<=', now)]),
  );
  return sql<number>`any(array(${stored}) || array(${overdue}))`;
}

/** GET /signature_requests: the list envelope, newest first, signers without values. */
export async function listSignatureRequests(
  sc: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  scope: Scope,
  q: ListQuery & { status?: string },
): Promise<SignatureRequestListDto> {
  const now = sc.now();
  // spec: `open` and `expired` are computed filters; the other values are the request statuses.
  const allowed: readonly string[] = ['open', ...REQUEST_STATUSES];
  if (q.status !== undefined && !allowed.includes(q.status)) {
    throw new CoreError('invalid_parameter', `status must be one of ${allowed.join(', ')}`);
  }
  let query = requestViews(sc.db)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('id', 'desc')
    .limit(q.limit + 1);
  if (q.cursor) query = query.where('id', '<', q.cursor);
  if (q.template_id) query = query.where('template_id', '=', q.template_id);
  const notExpired = (eb: ExpressionBuilder<Database, 'signature_requests'>) =>
    eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]);
  if (q.status === 'open') query = query.where('status', 'in', [...OPEN_REQUEST_STATUSES]).where(notExpired);
  else if (q.status === 'sent' || q.status === 'in_progress')
    query = query.where('status', '=', q.status).where(notExpired);
  else if (q.status === 'expired') query = query.where('id', '=', expiredIds(sc.db, scope, q, now));
  else if (q.status) query = query.where('status', '=', q.status as SignatureRequestRow['status']);
  const term = q.q;
  if (term) query = query.where((eb) => hasSignerMatching(eb, term));
  const dto = { config: sc.config, now, withValues: false };
  return listPage(await query.execute(), q.limit, (page) => signatureRequestDtos(sc.db, page, dto));
}
