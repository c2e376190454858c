import { type Insertable, sql, type Updateable } from 'kysely';
import { compiledOnce, type Executor, json, type Tx } from '../connection.ts';
import type { Environment, TemplateRow, TemplatesTable } from '../schema.ts';
import type { Scope } from '../scope.ts';
import { type CreatedByRow, createdByColumn } from './created-by.ts';
import { folderNameColumn } from './folders.ts';

// Templates (the rows; their documents and fields: template-documents.ts, template-fields.ts). One
// template by id within an account side is scoped.ts's `findScoped`/`lockScopedRow`.

/** The template's columns the Template object shows, with its creator and its folder's name. */
export type TemplateView = Pick<
  TemplateRow,
  | 'id'
  | 'name'
  | 'external_id'
  | 'roles'
  | 'role_kinds'
  | 'archived_at'
  | 'created_at'
  | 'updated_at'
  | 'brand_id'
> & {
  created_by: CreatedByRow | null;
  folder_name: string | null;
};

/** Templates with what their Template object shows, read in the same statement (no query per row). */
function templateViews(db: Executor) {
  return (
    db
      .selectFrom('templates')
      // Only what the object shows: a list page reads (and the driver parses) no other column.
      .select([
        'templates.id',
        'templates.name',
        'templates.external_id',
        'templates.roles',
        'templates.role_kinds',
        'templates.archived_at',
        'templates.created_at',
        'templates.updated_at',
        'templates.brand_id',
        createdByColumn(sql.ref('templates.created_by_user_id')).as('created_by'),
        folderNameColumn(sql.ref('templates.folder_id')).as('folder_name'),
      ])
  );
}

/** The template `id` of this account side with its creator and folder, or undefined. */
export function findTemplateView(db: Executor, scope: Scope, id: number): Promise<TemplateView | undefined> {
  return templateViews(db)
    .where('templates.id', '=', id)
    .where('templates.account_id', '=', scope.accountId)
    .where('templates.environment', '=', scope.environment)
    .executeTakeFirst();
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

/** GET /templates' filters; `pattern` is an ILIKE pattern on the name. */
export interface TemplateListFilters {
  /** Archived templates only (else active ones only). */
  archived: boolean;
  /** Ids below this one (the previous page's last). */
  cursor?: number;
  pattern?: string;
  externalId?: string;
  /** The folder's name. */
  folder?: string;
  limit: number;
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
  environment: Environment;
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
      .where('templates.environment', '=', v.environment)
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
          .where('folders.environment', '=', v.environment)
          .where('folders.name', '=', v.folder!),
      );
    }
    return query;
  },
);

/** Up to `limit` templates of the account side, newest first, that pass the filters. */
export function listTemplateViews(
  db: Executor,
  scope: Scope,
  filters: TemplateListFilters,
): Promise<TemplateView[]> {
  const shape: ListShape = {
    archived: filters.archived,
    cursor: Boolean(filters.cursor),
    q: Boolean(filters.pattern),
    externalId: filters.externalId !== undefined,
    folder: filters.folder !== undefined,
  };
  return templatePage(db, shape, {
    accountId: scope.accountId,
    environment: scope.environment,
    limit: filters.limit,
    cursor: filters.cursor,
    pattern: filters.pattern,
    externalId: filters.externalId,
    folder: filters.folder,
  });
}

/** What a new template row is given (the account side comes from `scope`). */
export type NewTemplate = Omit<
  Insertable<TemplatesTable>,
  'account_id' | 'environment' | 'roles' | 'role_kinds'
> & {
  roles: string[];
  /** Issue 47: each role's kind by position (a duplicate copies them). */
  role_kinds?: string[];
};

export function insertTemplate(tx: Tx, scope: Scope, values: NewTemplate): Promise<TemplateRow> {
  return tx
    .insertInto('templates')
    .values({
      ...values,
      account_id: scope.accountId,
      environment: scope.environment,
      roles: json(values.roles),
      role_kinds: json(values.role_kinds ?? []),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The changes a template row takes; `roles` as a list. */
export type TemplateChanges = Omit<
  Updateable<TemplatesTable>,
  'id' | 'account_id' | 'environment' | 'roles' | 'role_kinds'
> & {
  roles?: string[];
  role_kinds?: string[];
};

/** Changes the template `id` (already found or locked within its account side); returns the row. */
export function updateTemplateRow(tx: Tx, id: number, changes: TemplateChanges): Promise<TemplateRow> {
  const { roles, role_kinds, ...rest } = changes;
  return tx
    .updateTable('templates')
    .set({
      ...rest,
      ...(roles !== undefined ? { roles: json(roles) } : {}),
      ...(role_kinds !== undefined ? { role_kinds: json(role_kinds) } : {}),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** What the dashboard's template list shows of a template beside its Template object. */
export interface TemplateCardRow {
  id: number;
  field_count: number;
  document_count: number;
  page_count: number;
  /** The first document (its page 1 is the thumbnail), or null for a template without one. */
  first_document: { name: string; storage_key: string; page_count: number } | null;
}

/**
 * Field, document and page counts and the first document of the templates `ids` of this account
 * side, in one statement (a list page of 100 templates is one round trip, not one per row).
 */
export function listTemplateCards(
  db: Executor,
  scope: Scope,
  ids: readonly number[],
): Promise<TemplateCardRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('templates')
    .select((eb) => [
      'templates.id',
      eb
        .selectFrom('template_fields')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('template_fields.template_id', '=', 'templates.id')
        .$asScalar()
        .$notNull()
        .as('field_count'),
      eb
        .selectFrom('template_documents')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('template_documents.template_id', '=', 'templates.id')
        .$asScalar()
        .$notNull()
        .as('document_count'),
      eb
        .selectFrom('template_documents')
        .select(sql<number>`coalesce(sum(jsonb_array_length(template_documents.pages)), 0)::int`.as('n'))
        .whereRef('template_documents.template_id', '=', 'templates.id')
        .$asScalar()
        .$notNull()
        .as('page_count'),
      eb
        .selectFrom('template_documents')
        .select(
          sql<
            TemplateCardRow['first_document']
          >`jsonb_build_object('name', template_documents.name, 'storage_key', template_documents.storage_key, 'page_count', jsonb_array_length(template_documents.pages))`.as(
            'doc',
          ),
        )
        .whereRef('template_documents.template_id', '=', 'templates.id')
        .orderBy('template_documents.position')
        .limit(1)
        .$asScalar()
        .as('first_document'),
    ])
    .where('templates.id', 'in', ids)
    .where('templates.account_id', '=', scope.accountId)
    .where('templates.environment', '=', scope.environment)
    .execute();
}
