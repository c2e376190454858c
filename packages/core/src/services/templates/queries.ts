import type { Executor, TemplateRow, Tx } from '@esign/db';
import { ensureFolder } from '@esign/db/queries/folders';
import { listTemplateDocuments } from '@esign/db/queries/template-documents';
import { listTemplateFields } from '@esign/db/queries/template-fields';
import { findTemplateView, type TemplateView } from '@esign/db/queries/templates';
import type { Scope } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { lockScoped, requireScoped } from '../scoped.ts';

// The decisions on top of @esign/db's template queries: a template missing from the account side
// is `404 not_found`; a folder is named by the caller and made on first use. Its documents and
// fields are read by the template's id once it was found so (other services read them through the
// names below).

export type { TemplateView };

/** The template, or `404 not_found`. */
export function requireTemplate(db: Executor, scope: Scope, id: number): Promise<TemplateRow> {
  return requireScoped(db, 'templates', { scope, id });
}

/** The template with its creator and folder, or `404 not_found`. */
export async function requireTemplateView(db: Executor, scope: Scope, id: number): Promise<TemplateView> {
  const row = await findTemplateView(db, scope, id);
  if (!row) throw notFound('Template', id);
  return row;
}

/** The template locked until the transaction ends, or `404 not_found`. */
export function lockTemplate(tx: Tx, scope: Scope, id: number): Promise<TemplateRow> {
  return lockScoped(tx, 'templates', { scope, id });
}

/** The template's fields in order. */
export const loadTemplateFields = listTemplateFields;
/** The template's documents in order. */
export const loadTemplateDocuments = listTemplateDocuments;

/** The id of the named folder of this account side, made on first use; null clears, undefined keeps. */
export async function folderId(
  tx: Executor,
  scope: Scope,
  name: string | undefined | null,
): Promise<number | null | undefined> {
  if (name === undefined) return undefined;
  if (name === null) return null;
  return ensureFolder(tx, scope, name);
}
