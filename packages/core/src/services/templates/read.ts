import { executePrepared } from '@esign/db';
import type { z } from 'zod';
import type { Scope } from '../../context.ts';
import type { TemplateDto, TemplateListOutput } from '../../routers/templates.schemas.ts';
import { containsPattern, listPage } from '../list-page.ts';
import type { ServiceContext } from '../service-context.ts';
import { toTemplateDto } from './dto.ts';
import { requireTemplateView, templateViews } from './queries.ts';

type TemplateListDto = z.infer<typeof TemplateListOutput>;

/** GET /templates/{id}: the Template object with fields and documents. */
export async function getTemplate(
  sc: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  scope: Scope,
  id: number,
): Promise<TemplateDto> {
  const row = await requireTemplateView(sc.db, scope, id);
  return toTemplateDto(sc.db, row, { config: sc.config, now: sc.now() }, { withDetails: true });
}

/** GET /templates: the list envelope, newest first, without fields and documents. */
export async function listTemplates(
  sc: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  scope: Scope,
  q: {
    limit: number;
    cursor?: number;
    q?: string;
    archived?: boolean;
    external_id?: string;
    folder?: string;
  },
): Promise<TemplateListDto> {
  let query = templateViews(sc.db)
    .where('templates.account_id', '=', scope.accountId)
    .where('templates.environment', '=', scope.environment)
    .where('templates.archived_at', q.archived ? 'is not' : 'is', null)
    .orderBy('templates.id', 'desc')
    .limit(q.limit + 1);
  if (q.cursor) query = query.where('templates.id', '<', q.cursor);
  if (q.q) query = query.where('templates.name', 'ilike', containsPattern(q.q));
  if (q.external_id !== undefined) query = query.where('templates.external_id', '=', q.external_id);
  if (q.folder !== undefined) {
    const folder = q.folder;
    query = query.where('templates.folder_id', '=', (eb) =>
      eb
        .selectFrom('folders')
        .select('folders.id')
        .where('folders.account_id', '=', scope.accountId)
        .where('folders.environment', '=', scope.environment)
        .where('folders.name', '=', folder),
    );
  }
  const dc = { config: sc.config, now: sc.now() };
  // Every list request runs it: prepared, PostgreSQL plans each filter combination once per connection.
  return listPage(await executePrepared(sc.db, 'esign_templates_list', query), q.limit, (page) =>
    Promise.all(page.map((r) => toTemplateDto(sc.db, r, dc, { withDetails: false }))),
  );
}
