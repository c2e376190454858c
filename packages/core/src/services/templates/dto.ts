import type { Executor, TemplateFieldRow } from '@esign/db';
import type { Config } from '../../config.ts';
import type { Scope } from '../../context.ts';
import { type FieldType, OPTION_TYPES, type TemplateDto } from '../../contracts/templates.ts';
import { signFileLink } from '../file-links.ts';
import {
  loadTemplateDocuments,
  loadTemplateFields,
  requireTemplateView,
  type TemplateView,
} from './queries.ts';
import { roleKindsOutput } from './role-kinds.ts';

function toFieldDto(f: TemplateFieldRow) {
  return {
    id: f.id,
    ...(f.name ? { name: f.name } : {}),
    type: f.type as FieldType,
    role: f.role,
    required: f.required,
    ...(f.options && OPTION_TYPES.includes(f.type as FieldType) ? { options: f.options } : {}),
    areas: f.areas,
    ...(f.logic ?? {}),
  };
}

export interface DtoContext {
  config: Config;
  now: Date;
}

const withRoleKinds = (row: TemplateView) => {
  const kinds = roleKindsOutput(row.roles, row.role_kinds);
  return kinds ? { role_kinds: kinds } : {};
};

/**
 * The one mapper from rows to the spec's Template object. The row carries its creator and folder
 * (templateViews); the details (fields, documents) cost two statements, the summary none.
 */
export async function toTemplateDto(
  db: Executor,
  row: TemplateView,
  dc: DtoContext & { withDetails: boolean },
): Promise<TemplateDto> {
  const dto: TemplateDto = {
    object: 'template',
    id: row.id,
    name: row.name,
    external_id: row.external_id,
    folder: row.folder_name,
    roles: row.roles,
    edit_url: `${dc.config.PUBLIC_URL}/templates/${row.id}/edit`,
    created_by: row.created_by,
    archived_at: row.archived_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    // Issue 44: shown only when a brand is chosen.
    ...(row.brand_id ? { brand_id: row.brand_id } : {}),
    // Issue 47: shown only when a role is an approver's or a viewer's.
    ...withRoleKinds(row),
  };
  if (!dc.withDetails) return dto;
  const [fields, documents] = await Promise.all([
    loadTemplateFields(db, row.id),
    loadTemplateDocuments(db, row.id),
  ]);
  dto.fields = fields.map(toFieldDto);
  dto.documents = documents.map((d) => ({
    id: d.id,
    name: d.name,
    url: signFileLink(
      dc.config,
      { k: d.storage_key, t: 'application/pdf', n: `${d.name}.pdf` },
      { now: dc.now },
    ),
    preview_image_url:
      d.pages.length > 0
        ? signFileLink(
            dc.config,
            { k: d.storage_key, t: 'image/png', n: `${d.name}-page-1.png`, p: 1 },
            { now: dc.now },
          )
        : null,
    page_count: d.pages.length,
  }));
  return dto;
}

/** Event data of a `template`: the Template object now, with fields and documents. */
export async function templateEventData(
  db: Executor,
  scope: Scope,
  { id, ...ctx }: DtoContext & { id: number },
): Promise<TemplateDto> {
  return toTemplateDto(db, await requireTemplateView(db, scope, id), { ...ctx, withDetails: true });
}
