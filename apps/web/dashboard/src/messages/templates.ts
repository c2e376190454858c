/** Words of templates, the template editor, uploads, public signing links and embedding (pages/editor/, template-row, templates, template-filters, upload, upload-parts, upload-errors.ts, signing-link, embed-settings). */
export const templates = {} as const;
