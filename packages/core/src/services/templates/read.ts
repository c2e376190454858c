import { listTemplateViews } from '@esign/db/queries/templates';
import type { z } from 'zod';
import type { Scope } from '../../context.ts';
import type { TemplateDto, TemplateListOutput } from '../../contracts/templates.ts';
import { containsPattern, listPage } from '../list-page.ts';
import type { ServiceContext } from '../service-context.ts';
import { toTemplateDto } from './dto.ts';
import { requireTemplateView } from './queries.ts';

type TemplateListDto = z.infer<typeof TemplateListOutput>;

/** GET /templates/{id}: the Template object with fields and documents. */
export async function getTemplate(
  sc: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  scope: Scope,
  id: number,
): Promise<TemplateDto> {
  const row = await requireTemplateView(sc.db, scope, id);
  return toTemplateDto(sc.db, row, { config: sc.config, now: sc.now(), withDetails: true });
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
  const rows = await listTemplateViews(sc.db, scope, {
    archived: Boolean(q.archived),
    cursor: q.cursor || undefined,
    pattern: q.q ? containsPattern(q.q) : undefined,
    externalId: q.external_id,
    folder: q.folder,
    limit: q.limit + 1,
  });
  const dc = { config: sc.config, now: sc.now() };
  return listPage(rows, q.limit, (page) =>
    Promise.all(page.map((r) => toTemplateDto(sc.db, r, { ...dc, withDetails: false }))),
  );
}
