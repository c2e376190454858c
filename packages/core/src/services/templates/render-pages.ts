import { pageImage } from '../file-links.ts';
import type { JobHandler, JobKind } from '../jobs.ts';

export const RENDER_PAGES_JOB = 'template.render_pages' satisfies JobKind;
/** Pages rendered ahead of the first view; later pages render on first request. */
export const PRERENDER_PAGES = 30;

/** Job: render a new template's page images in the worker so signers and the editor never wait on a cold render. */
export const renderTemplatePagesJob: JobHandler = async (ctx, payload) => {
  const docs = await ctx.db
    .selectFrom('template_documents')
    .select(['storage_key', 'pages'])
    .where('template_id', '=', Number(payload.templateId))
    .orderBy('position')
    .execute();
  for (const doc of docs) {
    const pdf = await ctx.deps.storage.get(doc.storage_key);
    const count = Math.min(doc.pages.length, PRERENDER_PAGES);
    for (let page = 1; page <= count; page++) await pageImage(ctx.deps.storage, doc.storage_key, page, pdf);
  }
};
