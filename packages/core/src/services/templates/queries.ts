import type { Executor, TemplateDocumentRow, TemplateFieldRow, TemplateRow, Tx } from '@esign/db';
import { type RawBuilder, sql } from 'kysely';
import type { Scope } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { type CreatedByDto, createdByColumn } from '../created-by.ts';
import { findScoped, lockScoped, requireScoped } from '../scoped.ts';

// Reads of templates and their parts. A template is found, required or locked within one account
// side (scoped.ts); its documents and fields are read by the template's id once it was found so.

export function findTemplate(db: Executor, scope: Scope, id: number): Promise<TemplateRow | undefined> {
  return findScoped(db, 'templates', scope, id);
}

/** The template, or `404 not_found`. */
export function requireTemplate(db: Executor, scope: Scope, id: number): Promise<TemplateRow> {
  return requireScoped(db, 'templates', scope, id);
}

/** What the Template object shows besides the row: its creator and its folder's name. */
interface TemplateRelations {
  created_by: CreatedByDto | null;
  folder_name: string | null;
}

/** The template's columns the Template object shows, and its relations. */
export type TemplateView = Pick<
  TemplateRow,
  'id' | 'name' | 'external_id' | 'roles' | 'archived_at' | 'created_at' | 'updated_at'
> &
  TemplateRelations;

function folderNameColumn(folderId: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(select f.name from folders f where f.id = ${folderId})`;
}

/**
 * Templates with what their DTO shows, read in the same statement (one query per page, whatever
 * its size). Filters name their columns `templates.…`.
 */
export function templateViews(db: Executor) {
  return (
    db
      .selectFrom('templates')
      // Only what the DTO shows: a list page reads (and the driver parses) no other column.
      .select([
        'templates.id',
        'templates.name',
        'templates.external_id',
        'templates.roles',
        'templates.archived_at',
        'templates.created_at',
        'templates.updated_at',
        createdByColumn(sql.ref('templates.created_by_user_id')).as('created_by'),
        folderNameColumn(sql.ref('templates.folder_id')).as('folder_name'),
      ])
  );
}

/** The template with its creator and folder, or `404 not_found`. */
export async function requireTemplateView(db: Executor, scope: Scope, id: number): Promise<TemplateView> {
  const row = await templateViews(db)
    .where('templates.id', '=', id)
    .where('templates.account_id', '=', scope.accountId)
    .where('templates.environment', '=', scope.environment)
    .executeTakeFirst();
  if (!row) throw notFound('Template', id);
  return row;
}

/** A row already at hand (just written) with its creator and folder: one statement. */
export async function templateViewOf(db: Executor, row: TemplateRow): Promise<TemplateView> {
  const relations = await db
    .selectNoFrom([
      createdByColumn(sql.val(row.created_by_user_id)).as('created_by'),
      folderNameColumn(sql.val(row.folder_id)).as('folder_name'),
    ])
    .executeTakeFirstOrThrow();
  return { ...row, ...relations };
}

/** The template locked until the transaction ends, or `404 not_found`. */
export function lockTemplate(tx: Tx, scope: Scope, id: number): Promise<TemplateRow> {
  return lockScoped(tx, 'templates', scope, id);
}

export async function loadTemplateFields(db: Executor, templateId: number): Promise<TemplateFieldRow[]> {
  return db
    .selectFrom('template_fields')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('position')
    .execute();
}

export async function loadTemplateDocuments(
  db: Executor,
  templateId: number,
): Promise<TemplateDocumentRow[]> {
  return db
    .selectFrom('template_documents')
    .selectAll()
    .where('template_id', '=', templateId)
    .orderBy('position')
    .execute();
}

/** The id of the named folder of this account side, made on first use; null clears, undefined keeps. */
export async function folderId(
  tx: Executor,
  scope: Scope,
  name: string | undefined | null,
): Promise<number | null | undefined> {
  if (name === undefined) return undefined;
  if (name === null) return null;
  await tx
    .insertInto('folders')
    .values({ account_id: scope.accountId, environment: scope.environment, name })
    .onConflict((oc) => oc.columns(['account_id', 'environment', 'name']).doNothing())
    .execute();
  const row = await tx
    .selectFrom('folders')
    .select('id')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}
