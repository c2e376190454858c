import type { Executor, TemplateDocumentRow, TemplateFieldRow, TemplateRow, Tx } from '@esign/db';
import type { Scope } from '../../context.ts';
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
