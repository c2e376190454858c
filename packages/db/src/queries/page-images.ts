import type { Executor } from '../connection.ts';
import type { PageSize } from '../schema.ts';

// Page images of stored files (issue 29, item 4): the pages that could not be rendered. A failure
// counts from `since` on (the caller's retry window: a page that failed on a busy machine's time
// limit is tried again later); the link that serves the page (a signed, unguessable token) is the
// access check, so these queries take no account scope.

export interface PageRenderFailureRow {
  page: number;
  reason: string;
  failed_at: Date;
}

/** Why `page` of the file at `storageKey` could not be rendered (a failure at `since` or later), or undefined. */
export async function findPageRenderFailure(
  db: Executor,
  where: { storageKey: string; page: number; since: Date },
): Promise<PageRenderFailureRow | undefined> {
  return db
    .selectFrom('page_render_failures')
    .select(['page', 'reason', 'failed_at'])
    .where('storage_key', '=', where.storageKey)
    .where('page', '=', where.page)
    .where('failed_at', '>=', where.since)
    .executeTakeFirst();
}

/** The pages of the file at `storageKey` that failed to render at `since` or later, in page order. */
export async function listPageRenderFailures(
  db: Executor,
  where: { storageKey: string; since: Date },
): Promise<number[]> {
  const rows = await db
    .selectFrom('page_render_failures')
    .select('page')
    .where('storage_key', '=', where.storageKey)
    .where('failed_at', '>=', where.since)
    .orderBy('page')
    .execute();
  return rows.map((r) => r.page);
}

/** Remembers that `page` could not be rendered (a later failure replaces an earlier one). */
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
    .onConflict((oc) =>
      oc.columns(['storage_key', 'page']).doUpdateSet({ reason: failure.reason, failed_at: failure.now }),
    )
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
