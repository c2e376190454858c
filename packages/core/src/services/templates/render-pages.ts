import { listPageRenderFailures, listTemplateDocumentsToRender } from '@esign/db/queries/page-images';
import { CoreError } from '../../errors.ts';
import { renderPageImages, renderRetryCutoff } from '../file-links.ts';
import type { JobHandler, JobKind } from '../jobs.ts';

export const RENDER_PAGES_JOB = 'template.render_pages' satisfies JobKind;
/** Pages rendered ahead of the first view (a 200-page document entirely); later pages render on request. */
const PRERENDER_PAGES = 200;

/**
 * Job: render a new template's page images in the worker so signers and the editor never wait on
 * a cold render. Each document is parsed once and drawn in page order, first pages first, in the
 * document pool (a worker process); each image is stored as soon as it is drawn.
 *
 * A page that cannot be rendered (over the pool's memory or time limit) is remembered by
 * `renderPageImages` and its link answers 422 at once; prerendering that document stops there (the
 * pages after it render when asked for) and the job does not fail: a retry would only draw the
 * same page into the same limit again. Pages remembered as unrenderable are not drawn again within
 * the retry window (PAGE_RENDER_RETRY_MS).
 */
export const renderTemplatePagesJob: JobHandler = async (ctx, payload) => {
  const docs = await listTemplateDocumentsToRender(ctx.db, Number(payload.templateId));
  for (const doc of docs) {
    const count = Math.min(doc.pages.length, PRERENDER_PAGES);
    const failed = new Set(
      await listPageRenderFailures(ctx.db, {
        storageKey: doc.storage_key,
        since: renderRetryCutoff(ctx.now()),
      }),
    );
    const pages: number[] = [];
    for (let page = 1; page <= count; page++)
      if (!failed.has(page) && !(await ctx.deps.storage.exists(`${doc.storage_key}.page-${page}.png`)))
        pages.push(page);
    try {
      await renderPageImages(ctx, doc.storage_key, pages).done;
    } catch (err) {
      if (!(err instanceof CoreError && err.code === 'invalid_document')) throw err;
      ctx.logger.warn({ storageKey: doc.storage_key, err: err.message }, 'a page could not be rendered');
    }
  }
};
