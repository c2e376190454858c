import type { SignatureRequestRow } from '@esign/db';
import { listRequestViews, type RequestStatusFilter } from '@esign/db/queries/signature-requests';
import { OPEN_REQUEST_STATUSES, REQUEST_STATUSES } from '@esign/domain';
import type { z } from 'zod';
import type { Scope } from '../../context.ts';
import type { SignatureRequestListOutput } from '../../contracts/signature-requests.ts';
import { CoreError } from '../../errors.ts';
import { containsPattern, listPage } from '../list-page.ts';
import type { ServiceContext } from '../service-context.ts';
import { signatureRequestDtos } from './dto.ts';
import { indexedFragment } from './signer-search.ts';

type SignatureRequestListDto = z.infer<typeof SignatureRequestListOutput>;

type ListQuery = { limit: number; cursor?: number; template_id?: number; q?: string };

/** The spec's `status` filter: `open` and `expired` are computed; `sent`/`in_progress` exclude the overdue. */
function statusFilter(status: string | undefined): RequestStatusFilter | undefined {
  if (status === undefined) return undefined;
  if (status === 'open') return { kind: 'open', statuses: OPEN_REQUEST_STATUSES };
  if (status === 'expired') return { kind: 'expired', openStatuses: OPEN_REQUEST_STATUSES };
  if (status === 'sent' || status === 'in_progress') return { kind: 'current', status };
  return { kind: 'stored', status: status as SignatureRequestRow['status'] };
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
  const term = q.q;
  const rows = await listRequestViews(sc.db, scope, {
    limit: q.limit,
    cursor: q.cursor,
    templateId: q.template_id,
    status: statusFilter(q.status),
    search: term ? { term, pattern: containsPattern(indexedFragment(term)) } : undefined,
    now,
  });
  const dto = { config: sc.config, now, withValues: false };
  return listPage(rows, q.limit, (page) => signatureRequestDtos(sc.db, page, dto));
}
