import { renderPageImages } from '../file-links.ts';
import type { JobHandler, JobKind } from '../jobs.ts';

export const RENDER_PAGES_JOB = 'template.render_pages' satisfies JobKind;
/** Pages rendered ahead of the first view (a 200-page document entirely); later pages render on request. */
export const PRERENDER_PAGES = 200;

/**
 * Job: render a new template's page images in the worker so signers and the editor never wait on
 * a cold render. Each document is parsed once and drawn in page order, first pages first, in the
 * document pool (a worker process); each image is stored as soon as it is drawn.
 */
export const renderTemplatePagesJob: JobHandler = async (ctx, payload) => {
  const docs = await ctx.db
    .selectFrom('template_documents')
    .select(['storage_key', 'pages'])
    .where('template_id', '=', Number(payload.templateId))
    .orderBy('position')
    .execute();
  for (const doc of docs) {
    const count = Math.min(doc.pages.length, PRERENDER_PAGES);
    const pages: number[] = [];
    for (let page = 1; page <= count; page++)
      if (!(await ctx.deps.storage.exists(`${doc.storage_key}.page-${page}.png`))) pages.push(page);
    await renderPageImages(ctx.deps.storage, doc.storage_key, pages).done;
  }
};
