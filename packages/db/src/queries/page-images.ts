import type { Executor } from '../connection.ts';
import type { PageSize } from '../schema.ts';

// Page images of stored files (issue 29, item 4): the pages that could not be rendered. A stored
// file is never rewritten under its key, so a failure stays true; the link that serves the page
// (a signed, unguessable token) is the access check, so these queries take no account scope.

export interface PageRenderFailureRow {
  page: number;
  reason: string;
  failed_at: Date;
}

/** Why `page` of the file at `storageKey` could not be rendered, or undefined. */
export async function findPageRenderFailure(
  db: Executor,
  storageKey: string,
  page: number,
): Promise<PageRenderFailureRow | undefined> {
  return db
    .selectFrom('page_render_failures')
    .select(['page', 'reason', 'failed_at'])
    .where('storage_key', '=', storageKey)
    .where('page', '=', page)
    .executeTakeFirst();
}

/** The pages of the file at `storageKey` that could not be rendered, in page order. */
export async function listPageRenderFailures(db: Executor, storageKey: string): Promise<number[]> {
  const rows = await db
    .selectFrom('page_render_failures')
    .select('page')
    .where('storage_key', '=', storageKey)
    .orderBy('page')
    .execute();
  return rows.map((r) => r.page);
}

/** Remembers that `page` could not be rendered; the first failure recorded stays. */
export async function insertPageRenderFailure(
  db: Executor,
  failure: { storageKey: string; page: number; reason: string; now: Date },
): Promise<void> {
  await db
    .insertInto('page_render_failures')
    .values({
      storage_key: failure.storageKey,
      page: failure.page,
      reason: failure.reason,
      failed_at: failure.now,
    })
    .onConflict((oc) => oc.columns(['storage_key', 'page']).doNothing())
    .execute();
}

export interface TemplateDocumentToRender {
  storage_key: string;
  pages: PageSize[];
}

/** A template's documents in order, with what prerendering their page images needs. */
export async function listTemplateDocumentsToRender(
  db: Executor,
  templateId: number,
): Promise<TemplateDocumentToRender[]> {
  return db
    .selectFrom('template_documents')
    .select(['storage_key', 'pages'])
    .where('template_id', '=', templateId)
    .orderBy('position')
    .execute();
}
