import { compiledOnce } from '@esign/db';
import type { z } from 'zod';
import type { Scope } from '../../context.ts';
import type { TemplateDto, TemplateListOutput } from '../../contracts/templates.ts';
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

/** Which filters a list has: its statement's structure (the values are filled in). */
interface ListShape {
  archived: boolean;
  cursor: boolean;
  q: boolean;
  externalId: boolean;
  folder: boolean;
}

interface ListValues extends Record<string, unknown> {
  accountId: number;
  environment: string;
  limit: number;
  cursor: number | undefined;
  pattern: string | undefined;
  externalId: string | undefined;
  folder: string | undefined;
}

/**
 * The list statement, built and compiled once per filter combination and run prepared: every list
 * request runs it, and building it cost more than running it (bench/README.md, issue 16).
 */
const templatePage = compiledOnce(
  'esign_templates_list',
  (s: ListShape) => `${+s.archived}${+s.cursor}${+s.q}${+s.externalId}${+s.folder}`,
  (db, v: ListValues, s: ListShape) => {
    let query = templateViews(db)
      .where('templates.account_id', '=', v.accountId)
      .where('templates.environment', '=', v.environment as Scope['environment'])
      .where('templates.archived_at', s.archived ? 'is not' : 'is', null)
      .orderBy('templates.id', 'desc')
      .limit(v.limit);
    if (s.cursor) query = query.where('templates.id', '<', v.cursor!);
    if (s.q) query = query.where('templates.name', 'ilike', v.pattern!);
    if (s.externalId) query = query.where('templates.external_id', '=', v.externalId!);
    if (s.folder) {
      query = query.where('templates.folder_id', '=', (eb) =>
        eb
          .selectFrom('folders')
          .select('folders.id')
          .where('folders.account_id', '=', v.accountId)
          .where('folders.environment', '=', v.environment as Scope['environment'])
          .where('folders.name', '=', v.folder!),
      );
    }
    return query;
  },
);

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
  const shape: ListShape = {
    archived: Boolean(q.archived),
    cursor: Boolean(q.cursor),
    q: Boolean(q.q),
    externalId: q.external_id !== undefined,
    folder: q.folder !== undefined,
  };
  const rows = await templatePage(sc.db, shape, {
    accountId: scope.accountId,
    environment: scope.environment,
    limit: q.limit + 1,
    cursor: q.cursor,
    pattern: q.q ? containsPattern(q.q) : undefined,
    externalId: q.external_id,
    folder: q.folder,
  });
  const dc = { config: sc.config, now: sc.now() };
  return listPage(rows, q.limit, (page) =>
    Promise.all(page.map((r) => toTemplateDto(sc.db, r, dc, { withDetails: false }))),
  );
}
